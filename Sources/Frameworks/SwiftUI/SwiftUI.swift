// `import SwiftUI` on Linux: SwiftdashKit, so that a widget's files compile as they are
// (docs/widgetkit.md, "Zero edits"). Offered on Linux only; on Apple's systems SwiftUI is Apple's.
@_exported import SwiftdashKit
