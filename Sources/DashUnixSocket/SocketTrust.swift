import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Whether a control socket may be trusted before anything is sent to it or read from it. Its
/// folder may be in /tmp (`/tmp/swiftdash-UID` when XDG_RUNTIME_DIR is unset), where another
/// local user can make it first: a client that connected there would hand that user its pushed
/// notes and print the answers they forge. The server refuses such a folder too.
public enum SocketTrust {
    /// Why the socket at `path` must not be used: its folder or the socket itself is not the
    /// user's own, or can be written by others (group or other write bit), or is not what it
    /// should be (a link, a file). Nil when both are the user's and private, or when they do not
    /// exist (no swiftdash runs there: connecting finds no one).
    public static func problem(socketAt path: String) -> String? {
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let uid = getuid()
        var st = stat()
        guard lstat(dir, &st) == 0 else { return nil }
        let fix = "remove it (rm -r \(dir)) and start swiftdash again, or set XDG_RUNTIME_DIR to a private folder"
        if (st.st_mode & S_IFMT) != S_IFDIR {
            return "\(dir) is not a folder (\(kind(st.st_mode))); not connecting there: \(fix)"
        }
        if st.st_uid != uid {
            return "\(dir) belongs to uid \(st.st_uid), not to you (uid \(uid)): another user may have made it "
                + "to read what you send and forge the answers; not connecting there: \(fix)"
        }
        if st.st_mode & 0o022 != 0 {
            return "\(dir) can be written by others (mode \(octal(st.st_mode))): another user could put a socket "
                + "of theirs there; not connecting there: chmod 700 \(dir), or \(fix)"
        }
        guard lstat(path, &st) == 0 else { return nil }
        let fixSocket = "remove it (rm \(path)) and start swiftdash again"
        if (st.st_mode & S_IFMT) != S_IFSOCK {
            return "\(path) is not a socket (\(kind(st.st_mode))); not connecting there: \(fixSocket)"
        }
        if st.st_uid != uid {
            return "\(path) belongs to uid \(st.st_uid), not to you (uid \(uid)): another user may listen there "
                + "to read what you send and forge the answers; not connecting there: \(fixSocket)"
        }
        if st.st_mode & 0o022 != 0 {
            return "\(path) can be written by others (mode \(octal(st.st_mode))); not connecting there: \(fixSocket)"
        }
        return nil
    }

    static func octal(_ mode: mode_t) -> String {
        "0" + String(mode & 0o7777, radix: 8)
    }

    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFLNK: return "a symbolic link"
        case S_IFREG: return "a file"
        case S_IFDIR: return "a folder"
        case S_IFSOCK: return "a socket"
        case S_IFIFO: return "a FIFO"
        default: return "a device"
        }
    }
}
