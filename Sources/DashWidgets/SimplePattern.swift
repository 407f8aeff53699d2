/// Whole-string matching for the small patterns that configuration schemas use
/// (`[A-Za-z0-9_.-]+`, `https?://.+`, `([01][0-9]|2[0-3]):[0-5][0-9]`, `[^\n]{0,60}`).
///
/// Swift's `Regex` parses and compiles a pattern on every use and brings ~0.9 MB of code into
/// the home screen's working set at startup, where every tile's configuration is checked. This
/// matcher understands literals, `.`, escaped punctuation and `\n \t \r`, bracket classes with
/// ranges and `^`, groups with `|`, and the greedy quantifiers `? * + {n} {n,} {n,m}`. Anything
/// else (anchors, `\d`, lazy quantifiers, look-arounds, Unicode properties, ...) makes `init`
/// fail, and so does a text it could judge differently from `Regex` (newlines, characters made
/// of several scalars), so `ConfigurationSchema.matches` falls back to `Regex` there; the tests
/// compare both on every built-in pattern.
struct SimplePattern {
    indirect enum Node {
        case char(Character)
        case any  // `.`: any character but a newline
        case set(ranges: [ClosedRange<Unicode.Scalar>], negated: Bool)
        case sequence([Node])
        case alternatives([Node])
        case repeated(Node, min: Int, max: Int?)
    }

    let root: Node
    /// The most steps one match may take before giving up on this matcher (then `Regex` decides).
    static let stepBudget = 200_000

    init?(_ pattern: String) {
        guard pattern.unicodeScalars.count <= 200 else { return nil }
        var parser = Parser(scalars: Array(pattern.unicodeScalars))
        guard let node = parser.alternatives(), parser.atEnd else { return nil }
        root = node
    }

    /// Whether the whole of `text` matches; nil when this matcher cannot answer exactly as `Regex` would.
    func wholeMatch(_ text: String) -> Bool? {
        var chars: [Unicode.Scalar] = []
        for c in text {
            guard c.unicodeScalars.count == 1, let s = c.unicodeScalars.first, !c.isNewline || s == "\n" else {
                return nil
            }
            chars.append(s)
        }
        let run = Run(chars)
        let matched = run.match(root, 0) { $0 == chars.count }
        return run.exhausted ? nil : matched
    }

    /// One match attempt: backtracking with continuations, within a step budget.
    private final class Run {
        let s: [Unicode.Scalar]
        var steps = 0
        var exhausted = false
        init(_ s: [Unicode.Scalar]) { self.s = s }

        /// Does `node` match at `i` such that `rest` accepts where it ends?
        func match(_ node: Node, _ i: Int, _ rest: (Int) -> Bool) -> Bool {
            steps += 1
            if steps > SimplePattern.stepBudget { exhausted = true }
            if exhausted { return false }
            switch node {
            case .char(let c):
                return i < s.count && Character(s[i]) == c && rest(i + 1)
            case .any:
                return i < s.count && s[i] != "\n" && rest(i + 1)
            case .set(let ranges, let negated):
                guard i < s.count else { return false }
                let inside = ranges.contains { $0.contains(s[i]) }
                return inside != negated && rest(i + 1)
            case .sequence(let nodes):
                return sequence(nodes[...], i, rest)
            case .alternatives(let options):
                for o in options where match(o, i, rest) { return true }
                return false
            case .repeated(let inner, let min, let max):
                return repeated(inner, min: min, max: max, count: 0, i, rest)
            }
        }

        func sequence(_ nodes: ArraySlice<Node>, _ i: Int, _ rest: (Int) -> Bool) -> Bool {
            guard let first = nodes.first else { return rest(i) }
            return match(first, i) { j in self.sequence(nodes.dropFirst(), j, rest) }
        }

        /// Greedy: as many as possible first, then fewer; an empty iteration ends the repetition.
        func repeated(_ inner: Node, min: Int, max: Int?, count: Int, _ i: Int, _ rest: (Int) -> Bool) -> Bool {
            if max.map({ count < $0 }) ?? true {
                let more = match(inner, i) { j in
                    j > i && self.repeated(inner, min: min, max: max, count: count + 1, j, rest)
                }
                if more { return true }
            }
            return count >= min && rest(i)
        }
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var at = 0
        var atEnd: Bool { at == scalars.count }
        var next: Unicode.Scalar? { at < scalars.count ? scalars[at] : nil }

