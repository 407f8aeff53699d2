import Foundation

/// The lines that differ between two texts, in order: `-` for a line of `a` that is gone, `+`
/// for a line of `b` that is new (a longest-common-subsequence line diff). Every line not listed
/// is byte-identical in both.
public func lineDiff(_ a: String, _ b: String) -> String {
    let x = a.components(separatedBy: "\n"), y = b.components(separatedBy: "\n")
    var t = Array(repeating: Array(repeating: 0, count: y.count + 1), count: x.count + 1)
    for i in stride(from: x.count - 1, through: 0, by: -1) {
        for j in stride(from: y.count - 1, through: 0, by: -1) {
            t[i][j] = x[i] == y[j] ? t[i + 1][j + 1] + 1 : max(t[i + 1][j], t[i][j + 1])
        }
    }
    var out: [String] = []
    var i = 0, j = 0
    while i < x.count || j < y.count {
        if i < x.count, j < y.count, x[i] == y[j] {
            i += 1
            j += 1
        } else if j < y.count, i == x.count || t[i][j + 1] >= t[i + 1][j] {
            out.append("+\(j + 1): \(y[j])")
            j += 1
        } else {
            out.append("-\(i + 1): \(x[i])")
            i += 1
        }
    }
    return out.joined(separator: "\n")
}
