import Foundation
import DashCore
import DashWidgets
import DashScheduler

/// Everything that can happen to the app. Nothing reaches the state but through
/// `App.update(_:_:)` with one of these.
public enum Msg: Sendable {
    case key(Key)
    case mouse(MouseEvent)
    /// A click on a link the last frame drew (the runtime knows where it drew them).
    case click(tile: String, url: String)
    case resize(Size)
    /// The clock moved on: a deadline came, or an event arrived at this time.
    case tick(Date)
    /// A provider answered.
    case loaded(id: String, token: UInt64, result: Result<AnyTimeline, any Error>)
    /// A provider did not answer within its timeout.
    case loadTimedOut(id: String, token: UInt64, after: TimeInterval)
    /// A request from another process through the control socket.
    case control(ControlRequest)
    /// A result for the Edit Widget form or the gallery (options, a preview, a directory).
    case edit(EditMsg)
}

/// What another process can ask a running swiftdash (see `ControlProtocol`).
public enum ControlRequest: Sendable, Equatable {
    /// `swiftdash reload [KIND]`: WidgetCenter's reloadTimelines(ofKind:) / reloadAllTimelines().
    case reload(kind: String?)
}

/// Everything the program does besides computing the next state, returned by `update` and
/// run by the runtime (which turns results back into messages).
public enum Effect: Sendable {
    /// Run a provider; its result comes back as `.loaded` (or `.loadTimedOut`).
    case startLoad(LoadJob)
    /// A load whose result is no longer wanted.
    case cancelLoad(id: String, token: UInt64)
    /// Write these timeline records to the cache.
    case saveCache([InstanceRecord])
    case openURL(String)
    /// Something visible changed: draw a frame (`full`: clear the terminal first, Ctrl-L).
    case redraw(full: Bool)
    /// A line for the log file.
    case log(String)
    case quit
    /// Write the home screen to `home.yaml` (the runtime says why if it cannot).
    case writeHome(HomeConfig)
    /// Work for the Edit Widget form or the gallery; the result comes back as `.edit`.
    case edit(EditEffect)
}

extension Effect: CustomStringConvertible {
    public var description: String {
        switch self {
        case .startLoad(let j): return "startLoad(\(j.id), \(j.request.reason))"
        case .cancelLoad(let id, let token): return "cancelLoad(\(id), \(token))"
        case .saveCache(let r): return "saveCache(\(r.map(\.id).joined(separator: ",")))"
        case .openURL(let u): return "openURL(\(u))"
        case .redraw(let full): return full ? "redraw(full)" : "redraw"
        case .log(let l): return "log(\(l))"
        case .quit: return "quit"
        case .writeHome(let h): return "writeHome(\(h.tiles.count) tiles)"
        case .edit(let e): return "edit(\(e))"
        }
    }
}
