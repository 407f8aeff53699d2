import Foundation
import Yams
import DashWidgets

// `HomeEditor`: a widget's configuration values, edited in place (block and flow style).
extension HomeEditor {
    // MARK: - Configuration values

    /// Keys in the widget's own order, unknown ones last.
    func orderedKeys(_ keys: some Sequence<String>, kind: String) -> [String] {
        let order = bundle[kind]?.schema.parameters.map(\.key) ?? []
        return keys.sorted { a, b in
            let ia = order.firstIndex(of: a) ?? Int.max, ib = order.firstIndex(of: b) ?? Int.max
            return ia != ib ? ia < ib : a < b
        }
    }

    func freshConfigEntry(_ c: WidgetConfig, kind: String, keyColumn k: Int) -> [String] {
        [pad(k) + "config:"]
            + orderedKeys(c.values.keys, kind: kind).map {
                pad(k + style.indent) + $0 + ": " + c.yamlValue($0)
            }
    }

    func editConfigEntry(_ e: YElement, old: WidgetConfig, new: WidgetConfig, kind: String) -> [String] {
        switch e.value {
        case .blockMap(let m):
            let fileKeys = m.entries.compactMap(\.key)
            let added = orderedKeys(new.values.keys.filter { !fileKeys.contains($0) }, kind: kind)
            let keys = fileKeys.filter { new.values[$0] != nil } + added
            let body = emitMap(
                m, keys: keys,
                edit: { ce in
                    let key = ce.key ?? ""
                    return self.editValueEntry(ce, old: old.values[key], new: new.values[key]!)
                }, make: { key in [self.pad(m.column) + key + ": " + new.yamlValue(key)] })
            return copy(e.leadStart..<m.entries[0].leadStart) + body + copy(m.entries.last!.end..<e.end)
        case .other:
            if let flow = editFlowConfig(e, old: old, new: new, kind: kind) { return flow }
        default:
            break
        }
        return lead(e) + freshConfigEntry(new, kind: kind, keyColumn: e.column)
    }

    /// One `key: value` line of a configuration, with its new value.
    func editValueEntry(_ e: YElement, old: ConfigValue?, new: ConfigValue) -> [String] {
        if old == new { return verbatim(e) }
        let key = e.key ?? ""
        switch (e.value, new) {
        case (.scalar, .list(let items)):
            // A list written as one scalar stays one while it reads back the same: one plain
            // item, or plain items joined with commas where the scalar already held several
            // (the parameter splits its text at commas; a command line is one item).
            let plain = items.allSatisfy {
                !$0.isEmpty && !$0.hasPrefix("[") && $0.trimmingCharacters(in: .whitespaces) == $0
            }
            var splitsAtCommas = false, readsWhole = false
            if case .list(let was)? = old {
                splitsAtCommas = was.count > 1
                readsWhole = was.count == 1 && was[0].contains(",")
            }
            let commas = items.contains { $0.contains(",") }
            if plain, items.count == 1 ? !commas || readsWhole : splitsAtCommas && !commas,
                let out = replacingScalar(e, with: items.joined(separator: ", "))
            {
                return out
            }
        case (.scalar, _):
            if let out = replacingScalar(e, with: new.description) { return out }
        case (.other, .list):
            if let out = replacingFlowSequence(e, with: HomeText.value(new)) { return out }
        case (.blockSeq(let seq), .list(let items)):
            return copy(e.leadStart..<seq.items[0].leadStart)
                + items.map { pad(seq.column) + "- " + YAMLScalar.render($0, inFlow: false) }
        default:
            break
        }
        return lead(e) + [pad(e.column) + key + ": " + HomeText.value(new)]
    }

