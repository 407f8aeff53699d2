import Foundation
import DashWidgets
import DashApp
import DashHome

/// The runtime's side of `EditEffect`: runs the work and posts the result as a message.
public enum EditEffects {
    /// How long a dynamic enum's options may take to load.
    public static let optionsTimeout: TimeInterval = 15

    @Sendable public static func run(_ e: EditEffect, _ inbox: Inbox) {
        switch e {
        case .loadOptions(let r):
            if let remote = r.remote {
                OffLoopThread.start("options \(r.kind)") {
                    let result = Result { try remote(r.key, r.configuration) }
                    inbox.post(.edit(.optionsLoaded(token: r.token, result: result)))
                }
                return
            }
            Task.detached {
                let result = await options(r)
                inbox.post(.edit(.optionsLoaded(token: r.token, result: result)))
            }
        case .loadPreview(let r):
            if r.live, let remote = r.widget.remote {
                OffLoopThread.start("preview \(r.widget.kind)") {
                    let result = Result { try remote.timeline(r.configuration, r.context) }
                        .flatMap { previewEntry($0, at: r.context.now) }
                    inbox.post(.edit(.previewLoaded(token: r.token, result: result)))
                }
                return
            }
            // A snapshot of sample data runs here, on a thread of its own (no worker pool).
            let executor = LoadThreadExecutor(name: "preview \(r.widget.kind)")
            Task.detached(executorPreference: executor) {
                defer { executor.finish() }
                let result = await preview(r)
                inbox.post(.edit(.previewLoaded(token: r.token, result: result)))
            }
        case .listDirectory(let r):
            inbox.post(.edit(.directoryListed(token: r.token, result: list(r.directory))))
        }
    }

    public static func options(_ r: OptionsRequest) async -> Result<[ParameterOption], any Error> {
        do {
            let load = r.load
            let config = r.configuration
            return .success(try await Loads.withTimeout(optionsTimeout) { try await load(config) })
        } catch {
            return .failure(error)
        }
    }

    /// The entry a preview shows: the snapshot, or for a local widget its timeline's entry now.
    public static func preview(_ r: PreviewRequest) async -> Result<AnyEntry, any Error> {
        guard r.live else { return .success(await r.widget.snapshot(for: r.configuration, in: r.context)) }
        return await Loads.run(r.widget, configuration: r.configuration, in: r.context)
            .flatMap { previewEntry($0, at: r.context.now) }
    }

    /// The entry a live preview shows: the timeline's entry now, else its first.
    static func previewEntry(_ t: AnyTimeline, at now: Date) -> Result<AnyEntry, any Error> {
        guard let e = t.entry(at: now) ?? t.entries.first else { return .failure(Problem("empty timeline")) }
        return .success(e)
    }

    /// A directory's entries (the first 5,000), for file path completion.
    public static func list(_ directory: String) -> Result<[DirectoryEntry], any Error> {
        let fm = FileManager.default
        do {
            let names = try fm.contentsOfDirectory(atPath: directory)
            let base = directory.hasSuffix("/") ? directory : directory + "/"
            return .success(
                names.prefix(5_000).map { name in
                    var isDirectory: ObjCBool = false
                    _ = fm.fileExists(atPath: base + name, isDirectory: &isDirectory)
                    return DirectoryEntry(name: name, isDirectory: isDirectory.boolValue)
                })
        } catch {
            return .failure(Problem(fm.fileExists(atPath: directory) ? "not readable" : "no such directory"))
        }
    }

    struct Problem: Error, LocalizedError, Sendable {
        var text: String
        init(_ text: String) { self.text = text }
        var errorDescription: String? { text }
    }
}
