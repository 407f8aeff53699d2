import Foundation
import DashHome

/// Where the loop's answer to a control-socket client goes (`Effect.reply`): the runtime's socket
/// thread waits on it; the pure core only carries it and fulfils it through the runtime.
public protocol ControlAnswer: AnyObject, Sendable {
    /// Gives the answer (the first one counts).
    func fulfil(_ text: String)
}

extension ControlProtocol {
    /// How long the socket's thread waits for the loop to answer `snapshot`.
    public static let snapshotWait: Double = 2
}
