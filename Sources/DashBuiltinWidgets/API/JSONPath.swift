import Foundation
import DashWidgets

/// JSON from outside, in a shape with limits: at most `maxDepth` levels (deeper is cut to
/// null), strings sanitised for one line and capped, numbers finite (others are null).
indirect enum APIJSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([APIJSON])
    /// A list longer than `maxItems`: its first and its last items are kept, and its length.
    case longArray(LongList)
    case object([(String, APIJSON)])
    /// An object with more than `maxItems` keys: the first `maxItems` in sorted order, and how many
    /// it had.
    case longObject([(String, APIJSON)], total: Int)

    /// What is kept of a list longer than `maxItems`: `[0]`, `[-1]` and `*` reach items here;
    /// an index in between is said to be beyond what is kept.
    struct LongList: Sendable, Hashable {
        var head: [APIJSON]
        var tail: [APIJSON]
        var total: Int

        /// Item `index` (negative from the end): `.some(item)`, `.none` when the list has no such
        /// item, or a sentence when it has one that was not kept.
        func item(_ index: Int) -> Result<APIJSON?, Cut> {
            let j = index < 0 ? total + index : index
            guard j >= 0, j < total else { return .success(nil) }
            if j < head.count { return .success(head[j]) }
            if j >= total - tail.count { return .success(tail[j - (total - tail.count)]) }
            let n = APIFormat.grouped(Double(total), digits: 0)
            return .failure(
                Cut(
                    message: "item [\(index)] of \(n) is not kept: swiftdash keeps a list's first \(head.count) "
                        + "and last \(tail.count) items"))
        }
    }

    /// A path step that reached what was not kept: an index of a long list between its kept first
    /// and last items, a key of a long object past the kept ones. Said instead of "no value".
    struct Cut: Error, Hashable {
        var message: String
    }

    static func == (a: APIJSON, b: APIJSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.longArray(let x), .longArray(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.longObject(let x, let n), .longObject(let y, let m)):
            return n == m && x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }
    func hash(into h: inout Hasher) { h.combine(String(describing: self)) }

    static let maxDepth = 64
    static let maxString = 2_000
    /// Most items kept from one array or object (a tile shows a handful). Of a longer list, the
    /// first `maxItems - keptFromTheEnd` and the last `keptFromTheEnd`, and its length.
    static let maxItems = 1_000
    static let keptFromTheEnd = 100

    /// Parses `data`; nil when it is not JSON.
    static func parse(_ data: Data) -> APIJSON? {
        guard let any = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        return from(any, depth: 0)
    }

    static func from(_ any: Any, depth: Int) -> APIJSON {
        guard depth < maxDepth else { return .null }
        switch any {
        case let s as String:
            return .string(String(TextSanitizer.singleLine(String(s.prefix(4 * maxString))).prefix(maxString)))
        case let n as NSNumber:
            // JSONSerialization gives booleans as NSNumber too: their type code is "c".
            if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
            let d = n.doubleValue
            return d.isFinite ? .number(d) : .null
        case let a as [Any]:
            guard a.count > maxItems else { return .array(a.map { from($0, depth: depth + 1) }) }
            return .longArray(
                LongList(
                    head: a.prefix(maxItems - keptFromTheEnd).map { from($0, depth: depth + 1) },
                    tail: a.suffix(keptFromTheEnd).map { from($0, depth: depth + 1) }, total: a.count))
        case let o as [String: Any]:
            let pairs = o.keys.sorted().prefix(maxItems).map { k in
                (String(TextSanitizer.singleLine(k).prefix(200)), from(o[k] as Any, depth: depth + 1))
            }
            return o.count > maxItems ? .longObject(pairs, total: o.count) : .object(pairs)
        default:
            return .null
        }
    }

    subscript(key: String) -> APIJSON? {
        switch self {
        case .object(let pairs), .longObject(let pairs, _): return pairs.first { $0.0 == key }?.1
        default: return nil
        }
    }

    /// The value as text for a tile: numbers without a trailing ".0", nothing for containers.
    var text: String? {
        switch self {
        case .null: return nil
        case .bool(let b): return b ? "true" : "false"
        case .number(let d): return APIFormat.plainNumber(d)
        case .string(let s): return s
        case .array(let a): return "[\(a.count) items]"
        case .longArray(let l): return "[\(l.total) items]"
        case .object(let o): return "{\(o.count) keys}"
        case .longObject(_, let total): return "{\(total) keys}"
        }
    }

    var number: Double? {
        switch self {
        case .number(let d): return d
        case .string(let s):
            guard let d = Double(s.trimmingCharacters(in: .whitespaces)), d.isFinite else { return nil }
            return d
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }
}

