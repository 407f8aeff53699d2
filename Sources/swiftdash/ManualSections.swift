import ArgumentParser
import DashApp
import DashBuiltinWidgets

/// `swiftdash manual-sections`: the key and widget-settings reference `make man` appends to
/// swiftdash.1 (mdoc), written from the key table and the schemas. Not listed: it is for the
/// build.
struct ManualSections: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manual-sections",
        abstract: "Print the man page's KEYS and WIDGET SETTINGS sections (mdoc), for make man.",
        shouldDisplay: false)

    func run() throws {
        printOut(Manual.keys() + Manual.widgetSettings(BuiltinWidgets.bundle), terminator: "")
    }
}