        mutating func alternatives() -> Node? {
            var options: [Node] = []
            while true {
                guard let seq = sequence() else { return nil }
                options.append(seq)
                guard next == "|" else { break }
                at += 1
            }
            return options.count == 1 ? options[0] : .alternatives(options)
        }

        mutating func sequence() -> Node? {
            var nodes: [Node] = []
            while let c = next, c != "|", c != ")" {
                guard let atom = atom(), let quantified = quantifier(atom) else { return nil }
                nodes.append(quantified)
            }
            return nodes.count == 1 ? nodes[0] : .sequence(nodes)
        }

        mutating func atom() -> Node? {
            guard let c = next else { return nil }
            at += 1
            switch c {
            case "(":
                guard next != "?", let inner = alternatives(), next == ")" else { return nil }
                at += 1
                return inner
            case "[": return bracket()
            case ".": return .any
            case "\\":
                guard let e = escaped() else { return nil }
                return .char(Character(e))
            case "^", "$", "*", "+", "?", "{", "}", ")", "]": return nil
            default: return .char(Character(c))
            }
        }

        /// The character after a backslash, if it stands for itself (or is \n, \t, \r).
        mutating func escaped() -> Unicode.Scalar? {
            guard let c = next else { return nil }
            at += 1
            switch c {
            case "n": return "\n"
            case "t": return "\t"
            case "r": return "\r"
            default: return Parser.punctuation.contains(c) ? c : nil
            }
        }

        /// What a backslash may stand before and mean itself.
        static let punctuation: Set<Unicode.Scalar> = [
            "\\", "-", ".", "/", "[", "]", "(", ")", "{", "}", "*", "+", "?", "|", "^", "$", ":", "_", "#",
            "@", "&", "~", "=", "!", ",", "<", ">", "'", "\"", "%", ";", " ",
        ]

        mutating func bracket() -> Node? {
            var negated = false
            if next == "^" {
                negated = true
                at += 1
            }
            var ranges: [ClosedRange<Unicode.Scalar>] = []
            // `[]…]` (a bracket first) is not handled: the set ends empty and the parse fails.
            while next != nil, next != "]" {
                guard let low = member() else { return nil }
                if next == "-", at + 1 < scalars.count, scalars[at + 1] != "]" {
                    at += 1
                    guard let high = member(), low <= high else { return nil }
                    ranges.append(low...high)
                } else {
                    ranges.append(low...low)
                }
            }
            guard next == "]", !ranges.isEmpty else { return nil }
            at += 1
            return .set(ranges: ranges, negated: negated)
        }

        /// One character inside brackets; `[`, `&&`-style operators and classes are not handled.
        mutating func member() -> Unicode.Scalar? {
            guard let c = next else { return nil }
            at += 1
            switch c {
            case "\\": return escaped()
            case "[", "]": return nil
            default:
                // `&&`, `~~`, `--`: class operators.
                if (c == "&" || c == "~" || c == "-") && next == c { return nil }
                return c
            }
        }

        mutating func quantifier(_ atom: Node) -> Node? {
            let q: (Int, Int?)
            switch next {
            case "*": q = (0, nil)
            case "+": q = (1, nil)
            case "?": q = (0, 1)
            case "{":
                at += 1
                guard let lo = number() else { return nil }
                var hi: Int? = lo
                if next == "," {
                    at += 1
                    hi = next == "}" ? nil : number()
                    if hi == nil && next != "}" { return nil }
                }
                guard next == "}", hi.map({ $0 >= lo }) ?? true, lo <= 1000, (hi ?? 0) <= 1000 else { return nil }
                at += 1
                return lazyOrPossessive() ? nil : .repeated(atom, min: lo, max: hi)
            default: return atom
            }
            at += 1
            return lazyOrPossessive() ? nil : .repeated(atom, min: q.0, max: q.1)
        }

        /// `*?`, `++` and friends are not handled (nor is a quantifier on a quantifier).
        func lazyOrPossessive() -> Bool {
            guard let c = next else { return false }
            return c == "?" || c == "+" || c == "*" || c == "{"
        }

        mutating func number() -> Int? {
            var n = 0
            var digits = 0
            while let c = next, let d = Int(String(c)), c.isASCII, digits < 5 {
                n = n * 10 + d
                digits += 1
                at += 1
            }
            return digits > 0 ? n : nil
        }
    }
}
