import DashWidgets
import DashHome

/// What `u` can undo of the actions of interactive widgets: for each action that has one, the
/// inverse its widget returned (a reminder marked done: open it again), newest last.
///
/// Kept apart from arrange mode's history on purpose (see the report of the actions branch):
/// the two are unified when both exist.
public struct ActionHistory: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
        public var instanceID: String
        /// The action's title ("Buy milk", "Start"), for the status bar.
        public var title: String
        /// The action that undoes it.
        public var inverse: ActionPayload
    }

    /// How many steps are kept; older ones are forgotten.
    public static let limit = 50

    public private(set) var steps: [Step] = []

    public init() {}

    public var canUndo: Bool { !steps.isEmpty }

    mutating func push(_ step: Step) {
        steps.append(step)
        if steps.count > Self.limit { steps.removeFirst(steps.count - Self.limit) }
    }

    mutating func pop() -> Step? { steps.popLast() }
}
