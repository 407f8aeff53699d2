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

// The iOS 18 template's configurable control: a ControlConfigurationIntent declares parameters and
// no perform(); a setter that returns a value.

struct KettleName: ControlConfigurationIntent {
    static let title: LocalizedStringResource = "Kettle name"
    @Parameter(title: "Name", default: "Kettle") var name: String
}

struct FillKettle: AppIntent {
    static var title: LocalizedStringResource = "Fill the kettle"
    func perform() async throws -> some IntentResult & ReturnsValue<String> {
        .result(value: "filled")
    }
}

struct FlattenedGauge: View {
    var body: some View {
        ProgressView(value: 0.5).scaleEffect(y: 0.7).scaleEffect(CGSize(width: 1, height: 2))
    }
}
