import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// The address of a Unix socket by path, shared by the home screen's control socket (DashRuntime)
/// and `WidgetCenter` in an SDK extension (SwiftdashKit), which may depend on nothing else of
/// swiftdash's.
public enum UnixSocketAddress {
    /// The address for `path`; nil when the path does not fit (108 bytes with its NUL).
    public static func address(_ path: String) -> sockaddr_un? {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        return addr
    }

    /// Calls `body` (bind or connect) with an address for `path`. A path too long for an
    /// address (108 bytes, easily passed under a deep XDG_RUNTIME_DIR or TMPDIR) is reached
    /// through its open folder, `/proc/self/fd/N/NAME`. Nil when neither fits.
    public static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32? {
        func call(_ p: String) -> Int32? {
            guard var addr = address(p) else { return nil }
            return withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        }
        if let rc = call(path) { return rc }
        let url = URL(fileURLWithPath: path)
        let dir = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { return nil }
        defer { close(dir) }
        return call("/proc/self/fd/\(dir)/\(url.lastPathComponent)")
    }

    /// Connects `fd` to the socket at `path`: connect's result, nil when the path fits no address.
    public static func connect(_ fd: Int32, _ path: String) -> Int32? {
        withAddress(path) { Glibc.connect(fd, $0, $1) }
    }
}
