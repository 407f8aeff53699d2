import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What the home screen tells an end-to-end test (`SWIFTDASH_TEST_EVENTS=FILE`): one line per
/// event (`frame N` after each frame reaches the terminal), appended to FILE, so a test waits for
/// the program's own report instead of the wall clock. Nothing is written unless a test sets it.
public final class TestEvents: @unchecked Sendable {
    private let fd: Int32

    public init?(environment: [String: String]) {
        guard let path = environment["SWIFTDASH_TEST_EVENTS"], path.hasPrefix("/") else { return nil }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Appends `line` (one `write`, so a reader never sees half a line).
    public func say(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}
