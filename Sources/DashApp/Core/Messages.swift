import Foundation

/// How much a message matters: on the status line the most important one shows, the newest
/// of those; the others wait.
public enum MessageImportance: Int, Sendable, Comparable {
    /// What happened as asked, or a hint ("reloading all", "theme dark").
    case info
    /// Something went wrong or was refused ("⚠ …", "… failed: …", "cannot open …").
    case warning
    /// The answer to what the user just asked for (`u`, Ctrl-R): the user waits for it.
    case confirmation

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// A short note in the status bar ("reloading all", "no browser") that disappears by itself.
public struct StatusNote: Sendable, Equatable {
    public var text: String
    public var importance: MessageImportance
    /// When it was said (the messages pane shows it; a note waiting too long is dropped).
    public var said: Date
    public var expires: Date
    public static let lifetime: TimeInterval = 4

    public init(_ text: String, at now: Date, about subject: String? = nil) {
        self.text = text
        self.subject = subject
        self.importance = Self.importance(of: text)
        self.said = now
        self.expires = now.addingTimeInterval(Self.lifetime)
    }

    /// What the note is about ("theme"), when a newer note about it makes it untrue: that one
    /// replaces it, shown or waiting (a theme that now loads is not said to fail after).
    public var subject: String?

    /// A note confirming what the user just asked for (`u`, Ctrl-R): another note waits for it.
    public static func isConfirmation(_ text: String) -> Bool {
        text.hasPrefix("undone") || text.hasPrefix("redone") || text.hasPrefix("undo of")
    }

    /// What a note's words say about how much it matters.
    public static func importance(of text: String) -> MessageImportance {
        if isConfirmation(text) { return .confirmation }
        if text.hasPrefix("⚠") || text.hasPrefix("✗") { return .warning }
        return [" failed: ", "cannot "].contains { text.contains($0) } ? .warning : .info
    }
}

extension AppState {
    /// Shows `text` in the status bar for a few seconds, or queues it: while a more important
    /// note shows (a confirmation the user waits for, a warning), a less important one waits
    /// for it to be over; else the newest wins. A note `about` a subject replaces the notes
    /// about it. Every note is kept for the messages pane.
    public mutating func say(_ text: String, about subject: String? = nil) {
        let new = StatusNote(text, at: now, about: subject)
        messages.log(new)
        if let subject { laterNotes.removeAll { $0.subject == subject } }
        if let n = note, now < n.expires, n.importance > new.importance, subject == nil || n.subject != subject {
            laterNotes.append(new)
            return
        }
        note = new
    }

    /// The current note is over (expired, or seen: a key was pressed): the newest of the most
    /// important waiting ones, for its own lifetime; those waiting too long are dropped.
    public mutating func nextNote() {
        let now = self.now
        laterNotes.removeAll { now.timeIntervalSince($0.said) > StatusNote.waitsAtMost }
        guard let top = laterNotes.map(\.importance).max(),
            let i = laterNotes.lastIndex(where: { $0.importance == top })
        else {
            note = nil
            return
        }
        var next = laterNotes.remove(at: i)
        next.expires = now.addingTimeInterval(StatusNote.lifetime)
        note = next
    }
}

extension StatusNote {
    /// How long a note waits for a more important one before it is dropped (the messages
    /// pane still lists it).
    public static let waitsAtMost: TimeInterval = 30
}
