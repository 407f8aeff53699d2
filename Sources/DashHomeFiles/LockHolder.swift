import Foundation

/// Who holds a lock file: the holder writes its pid into it (`sign`), a process that has to
/// wait reads it back (`describe`) and names the program (`/proc/PID/comm`), so a save that
/// waits can say "saving when swiftdash (pid 812) lets go" instead of freezing in silence.
enum LockHolder {
    /// Writes this process's pid into the locked file (call holding the lock).
    static func sign(_ fd: Int32) {
        let text = Array("\(getpid())\n".utf8)
        guard ftruncate(fd, 0) == 0 else { return }
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// "swiftdash (pid 812)", or "another program" when the lock file names no live process.
    static func describe(_ fd: Int32) -> String {
        var buf = [UInt8](repeating: 0, count: 32)
        let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0,
            let pid = Int32(
                String(decoding: buf[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
            pid > 0
        else { return "another program" }
        return describe(pid: pid)
    }

    /// The program with `pid`, by its name in /proc (printable ASCII only, at most 15 bytes).
    static func describe(pid: Int32) -> String {
        guard kill(pid, 0) == 0 || errno == EPERM else { return "another program" }
        let raw = FileManager.default.contents(atPath: "/proc/\(pid)/comm") ?? Data()
        let name = String(decoding: raw.prefix(15).filter { $0 >= 0x20 && $0 < 0x7F }, as: UTF8.self)
        return name.isEmpty ? "process \(pid)" : "\(name) (pid \(pid))"
    }
}
