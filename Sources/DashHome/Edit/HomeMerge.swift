/// A three-way merge of lines, as `git merge-file` does it: the changes from `base` to `ours`
/// and from `base` to `theirs` are put together when they touch different lines (not
/// overlapping, not adjacent); nil when they meet (a conflict), or when the texts are too
/// different to compare within the budget.
package enum LineMerge {
    /// A run of `base` lines `[start, end)` replaced by `lines`.
    struct Hunk: Equatable {
        var start: Int
        var end: Int
        var lines: [Substring]
    }

    /// Cells of the longest-common-subsequence table at most (the middle, after the common
    /// start and end are taken off): a home.yaml edit is a few lines.
    static let budget = 4_000_000

    package static func merge(base: String, ours: String, theirs: String) -> String? {
        if ours == base { return theirs }
        if theirs == base || ours == theirs { return ours }
        let b = lines(base), o = lines(ours), t = lines(theirs)
        guard let mine = hunks(b, o), let other = hunks(b, t) else { return nil }
        for x in mine {
            for y in other where x.start <= y.end && y.start <= x.end {
                // Overlapping or adjacent: the same change on both sides is one change, else a conflict.
                guard x == y else { return nil }
            }
        }
        var all = mine
        for y in other where !mine.contains(y) { all.append(y) }
        var out = b
        for h in all.sorted(by: { $0.start > $1.start }) { out.replaceSubrange(h.start..<h.end, with: h.lines) }
        return out.joined(separator: "\n")
    }

    static func lines(_ s: String) -> [Substring] { s.split(separator: "\n", omittingEmptySubsequences: false) }

    /// The changes from `a` to `b`, in order.
    static func hunks(_ a: [Substring], _ b: [Substring]) -> [Hunk]? {
        var head = 0
        while head < a.count, head < b.count, a[head] == b[head] { head += 1 }
        var tail = 0
        while tail < a.count - head, tail < b.count - head, a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
        let x = Array(a[head..<(a.count - tail)]), y = Array(b[head..<(b.count - tail)])
        guard (x.count + 1) * (y.count + 1) <= budget else { return nil }
        // t[i][j]: the longest common subsequence of x[i...] and y[j...].
        let w = y.count + 1
        var t = [Int32](repeating: 0, count: (x.count + 1) * w)
        for i in stride(from: x.count - 1, through: 0, by: -1) {
            for j in stride(from: y.count - 1, through: 0, by: -1) {
                t[i * w + j] = x[i] == y[j] ? t[(i + 1) * w + j + 1] + 1 : max(t[(i + 1) * w + j], t[i * w + j + 1])
            }
        }
        var out: [Hunk] = []
        var i = 0, j = 0
        var open: Hunk? = nil
        func close() {
            if let h = open { out.append(h) }
            open = nil
        }
        while i < x.count || j < y.count {
            if i < x.count, j < y.count, x[i] == y[j] {
                close()
                i += 1
                j += 1
            } else if j < y.count, i == x.count || t[i * w + j + 1] >= t[(i + 1) * w + j] {
                if open == nil { open = Hunk(start: head + i, end: head + i, lines: []) }
                open!.lines.append(y[j])
                j += 1
            } else {
                if open == nil { open = Hunk(start: head + i, end: head + i, lines: []) }
                open!.end = head + i + 1
                i += 1
            }
        }
        close()
        return out
    }
}
