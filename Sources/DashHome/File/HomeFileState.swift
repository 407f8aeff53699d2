import DashWidgets

/// What the app knows of its `home.yaml`: the base an in-app change is written over.
public struct HomeFileState: Sendable, Equatable {
    public var path: String
    /// The file's text as last read or written (nil: there is no file yet).
    public var text: String?
    /// The home screen the file holds, its last good version, with the ids the app uses
    /// (tiles in file order).
    public var home: HomeConfig
    /// Why the file as it is now cannot be read (`file:line: message`): while it is set,
    /// writes are refused and the last good home stays on screen.
    public var problem: String?

    public init(path: String, text: String?, home: HomeConfig, problem: String? = nil) {
        self.path = path
        self.text = text
        self.home = home
        self.problem = problem
    }
}

/// Why a home screen was not written.
public struct HomeWriteFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The file is broken (an outside edit): fix it first.
        case broken
        /// Another program changed the file since the app read it.
        case changedElsewhere
        /// The file system said no (permissions, a full disk).
        case notSaved
        /// This home screen has no file (`--default-home`).
        case noFile
        /// The change cannot be written as asked (it would write a file that uses YAML aliases
        /// anew, expanding them): the screen goes back to the file, the form opens again.
        case refused
    }
    public var reason: Reason
    public var message: String
    /// The file's text now, when it is not what the app thought.
    public var current: String?
    /// The ids of `current`'s widgets (`HomeIDs`).
    public var currentIDs: HomeIDs?

    public init(_ reason: Reason, _ message: String, current: String? = nil) {
        self.reason = reason
        self.message = message
        self.current = current
    }
    public var description: String { message }
}

/// A problem reading or writing the file itself (not its contents).
public struct HomeFileError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