    /// A `config: { … }` on one line, edited on that line.
    func editFlowConfig(_ e: YElement, old: WidgetConfig, new: WidgetConfig, kind: String) -> [String]? {
        guard case .mapping(let m) = e.node, let mark = m.mark else { return nil }
        let line = mark.line - 1
        var scalars: [(key: String, node: Node.Scalar)] = []
        for (k, v) in m {
            guard case .scalar(let s) = v, let key = k.string, s.mark?.line == mark.line, k.mark?.line == mark.line
            else {
                return nil
            }
            scalars.append((key, s))
        }
        guard line >= e.start, line < e.end, (e.start..<e.end).filter({ src.belongs($0, column: e.column) }).count == 1
        else { return nil }
        var chars = outline.scalars(line)
        if Set(scalars.map(\.key)) == Set(new.values.keys),
            !new.values.values.contains(where: {
                if case .list = $0 { return true } else { return false }
            })
        {
            // The same keys: each changed value in place, right to left.
            for (key, s) in scalars.sorted(by: { $0.node.mark!.column > $1.node.mark!.column }) {
                guard let v = new.values[key], v != old.values[key] else { continue }
                let col = s.mark!.column - 1
                guard !s.string.isEmpty || s.style != .plain,
                    let end = YAMLScalar.end(of: chars, from: col, style: s.style, inFlow: true)
                else { return nil }
                chars.replaceSubrange(
                    col..<end,
                    with: YAMLScalar.render(v.description, like: s.style, inFlow: true)
                        .unicodeScalars)
            }
        } else {
            // Keys added or removed: the braces' contents written again, keys in the file's order.
            let open = mark.column - 1
            var end = open + 1
            for (_, s) in scalars {
                guard let e = YAMLScalar.end(of: chars, from: s.mark!.column - 1, style: s.style, inFlow: true) else {
                    return nil
                }
                end = max(end, e)
            }
            guard let close = chars[end...].firstIndex(of: "}") else { return nil }
            let spaced = open + 1 < chars.count && chars[open + 1] == " "
            let fileKeys = scalars.map(\.key).filter { new.values[$0] != nil }
            let keys = fileKeys + orderedKeys(new.values.keys.filter { !fileKeys.contains($0) }, kind: kind)
            let style = Dictionary(scalars.map { ($0.key, $0.node.style) }, uniquingKeysWith: { a, _ in a })
            let inner = keys.map {
                $0 + ": "
                    + (new.secretCommands[$0] != nil
                        ? new.yamlValue($0) : HomeText.value(new.values[$0]!, like: style[$0], inFlow: true))
            }
            .joined(separator: ", ")
            let text = keys.isEmpty ? "{}" : spaced ? "{ " + inner + " }" : "{" + inner + "}"
            chars.replaceSubrange(open...close, with: text.unicodeScalars)
        }
        var out = verbatim(e)
        out[line - e.leadStart] = String(String.UnicodeScalarView(chars))
        return out
    }

    /// An entry whose value is a one-line scalar, with that scalar replaced by `text` in the same
    /// quoting style; nil when the value is not a one-line scalar.
    func replacingScalar(_ e: YElement, with text: String) -> [String]? {
        guard case .scalar(let s) = e.value, let mark = s.mark, !(s.string.isEmpty && s.style == .plain) else {
            return nil
        }
        let line = mark.line - 1
        guard line >= e.start, line < e.end,
            !(e.start..<e.end).contains(where: { $0 != line && src.belongs($0, column: e.column) && !src.isComment($0) }
            )
        else { return nil }
        var chars = outline.scalars(line)
        let col = mark.column - 1
        guard let end = YAMLScalar.end(of: chars, from: col, style: s.style, inFlow: false) else { return nil }
        chars.replaceSubrange(col..<end, with: YAMLScalar.render(text, like: s.style, inFlow: false).unicodeScalars)
        var out = verbatim(e)
        out[line - e.leadStart] = String(String.UnicodeScalarView(chars))
        return out
    }

    /// An entry whose value is a one-line flow sequence, with it replaced by `text`.
    func replacingFlowSequence(_ e: YElement, with text: String) -> [String]? {
        guard case .sequence(let q) = e.node, let mark = q.mark, e.end - e.start == 1, mark.line - 1 == e.start
        else { return nil }
        var chars = outline.scalars(e.start)
        let open = mark.column - 1
        var end = open + 1
        for item in q {
            guard case .scalar(let s) = item, let m = s.mark,
                let x = YAMLScalar.end(of: chars, from: m.column - 1, style: s.style, inFlow: true)
            else { return nil }
            end = max(end, x)
        }
        guard let close = chars[end...].firstIndex(of: "]") else { return nil }
        chars.replaceSubrange(open...close, with: text.unicodeScalars)
        var out = verbatim(e)
        out[e.start - e.leadStart] = String(String.UnicodeScalarView(chars))
        return out
    }
}