/// The small path syntax of the api widget: keys joined by dots, `[N]` for an index (`[-1]`
/// is the last), `*` (or `[*]`) for every item of a list, `["a.b"]` for a key with dots or
/// spaces. `data.items[0].price`, `coins.*.name`, `["weird key"].value`.
struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
        case all
    }
    var steps: [Step]
    var description: String { Self.text(steps) }

    struct SyntaxError: Error, Hashable { var message: String }

    init(steps: [Step]) { self.steps = steps }

    init(_ text: String) throws {
        var steps: [Step] = []
        let chars = Array(text.trimmingCharacters(in: .whitespaces))
        var i = 0
        var word = ""
        func flush() {
            if word == "*" { steps.append(.all) } else if !word.isEmpty { steps.append(.key(word)) }
            word = ""
        }
        guard chars.count <= 500 else { throw SyntaxError(message: "a path is at most 500 characters") }
        while i < chars.count {
            let c = chars[i]
            if c == "." {
                flush()
                i += 1
            } else if c == "[" {
                flush()
                guard let close = chars[i...].firstIndex(of: "]") else {
                    throw SyntaxError(message: "'[' without ']' in \(text)")
                }
                let inner = String(chars[(i + 1)..<close]).trimmingCharacters(in: .whitespaces)
                if inner == "*" {
                    steps.append(.all)
                } else if let n = Int(inner) {
                    steps.append(.index(n))
                } else if inner.count >= 2, let q = inner.first, q == "\"" || q == "'", inner.last == q {
                    steps.append(.key(String(inner.dropFirst().dropLast())))
                } else {
                    throw SyntaxError(message: "[\(inner)] is not an index, * or a quoted key")
                }
                i = close + 1
            } else {
                word.append(c)
                i += 1
            }
        }
        flush()
        self.steps = steps
    }

    static func text(_ steps: [Step]) -> String {
        var out = ""
        for s in steps {
            switch s {
            case .key(let k):
                let plain = !k.isEmpty && k.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
                if plain && !(Int(k) != nil) {
                    out += (out.isEmpty ? "" : ".") + k
                } else {
                    out += "[\"\(k)\"]"
                }
            case .index(let n): out += "[\(n)]"
            case .all: out += "[*]"
            }
        }
        return out.isEmpty ? "." : out
    }

    /// Every value the path reaches: one for a plain path, any number through `*`.
    func values(in root: APIJSON) -> [APIJSON] { lookup(in: root).values }

    /// The values the path reaches, and when a step reached what was not kept (an index between
    /// the kept first and last items of a long list, a key past a long object's kept ones), why.
    func lookup(in root: APIJSON) -> (values: [APIJSON], cut: APIJSON.Cut?) {
        var current = [root]
        var cut: APIJSON.Cut?
        func take(_ r: Result<APIJSON?, APIJSON.Cut>, into next: inout [APIJSON]) {
            switch r {
            case .success(let x): if let x { next.append(x) }
            case .failure(let c): cut = cut ?? c
            }
        }
        for step in steps {
            var next: [APIJSON] = []
            for v in current {
                switch (step, v) {
                case (.key(let k), .longArray(let l)):
                    if let n = Int(k), n >= 0 { take(l.item(n), into: &next) }
                case (.index(let n), .longArray(let l)): take(l.item(n), into: &next)
                case (.all, .longArray(let l)): next.append(contentsOf: l.head + l.tail)
                case (.key(let k), .object):
                    if let x = v[k] { next.append(x) }
                case (.key(let k), .longObject(let pairs, let total)):
                    if let x = v[k] {
                        next.append(x)
                    } else {
                        let n = APIFormat.grouped(Double(total), digits: 0)
                        cut = cut ?? APIJSON.Cut(
                            message: "no '\(k)' among the \(pairs.count) keys kept of \(n): swiftdash keeps an "
                                + "object's first \(pairs.count) keys in sorted order")
                    }
                case (.key(let k), .array(let a)):
                    // A numeric key on a list is an index (`items.0.name`).
                    if let n = Int(k), a.indices.contains(n) { next.append(a[n]) }
                case (.index(let n), .array(let a)):
                    let j = n < 0 ? a.count + n : n
                    if a.indices.contains(j) { next.append(a[j]) }
                case (.all, .array(let a)): next.append(contentsOf: a)
                case (.all, .object(let o)), (.all, .longObject(let o, _)): next.append(contentsOf: o.map(\.1))
                default: break
                }
                if next.count > APIJSON.maxItems { break }
            }
            current = next
        }
        return (current, current.isEmpty ? cut : nil)
    }

    /// The paths of the leaves of `root` (lists shown through their first item and `[*]`),
    /// with a sample value each: what the Edit form's preview offers to pick from.
    static func discover(_ root: APIJSON, limit: Int = 40) -> [(path: String, sample: String)] {
        var out: [(String, String)] = []
        func walk(_ v: APIJSON, _ steps: [Step], depth: Int) {
            guard out.count < limit, depth < 12 else { return }
            switch v {
            case .object(let pairs), .longObject(let pairs, _):
                for (k, x) in pairs { walk(x, steps + [.key(k)], depth: depth + 1) }
            case .array, .longArray:
                let a: [APIJSON]
                if case .longArray(let l) = v { a = l.head } else if case .array(let x) = v { a = x } else { a = [] }
                let count: Int
                if case .longArray(let l) = v { count = l.total } else { count = a.count }
                if let first = a.first {
                    if case .object = first {
                        walk(first, steps + [.index(0)], depth: depth + 1)
                    } else {
                        out.append((text(steps + [.all]), "\(count) items, first \(first.text ?? "null")"))
                    }
                }
            default:
                out.append((text(steps), v.text ?? "null"))
            }
        }
        walk(root, [], depth: 0)
        return out
    }
}
