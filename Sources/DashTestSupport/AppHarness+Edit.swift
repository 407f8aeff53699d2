import Foundation
import DashCore
import DashWidgets
import DashApp
import DashHome
import DashRuntime
import XCTest

/// Answering the work the Edit Widget form and the gallery ask for.
extension AppHarness {
    /// Runs every pending preview and option load for real (local providers, sample data)
    /// and lists directories from the file system, feeding the results back.
    public func runEdits() async {
        while !edits.isEmpty {
            let e = edits.removeFirst()
            switch e {
            case .loadOptions(let r):
                send(.edit(.optionsLoaded(token: r.token, result: await EditEffects.options(r))))
            case .loadPreview(let r):
                send(.edit(.previewLoaded(token: r.token, result: await EditEffects.preview(r))))
            case .listDirectory(let r):
                send(.edit(.directoryListed(token: r.token, result: EditEffects.list(r.directory))))
            }
        }
    }

    /// The pending option loads.
    public var optionLoads: [OptionsRequest] {
        edits.compactMap { if case .loadOptions(let r) = $0 { return r } else { return nil } }
    }

    /// The pending previews.
    public var previewLoads: [PreviewRequest] {
        edits.compactMap { if case .loadPreview(let r) = $0 { return r } else { return nil } }
    }

    /// The pending directory listings.
    public var listings: [DirectoryRequest] {
        edits.compactMap { if case .listDirectory(let r) = $0 { return r } else { return nil } }
    }

    /// Answers the oldest option load with `result`.
    public func answerOptions(_ result: Result<[ParameterOption], any Error>) {
        guard let i = edits.firstIndex(where: { if case .loadOptions = $0 { return true } else { return false } }),
            case .loadOptions(let r) = edits.remove(at: i)
        else { return }
        send(.edit(.optionsLoaded(token: r.token, result: result)))
    }

    /// Answers the oldest directory listing with `entries` (or an error).
    public func answerListing(_ result: Result<[DirectoryEntry], any Error>) {
        guard let i = edits.firstIndex(where: { if case .listDirectory = $0 { return true } else { return false } }),
            case .listDirectory(let r) = edits.remove(at: i)
        else { return }
        send(.edit(.directoryListed(token: r.token, result: result)))
    }

    /// Runs the pending previews only.
    public func runPreviews() async {
        var rest: [EditEffect] = []
        let pending = edits
        edits.removeAll()
        for e in pending {
            if case .loadPreview(let r) = e {
                send(.edit(.previewLoaded(token: r.token, result: await EditEffects.preview(r))))
            } else {
                rest.append(e)
            }
        }
        edits = rest + edits
    }
}

/// Reading and moving through the Edit Widget form, and what the app handed out.
extension AppHarness {
    /// The form's field of a parameter.
    public func field(_ key: String) -> FormField? { state.form?.fields.first { $0.key == key } }

    /// Selects the form's row of a parameter (with ↓ from the top, as a person would).
    public func select(_ key: String) {
        guard let form = state.form, let i = form.fields.firstIndex(where: { $0.key == key }) else {
            return XCTFail("no field \(key)")
        }
        let delta = i - form.selected
        for _ in 0..<abs(delta) { press(delta > 0 ? .down : .up) }
    }

    /// How many times home.yaml was written.
    public var writes: Int { written.count }

    public func config(of instance: String) -> WidgetConfig? {
        state.home.allInstances.first { $0.id == instance }?.config
    }

    /// Every effect's description (what a log would see).
    public var effectText: String { effects.map(\.description).joined(separator: "\n") }
}
