import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Legacy charsets (GBK, Big5, EUC-KR, KOI8-R, Shift_JIS, windows-125x, ISO-8859-x, …) through the
/// C library's `iconv`: every charset a feed or its HTTP header names that glibc knows. A byte
/// sequence that is not valid in the charset becomes U+FFFD and decoding goes on after it.
enum FeedIconv {
    /// Whether glibc knows `name` as a charset it can convert to UTF-8.
    static func knows(_ name: String) -> Bool {
        guard let sanitized = FeedBytes.sanitizedCharset(name) else { return false }
        let cd = iconv_open("UTF-8", sanitized)
        guard cd != iconv_t(bitPattern: -1) else { return false }
        iconv_close(cd)
        return true
    }

    /// `bytes` in `charset` as text; nil when glibc does not know the charset.
    static func decode(_ bytes: ArraySlice<UInt8>, charset: String) -> String? {
        guard let name = FeedBytes.sanitizedCharset(charset) else { return nil }
        let cd = iconv_open("UTF-8", name)
        guard cd != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(cd) }
        var input = [UInt8](bytes)
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 2)
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var offset = 0
        // Every input byte is either converted or replaced once: the loop ends.
        while offset < input.count {
            let (consumed, produced, error) = input.withUnsafeMutableBufferPointer { inBuf in
                chunk.withUnsafeMutableBufferPointer { outBuf in
                    var inPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBuf.baseAddress! + offset)
                        .assumingMemoryBound(to: CChar.self)
                    var inLeft = inBuf.count - offset
                    var outPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuf.baseAddress!)
                        .assumingMemoryBound(to: CChar.self)
                    var outLeft = outBuf.count
                    let r = iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft)
                    let code = r == -1 ? errno : 0
                    return ((inBuf.count - offset) - inLeft, outBuf.count - outLeft, code)
                }
            }
            output += chunk[0..<produced]
            offset += consumed
            switch error {
            case 0, E2BIG:
                if error == 0 && consumed == 0 && produced == 0 { offset = input.count }
            default:
                // EILSEQ or EINVAL (a sequence cut at the end): one byte becomes U+FFFD.
                output += replacement
                offset += 1
                _ = iconv(cd, nil, nil, nil, nil)  // back to the initial shift state
            }
        }
        input.removeAll()
        return String(decoding: output, as: UTF8.self)
    }
}
