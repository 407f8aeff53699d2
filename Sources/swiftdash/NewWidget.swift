import ArgumentParser
import DashApp
import DashHome
import DashWidgets
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

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

    @Option(
        help: ArgumentHelp(
            "The folder of the swiftdash SDK the package depends on (for SwiftdashKit): by default $SWIFTDASH_SDK, "
                + "else the SDK installed with swiftdash (../share/swiftdash/sdk beside its binary), "
                + "else the source folder swiftdash was built from.",
            valueName: "folder"))
    var swiftdash: String = NewWidget.defaultSDK()

    /// The environment variable that names the SDK folder (the man page is generated with it set
    /// to where `make install` puts the SDK).
    static let sdkVariable = "SWIFTDASH_SDK"

    /// This checkout: Sources/swiftdash/NewWidget.swift is two folders below it.
    static let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The SDK `new-widget` uses when not told: `$SWIFTDASH_SDK`; else the one `make install` (or
    /// the .deb) put beside this binary, BINDIR/../share/swiftdash/sdk; else, for a development
    /// build, the source checkout it was built from.
    static func defaultSDK(
        environment: [String: String] = ProcessInfo.processInfo.environment, executable: URL = runningBinary()
    ) -> String {
        if let named = environment[sdkVariable], !named.isEmpty { return (named as NSString).expandingTildeInPath }
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/swiftdash/sdk").standardizedFileURL
        if FileManager.default.fileExists(atPath: installed.appendingPathComponent("Sources/SwiftdashKit").path) {
            return installed.path
        }
        return sourceRoot
    }

    /// The file of the running binary, links resolved (a ~/bin/swiftdash link to /usr/bin/swiftdash
    /// finds /usr/share/swiftdash/sdk).
    static func runningBinary() -> URL {
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: exe)
        }
        return URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
    }

    func run() throws {
        let base = URL(fileURLWithPath: name).lastPathComponent
        guard let first = base.unicodeScalars.first, CharacterSet.letters.contains(first), base.count <= 32,
            base.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "-" }),
            base.allSatisfy(\.isASCII)
        else {
            throw usageFailure("a widget's name is letters, digits and -, starting with a letter, at most 32")
        }
        let folder = URL(fileURLWithPath: name)
        let shown = TextSanitizer.singleLine(name)
        var st = stat()
        if lstat(folder.path, &st) == 0 {
            // A link to nowhere is no folder yet, but writing through it fails (or lands elsewhere).
            if (st.st_mode & S_IFMT) == S_IFLNK, !FileManager.default.fileExists(atPath: folder.path) {
                let to = (try? FileManager.default.destinationOfSymbolicLink(atPath: folder.path)) ?? "?"
                throw usageFailure(
                    "\(shown) is a link to \(TextSanitizer.singleLine(to)), which does not exist: "
                        + "remove the link (rm \(shown)) or choose a new folder")
            }
            throw usageFailure("\(shown) exists already: choose a new folder")
        }
        let kit = URL(fileURLWithPath: swiftdash).standardizedFileURL
        guard FileManager.default.fileExists(atPath: kit.appendingPathComponent("Sources/SwiftdashKit").path) else {
            throw usageFailure("no SwiftdashKit in \(TextSanitizer.singleLine(kit.path)): pass --swiftdash FOLDER")
        }
        if let clash = NewWidgetTemplate.clash(name: base, swiftdash: kit.path) { throw usageFailure(clash) }
        let files = NewWidgetTemplate.files(name: base, swiftdash: kit.path)
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
            } catch {
                throw runtimeFailure(
                    "cannot write \(TextSanitizer.singleLine(url.path)): \(Self.reason(error, writing: url))")
            }
        }
        let exe = folder.standardizedFileURL.appendingPathComponent(".build/release/\(base)").path
        let widgets = AppPaths(environment: ProcessInfo.processInfo.environment).config.appendingPathComponent(
            "widgets")
        printOut("Wrote \(folder.path)/: Package.swift, Sources/\(base)/\(NewWidgetTemplate.typeName(base)).swift")
        printOut("It builds against the swiftdash SDK in \(TextSanitizer.singleLine(kit.path)).")
        printOut("Build it, then add it to your home:")
        printOut("  cd \(folder.path) && swift build -c release")
        printOut("  mkdir -p \(widgets.path) && ln -sf \(exe) \(widgets.path)/")
        printOut("  swiftdash add \(base) && swiftdash preview \(base)")
    }
}

extension NewWidget {
    /// Why `url` could not be written, in words (Foundation's error may say only
    /// `NSCocoaErrorDomain Code=512`): the system's reason when it gave one, else what is in the way.
    static func reason(_ error: Error, writing url: URL) -> String {
        let ns = error as NSError
        if let posix = ns.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        // The nearest folder on the way that exists: a file there, or one that cannot be written.
        var dir = url.deletingLastPathComponent()
        var st = stat()
        while dir.path != "/", stat(dir.path, &st) != 0 { dir = dir.deletingLastPathComponent() }
        let shown = TextSanitizer.singleLine(dir.path)
        if (st.st_mode & S_IFMT) != S_IFDIR { return "\(shown) is a file, not a folder" }
        if access(dir.path, W_OK) != 0 { return "\(shown) cannot be written (permission denied)" }
        switch ns.code {
        case NSFileWriteFileExistsError: return "something of that name exists already"
        case NSFileWriteNoPermissionError: return "permission denied"
        case NSFileWriteOutOfSpaceError: return "no space left on the device"
        case NSFileWriteVolumeReadOnlyError: return "the file system is read-only"
        default: return "the file system refused it"
        }
    }
}

/// The files of a new widget package.
enum NewWidgetTemplate {
    /// `my-widget` as a Swift type name: `MyWidget`; `WidgetWidget`, `DateWidget`, `SelfWidget`
    /// when the plain one would clash with a name the generated code uses or a keyword.
    static func typeName(_ name: String) -> String {
        let plain = name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return reservedTypeNames.contains(plain) ? plain + "Widget" : plain
    }

    /// The type names the generated file uses (`Provider`, `View`, `Date`, `String`…), keywords
    /// a type cannot be called (`Self`, `Any`, `Type`, `Protocol`) and the modules it imports.
    /// A test checks every capitalised word of the template is here.
    static let reservedTypeNames: Set<String> = [
        "Self", "Any", "Type", "Protocol", "Foundation", "SwiftdashKit", "Swift",
        "Provider", "TimelineProvider", "Context", "SimpleEntry", "Date", "Timeline", "TimelineEntry", "Int",
        "Double", "String", "View", "Entry", "Environment", "VStack", "HStack", "Label", "Text", "Spacer", "Gauge",
        "Widget", "WidgetConfiguration", "StaticConfiguration", "Void",
    ]

    /// Why a package of this name cannot be built, when it cannot: its module would hide one it
    /// imports, or its name is the swiftdash package's own (the identity SwiftPM tells them by).
    static func clash(name: String, swiftdash: String) -> String? {
        let module = name.replacingOccurrences(of: "-", with: "_")
        let imported = ["Foundation", "SwiftdashKit", "Swift", "Glibc", "Dispatch", "WidgetKit", "SwiftUI"]
        if let m = imported.first(where: { $0.lowercased() == module.lowercased() }) {
            return "a widget called \(name) would hide the module \(m) its code imports: choose another name"
        }
        let identity = URL(fileURLWithPath: swiftdash).lastPathComponent
        if identity.lowercased() == name.lowercased() {
            return "a widget called \(name) would have the name of the swiftdash package it depends on "
                + "(\(identity)): choose another name"
        }
        return nil
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
