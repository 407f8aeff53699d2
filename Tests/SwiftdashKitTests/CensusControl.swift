import AppIntents
import SwiftUI
import WidgetKit

// A Control Center control beside the widgets, in the Xcode template's shape: it compiles and adds
// no tile.

struct KettleIntent: SetValueIntent {
    static var title: LocalizedStringResource = "Kettle"
    @Parameter(title: "On") var value: Bool
    func perform() async throws -> some IntentResult { .result() }
}

struct KettleState: ControlValueProvider {
    var previewValue: Bool { false }
    func currentValue() async throws -> Bool { false }
}

struct KettleControl: ControlWidget {
    var body: some ControlWidgetConfiguration {
        StaticControlConfiguration(kind: "Kettle", provider: KettleState()) { isOn in
            ControlWidgetToggle("Kettle", isOn: isOn, action: KettleIntent()) { on in
                Label(on ? "Boiling" : "Off", systemImage: "flame")
            }
        }
        .displayName("Kettle")
        .description("Boil the kettle.")
    }
}
