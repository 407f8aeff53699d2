import Foundation

/// Every `#Preview` of this executable. The macro names each preview's function
/// `swiftdash_preview_…` (a C name); Swift keeps no list of them, so they are found in the
/// executable's own ELF symbol table (`.symtab`, which SwiftPM's builds keep, release included)
/// and called once, the first time a preview is asked for.
enum PreviewRegistry {
    static let prefix = "swiftdash_preview_"
    nonisolated(unsafe) static let all: [_SwiftdashPreview] = found()

    static func found() -> [_SwiftdashPreview] {
        guard let exe = try? Data(contentsOf: URL(fileURLWithPath: "/proc/self/exe"), options: .alwaysMapped),
            let symbols = ELFSymbols(exe)
        else { return [] }
        let anchorName = "swiftdashkit_preview_anchor"
        guard let anchorValue = symbols.first(where: { $0.name == anchorName })?.value else { return [] }
        let anchor: @convention(c) () -> Void = swiftdashkitPreviewAnchor
        let base = UInt(bitPattern: unsafeBitCast(anchor, to: Int.self)) &- UInt(anchorValue)
        return symbols.filter { $0.name.hasPrefix(prefix) && $0.value != 0 }.map { symbol in
            let address = UnsafeRawPointer(bitPattern: base &+ UInt(symbol.value))!
            let make = unsafeBitCast(address, to: (@convention(c) () -> UnsafeMutableRawPointer).self)
            return Unmanaged<_SwiftdashPreview>.fromOpaque(make()).takeRetainedValue()
        }
    }
}

/// Where this module's code is loaded: the difference between its address and its symbol's value
/// is the executable's load address.
@_cdecl("swiftdashkit_preview_anchor")
func swiftdashkitPreviewAnchor() {}

/// The named, defined function symbols of an ELF64 little-endian file (its `.symtab`).
struct ELFSymbols: Sequence {
    struct Symbol {
        let name: String
        let value: UInt64
    }
    private var symbols: [Symbol] = []

    init?(_ d: Data) {
        guard d.count > 64, d.prefix(4) == Data([0x7F, 0x45, 0x4C, 0x46]), d[d.startIndex + 4] == 2,
            d[d.startIndex + 5] == 1
        else { return nil }
        func int(_ at: Int, _ size: Int) -> Int {
            guard at >= 0, at + size <= d.count else { return 0 }
            var v: UInt64 = 0
            for i in (0..<size).reversed() { v = v << 8 | UInt64(d[d.startIndex + at + i]) }
            return Int(truncatingIfNeeded: v)
        }
        let sectionTable = int(0x28, 8), entrySize = int(0x3A, 2), count = int(0x3C, 2)
        guard entrySize >= 64 else { return nil }
        for i in 0..<count {
            let header = sectionTable + i * entrySize
            guard int(header + 4, 4) == 2 else { continue }  // SHT_SYMTAB
            let offset = int(header + 0x18, 8), size = int(header + 0x20, 8), each = int(header + 0x38, 8)
            let strings = sectionTable + int(header + 0x28, 4) * entrySize
            let stringsOffset = int(strings + 0x18, 8), stringsSize = int(strings + 0x20, 8)
            guard each >= 24 else { continue }
            for s in stride(from: offset, to: offset + size, by: each) {
                let info = int(s + 4, 1), section = int(s + 6, 2)
                guard info & 0xF == 2, section != 0 else { continue }  // STT_FUNC, defined
                let nameAt = int(s, 4)
                guard nameAt > 0, nameAt < stringsSize else { continue }
                let start = d.startIndex + stringsOffset + nameAt
                guard start < d.endIndex else { continue }
                // Only the names this registry looks for are decoded.
                let end = d[start...].firstIndex(of: 0) ?? d.endIndex
                guard end - start >= 18, d[start] == UInt8(ascii: "s") else { continue }
                let name = String(decoding: d[start..<end], as: UTF8.self)
                guard name.hasPrefix("swiftdash") else { continue }
                symbols.append(Symbol(name: name, value: UInt64(int(s + 8, 8))))
            }
        }
    }

    func makeIterator() -> IndexingIterator<[Symbol]> { symbols.makeIterator() }
}
