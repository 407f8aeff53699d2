// The plugin's carrier: a module that depends on the macro target. `#Preview` is declared in the
// SwiftUI and WidgetKit modules of swiftdash (Sources/Frameworks), which depend on this one.
public enum SwiftdashPreviewPlugin {}
