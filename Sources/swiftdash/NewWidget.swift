import ArgumentParser
import DashApp
import DashHome
import DashWidgets
import Foundation

/// `swiftdash new-widget NAME`: a widget package written the way WidgetKit teaches, on SwiftdashKit.
struct NewWidget: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-widget",
        abstract: "Write a Swift widget package (WidgetKit style, on SwiftdashKit) in a new folder NAME.",
        discussion: """
            The package has one widget with a provider, an entry and a view for small and medium. Build it \
            with `swift build -c release` in the folder; the command prints the line that adds it to your home.
            """)

    @Argument(help: "The package's folder and name: letters, digits and -, starting with a letter.")
    var name: String

    @Option(help: "The swiftdash source folder the package depends on (for SwiftdashKit).")
    var swiftdash: String = NewWidget.sourceRoot

    /// This checkout: Sources/swiftdash/NewWidget.swift is two folders below it.
    static let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    func run() throws {
        let base = URL(fileURLWithPath: name).lastPathComponent
        guard let first = base.unicodeScalars.first, CharacterSet.letters.contains(first), base.count <= 32,
            base.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "-" }),
            base.allSatisfy(\.isASCII)
        else {
            throw usageFailure("a widget's name is letters, digits and -, starting with a letter, at most 32")
        }
        let folder = URL(fileURLWithPath: name)
        guard !FileManager.default.fileExists(atPath: folder.path) else {
            throw usageFailure("\(TextSanitizer.singleLine(name)) exists already: choose a new folder")
        }
        let kit = URL(fileURLWithPath: swiftdash).standardizedFileURL
        guard FileManager.default.fileExists(atPath: kit.appendingPathComponent("Sources/SwiftdashKit").path) else {
            throw usageFailure("no SwiftdashKit in \(TextSanitizer.singleLine(kit.path)): pass --swiftdash FOLDER")
        }
        let files = NewWidgetTemplate.files(name: base, swiftdash: kit.path)
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let exe = folder.standardizedFileURL.appendingPathComponent(".build/release/\(base)").path
        let widgets = AppPaths(environment: ProcessInfo.processInfo.environment).config.appendingPathComponent(
            "widgets")
        printOut("Wrote \(folder.path)/: Package.swift, Sources/\(base)/\(NewWidgetTemplate.typeName(base)).swift")
        printOut("Build it, then add it to your home:")
        printOut("  cd \(folder.path) && swift build -c release")
        printOut("  mkdir -p \(widgets.path) && ln -sf \(exe) \(widgets.path)/ && swiftdash add \(base)")
    }
}

/// The files of a new widget package.
enum NewWidgetTemplate {
    /// `my-widget` as a Swift type name: `MyWidget`.
    static func typeName(_ name: String) -> String {
        name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func files(name: String, swiftdash: String) -> [(String, String)] {
        let type = typeName(name)
        let identity = URL(fileURLWithPath: swiftdash).lastPathComponent
        let manifest = """
            // swift-tools-version:6.0
            // A swiftdash widget written the way WidgetKit teaches. Build: swift build -c release
            import PackageDescription

            let package = Package(
                name: "\(name)",
                dependencies: [.package(path: "\(swiftdash)")],
                targets: [
                    .executableTarget(
                        name: "\(name)",
                        dependencies: [.product(name: "SwiftdashKit", package: "\(identity)")],
                        path: "Sources/\(name)")
                ]
            )

            """
        let source = """
            import Foundation
            import SwiftdashKit

            // One entry a minute for the next hour; swiftdash asks again when they run out (.atEnd).
            struct Provider: TimelineProvider {
                func placeholder(in context: Context) -> SimpleEntry {
                    SimpleEntry(date: Date(), count: 3)
                }

                func getSnapshot(in context: Context, completion: @escaping (SimpleEntry) -> Void) {
                    completion(SimpleEntry(date: Date(), count: 3))
                }

                func getTimeline(in context: Context, completion: @escaping (Timeline<SimpleEntry>) -> Void) {
                    let now = Date()
                    let entries = (0..<60).map { minute in
                        SimpleEntry(date: now.addingTimeInterval(Double(minute) * 60), count: minute)
                    }
                    completion(Timeline(entries: entries, policy: .atEnd))
                }
            }

            struct SimpleEntry: TimelineEntry {
                let date: Date
                let count: Int
            }

            struct \(type)EntryView: View {
                var entry: Provider.Entry
                @Environment(\\.widgetFamily) var family

                var body: some View {
                    switch family {
                    case .systemSmall:
                        VStack(alignment: .leading) {
                            Label("\(type)", systemImage: "star.fill").font(.headline)
                            Text(entry.date, style: .time)
                        }
                    default:
                        HStack {
                            VStack(alignment: .leading) {
                                Label("\(type)", systemImage: "star.fill").font(.headline)
                                Text("Entry \\(entry.count) of this hour").foregroundStyle(.secondary)
                            }
                            Spacer()
                            Gauge(value: Double(entry.count), in: 0...59) { Text("hour") }
                        }
                    }
                }
            }

            @main
            struct \(type): Widget {
                let kind: String = "\(name)"

                var body: some WidgetConfiguration {
                    StaticConfiguration(kind: kind, provider: Provider()) { entry in
                        \(type)EntryView(entry: entry)
                    }
                    .configurationDisplayName("\(type)")
                    .description("A widget written with SwiftdashKit.")
                    .supportedFamilies([.systemSmall, .systemMedium])
                }
            }

            """
        return [("Package.swift", manifest), ("Sources/\(name)/\(type).swift", source), (".gitignore", ".build/\n")]
    }
}
