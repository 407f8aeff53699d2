import Foundation
import Yams
import DashWidgets

// `HomeEditor`: lines kept verbatim, dashes and indentation, and lists of elements edited in order.
extension HomeEditor {
    // MARK: - Lines

    func pad(_ n: Int) -> String { String(repeating: " ", count: max(0, n)) }
    func copy(_ r: Range<Int>) -> [String] { r.isEmpty ? [] : Array(src.lines[r]) }
    func verbatim(_ e: YElement) -> [String] { copy(e.leadStart..<e.end) }
    func lead(_ e: YElement) -> [String] { copy(e.leadStart..<e.start) }

    /// Runs `body` with the dash of a sequence item whose mapping starts on the dash's line
    /// turned into spaces, so the mapping's entries can be moved about; `attachDash` puts it
    /// back on whichever line comes first.
    func withDashFree<T>(_ el: YElement, _ map: YMap, _ body: () -> T) -> T {
        guard map.entries[0].start == el.start else { return body() }
        let saved = src.lines[el.start]
        let chars = Array(saved.unicodeScalars)
        let n = min(map.column, chars.count)
        src.lines[el.start] = pad(n) + String(String.UnicodeScalarView(chars[n...]))
        defer { src.lines[el.start] = saved }
        return body()
    }

    /// Puts a sequence item's dash at column `d` on line `i` of `lines` (whose content starts at
    /// column `k`), or on a line of its own when that line starts further left.
    func attachDash(_ lines: [String], at i: Int, dash d: Int, keyColumn k: Int) -> [String] {
        var out = lines
        let prefix = pad(d) + "-" + pad(k - d - 1)
        guard i < out.count else { return out + [pad(d) + "-"] }
        if YAMLLines.indent(out[i]) >= k {
            out[i] = prefix + String(out[i].unicodeScalars.dropFirst(k))
        } else {
            out.insert(pad(d) + "-", at: i)
        }
        return out
    }

    // MARK: - Lists of elements

    enum Piece {
        case block(Int)
        case gap([String])
        case fresh(String)
    }

    /// The lines of a block collection's elements (from the first one's comments to the last
    /// one's end) after changing their order from `oldIDs` to `newIDs`: the elements that keep
    /// their relative order keep their lines and the gaps between them; a removed element goes
    /// with one blank gap next to it; a new or moved one is put after its predecessor with
    /// `gap` before it. `contiguous`: the elements are not next to each other in the file (no
    /// gaps between them are taken from it).
    func editList(
        _ els: [YElement], oldIDs: [String], newIDs: [String], keep: (Int) -> [String],
        make: (String) -> [String], gap newGap: [String], contiguous: Bool = false
    ) -> [String] {
        var list: [Piece] = []
        for (k, e) in els.enumerated() {
            if k > 0 { list.append(.gap(contiguous ? [] : copy(els[k - 1].end..<e.leadStart))) }
            list.append(.block(k))
        }
        let kept = Self.commonSubsequence(oldIDs, newIDs)
        func isBlankGap(_ p: Piece) -> Bool? {
            guard case .gap(let l) = p else { return nil }
            return l.allSatisfy { $0.allSatisfy { $0 == " " || $0 == "\t" } }
        }
        for (k, id) in oldIDs.enumerated() where !kept.contains(id) {
            guard var p = list.firstIndex(where: { if case .block(k) = $0 { return true } else { return false } })
            else { continue }
            let next = p + 1 < list.count ? isBlankGap(list[p + 1]) : nil
            let prev = p > 0 ? isBlankGap(list[p - 1]) : nil
            if let next, next || prev == nil || prev == false {
                list.remove(at: p + 1)
            } else if prev != nil {
                list.remove(at: p - 1)
                p -= 1
            }
            list.remove(at: p)
        }
        for (j, id) in newIDs.enumerated() where !kept.contains(id) {
            if j == 0 {
                list.insert(contentsOf: list.isEmpty ? [.fresh(id)] : [.fresh(id), .gap(newGap)], at: 0)
                continue
            }
            let before = newIDs[j - 1]
            let p =
                list.firstIndex {
                    switch $0 {
                    case .block(let k): return oldIDs[k] == before
                    case .fresh(let f): return f == before
                    case .gap: return false
                    }
                } ?? list.count - 1
            list.insert(contentsOf: [.gap(newGap), .fresh(id)], at: p + 1)
        }
        return list.flatMap { p -> [String] in
            switch p {
            case .block(let k): return keep(k)
            case .gap(let l): return l
            case .fresh(let id): return make(id)
            }
        }
    }

    /// A block mapping's entries, reordered, removed, added (`keys`) and edited.
    func emitMap(
        _ m: YMap, keys: [String], edit: (YElement) -> [String], make: (String) -> [String],
        contiguous: Bool = false
    ) -> [String] {
        editList(
            m.entries, oldIDs: m.entries.map { $0.key ?? "" }, newIDs: keys, keep: { edit(m.entries[$0]) },
            make: make, gap: [], contiguous: contiguous)
    }

    /// The gap most often left between elements, when it is only blank lines.
    func defaultGap(_ els: [YElement]) -> [String] {
        var counts: [Int: Int] = [:]
        var order: [Int] = []
        for (a, b) in zip(els, els.dropFirst()) {
            let r = a.end..<b.leadStart
            guard r.allSatisfy({ src.isBlank($0) }) else { continue }
            if counts[r.count] == nil { order.append(r.count) }
            counts[r.count, default: 0] += 1
        }
        let n = order.max { counts[$0]! < counts[$1]! } ?? 0
        return Array(repeating: "", count: n)
    }

    /// The ids of the longest common subsequence of two lists of distinct ids.
    static func commonSubsequence(_ a: [String], _ b: [String]) -> Set<String> {
        let n = a.count, m = b.count
        guard n > 0, m > 0 else { return [] }
        var t = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                t[i][j] = a[i] == b[j] ? t[i + 1][j + 1] + 1 : max(t[i + 1][j], t[i][j + 1])
            }
        }
        var out: Set<String> = []
        var i = 0, j = 0
        while i < n, j < m {
            if a[i] == b[j] {
                out.insert(a[i])
                i += 1
                j += 1
            } else if t[i + 1][j] >= t[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return out
    }
}
