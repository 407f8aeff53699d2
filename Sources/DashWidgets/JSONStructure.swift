/// The bytes of JSON text outside its strings: what a scan for nesting or numbers looks at, with
/// every string's contents (where a `[` or a `1` means nothing) skipped, escapes included.
enum JSONStructure {
    /// Calls `visit` with each byte outside a string, in order, a string's opening quote included
    /// (its contents and closing quote are not), until `visit` returns false.
    @inline(__always)
    static func forEachByte<Bytes: Sequence<UInt8>>(
        _ data: Bytes, _ visit: (UInt8) throws -> Bool
    ) rethrows {
        var inString = false
        var escaped = false
        for b in data {
            if inString {
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            if b == UInt8(ascii: "\"") { inString = true }
            guard try visit(b) else { return }
        }
    }
}
