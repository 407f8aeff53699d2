import Foundation
import Yams
import DashWidgets

/// The text of `home.yaml` for a home screen: the lines of what changed edited (`HomeEditor`,
/// HomeEdit.swift), or a file written anew, always checked to read back as the home it was made for.
public enum HomeText {
    /// The comment a new file starts with.
    public static let header = [
        "# swiftdash home screen: the tiles in reading order. `swiftdash widgets` lists every widget",
        "# and its parameters. swiftdash edits this file in place (your comments stay) and keeps the",
        "# previous version as home.yaml.bak.",
    ]

    /// The new text of a file that holds `base` as `text`, changed to hold `new` by editing only
    /// the lines of what changed; a new file (`text` nil) gets a short header comment. The result
    /// always reads back as `new` (checked); `file` names the file in the error otherwise. A value
    /// edited under a YAML anchor changes for all that share it (`sharing`, or `shared`, decision 49).
    public static func edit(
        _ text: String?, holding base: HomeConfig, to asked: HomeConfig, shared: HomeSharing? = nil,
        bundle: WidgetBundle, file: String = "home.yaml"
    ) throws -> String {
        if let text, base.sameContent(as: asked) { return text }
        let new = (shared ?? sharing(text, holding: base, to: asked)).home
        // Directives, `---` and `...` stay as they are: only the document between them is edited.
        if let text, case let frame = HomeDocumentFrame(text), frame.isFramed,
            let body = try? edit(frame.body, holding: base, to: new, bundle: bundle, file: file),
            case let whole = frame.head + body + frame.tail, reads(whole, as: new, bundle: bundle)
        {
            return whole
        }
        // Values only: each replaced where it stands, not one other byte moved.
        if let text, let edited = try HomeValueEdit.edit(text, holding: base, to: new),
            reads(edited, as: new, bundle: bundle)
        {
            return edited
        }
        // Tiles or stack items added, removed or moved in a list written `[…]`: it stays flow.
        if let text, let edited = try HomeFlowEdit.edit(text, holding: base, to: new, bundle: bundle) { return edited }
        if let text, let edited = HomeEditor(text: text, old: base, new: new, bundle: bundle)?.run(),
            reads(edited, as: new, bundle: bundle)
        {
            return edited
        }
        // A file this editor does not follow: written anew, its header kept (not with aliases: 47).
        try HomeEditRefusal.refuseRewriting(text)
        let fresh = render(new, bundle: bundle, keepingHeaderOf: text)
        guard reads(fresh, as: new, bundle: bundle) else {
            throw ConfigFileError(
                file: file, line: nil,
                message: "cannot write this home screen: it would not read back as itself")
        }
        return fresh
    }

    /// A whole file for `home` (the header comment of `previous` kept, else the standard one).
    public static func render(_ home: HomeConfig, bundle: WidgetBundle, keepingHeaderOf previous: String? = nil)
        -> String
    {
        var header = HomeText.header
        if let previous {
            let lines = YAMLLines(previous)
            var n = 0
            while n < lines.count, lines.isComment(n) || lines.isBlank(n) { n += 1 }
            header = Array(lines.lines[0..<n])
            while header.last.map({ $0.allSatisfy { $0 == " " || $0 == "\t" } }) == true { header.removeLast() }
        }
        let editor = HomeEditor(empty: home, bundle: bundle)
        var out = header
        if !out.isEmpty { out.append("") }
        if let theme = home.theme { out.append("theme: " + YAMLScalar.render(theme, inFlow: false)) }
        if home.tiles.isEmpty {
            out.append("tiles: []")
        } else {
            out.append("tiles:")
            for t in home.tiles { out += editor.renderTile(t, dash: editor.style.tileDash) }
        }
        return out.joined(separator: "\n") + "\n"
    }

    static func reads(_ text: String, as home: HomeConfig, bundle: WidgetBundle) -> Bool {
        guard let back = try? HomeConfig.parse(yaml: text, file: "home.yaml", bundle: bundle) else { return false }
        return back.sameContent(as: home)
    }

    /// A value as YAML (a list as a flow sequence).
    static func value(_ v: ConfigValue, like style: Node.Scalar.Style? = nil, inFlow: Bool = false) -> String {
        if case .list(let items) = v {
            return "[" + items.map { YAMLScalar.render($0, inFlow: true) }.joined(separator: ", ") + "]"
        }
        return YAMLScalar.render(v.description, like: style, inFlow: inFlow)
    }
}
