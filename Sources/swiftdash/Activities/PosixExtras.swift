import Foundation
import Glibc

/// What `swiftdash run` and `activity watch` need of glibc that Swift's Glibc module hides (they are
/// declared only under _GNU_SOURCE or _XOPEN_SOURCE): looked up by name at run time.
enum PosixExtras {
    typealias OpenPT = @convention(c) (Int32) -> Int32
    typealias FDCall = @convention(c) (Int32) -> Int32
    typealias PtsnameR = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
    typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32

    static let posixOpenpt: OpenPT? = symbol("posix_openpt")
    static let grantpt: FDCall? = symbol("grantpt")
    static let unlockpt: FDCall? = symbol("unlockpt")
    static let ptsnameR: PtsnameR? = symbol("ptsname_r")
    /// glibc 2.36; older libcs go without (`activity watch` then asks once a second).
    static let pidfdOpen: PidfdOpen? = symbol("pidfd_open")

    /// glibc's `POSIX_SPAWN_SETSID` (2.26): the child starts a session of its own.
    static let spawnSetsid: Int32 = 0x80

    static func symbol<T>(_ name: String) -> T? {
        guard let handle = dlopen(nil, RTLD_NOW), let p = dlsym(handle, name) else { return nil }
        return unsafeBitCast(p, to: T.self)
    }

    /// A new pseudo-terminal: its master (close-on-exec) and the path of its slave.
    static func openPty() -> (master: Int32, slave: String)? {
        guard let posixOpenpt, let grantpt, let unlockpt, let ptsnameR else { return nil }
        let m = posixOpenpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard m >= 0 else { return nil }
        var name = [CChar](repeating: 0, count: 256)
        guard grantpt(m) == 0, unlockpt(m) == 0, ptsnameR(m, &name, name.count) == 0 else {
            close(m)
            return nil
        }
        return (m, String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Writes all of `bytes` to `fd` (a pass-through of a command's own output, never our text).
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var off = 0
        while off < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + off, bytes.count - off)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&p, 1, -1)
                    continue
                }
                return false
            }
            off += n
        }
        return true
    }

    /// A pipe whose ends close on exec (`pipe2` is hidden from Swift).
    static func cloexecPipe() -> (read: Int32, write: Int32)? {
        var p: [Int32] = [-1, -1]
        guard Glibc.pipe(&p) == 0 else { return nil }
        for fd in p { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (p[0], p[1])
    }

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }
}

/// Signals as readable bytes on a pipe (the self-pipe): a handler writes the signal's number, the
/// loop polls the pipe with its other descriptors. Safe whichever thread the signal lands on.
enum SignalPipe {
    nonisolated(unsafe) static var readEnd: Int32 = -1
    /// A plain global the handler reads (no array: a handler must only load and write).
    nonisolated(unsafe) static var writeEnd: Int32 = -1

    static func install(_ signals: [Int32]) {
        if readEnd < 0 {
            guard let p = PosixExtras.cloexecPipe() else { return }
            (readEnd, writeEnd) = (p.read, p.write)
            PosixExtras.setNonBlocking(readEnd)
            PosixExtras.setNonBlocking(writeEnd)
        }
        for s in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                var b = UInt8(truncatingIfNeeded: sig)
                _ = Glibc.write(SignalPipe.writeEnd, &b, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(s, &action, nil)
        }
    }

    /// The signals received since the last call.
    static func drain() -> [Int32] {
        var out: [Int32] = []
        var buf = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(readEnd, &buf, buf.count)
            if n <= 0 { break }
            out += buf[0..<n].map { Int32($0) }
        }
        return out
    }
}
