import Yams
import DashWidgets

/// A value written once under a YAML anchor (`&paris`) that an edit changed where it is
/// written, so every other widget that shares it (`*paris`, `<<: *paris`) changed with it
/// (decision 49). Said to the user after the save.
public struct HomeSharedValue: Sendable, Equatable {
    /// The configuration key that was edited.
    public var key: String
    /// The anchor's name (without `&`); nil when none could be found around the value.
    public var anchor: String?
    /// The line of home.yaml (1-based) where the value is written.
    public var line: Int
    /// The instance ids of the other widgets that changed with it.
    public var others: [String]

    /// "label is shared through &paris (line 7): 2 other widgets changed too".
    public var message: String {
        let through = anchor.map { "&\($0)" } ?? "a YAML anchor"
        let n = others.count == 1 ? "1 other widget" : "\(others.count) other widgets"
        return "\(key) is shared through \(through) (line \(line)): \(n) changed too"
    }

    /// What several shared values say, on one line: the first, and how many more.
    public static func message(_ values: [HomeSharedValue]) -> String? {
        guard let first = values.first else { return nil }
        return values.count == 1 ? first.message : first.message + " (and \(values.count - 1) more)"
    }
}

/// An edit's home with what YAML anchors share applied: `home` is the asked-for home, with each
/// value edited where it is written under an anchor given alike to the widgets that share it.
public struct HomeSharing: Sendable {
    public var home: HomeConfig
    public var shared: [HomeSharedValue]
}

extension HomeText {
    /// What `new` becomes when written over `text` (holding `base`): a value the edit changes
    /// where it is written, under an anchor other widgets share, changes for all of them (the
    /// anchor stays; decision 49). A widget that reaches a value through an alias (`*x`) or a
    /// merge key (`<<: *x`) and is edited itself gets a value of its own (`HomeValueSites`), so
    /// it is not listed here; nor is one the edit changes itself.
    public static func sharing(_ text: String?, holding base: HomeConfig, to new: HomeConfig) -> HomeSharing {
        let none = HomeSharing(home: new, shared: [])
        // Nothing is shared without an alias (`*x`, `<<: *x`): most files are not composed again.
        guard let text, text.unicodeScalars.contains("*"), let changes = HomeValueEdit.changes(from: base, to: new),
            !changes.isEmpty
        else { return none }
        // The document between `%YAML … ---` and `...`, its lines counted from the file's start.
        let frame = HomeDocumentFrame(text)
        let document = frame.isFramed ? frame.body : text
        let before = frame.isFramed ? frame.head.unicodeScalars.filter { $0 == "\n" }.count : 0
        guard let root = try? YAMLGuard.compose(document, file: "home.yaml"),
            let tiles = root.mapping?["tiles"]?.sequence, tiles.count == base.tiles.count
        else { return none }
        let lines = document.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
        let sites = HomeValueSites(lines: lines, tiles: Array(tiles), base: base)
        let users = sites.users()
        var out = none
        for c in changes {
            guard let own = sites.ownSite(c), let sharing = users[own.site], sharing.count > 1 else { continue }
            // The others the edit left as they were: they change with it.
            let others = sharing.filter { u in
                base.tiles[u.tile].items[u.item].config.values[u.key]
                    == new.tiles[u.tile].items[u.item].config.values[u.key]
                    && new.tiles[u.tile].items[u.item].config.values[u.key] != c.value
            }
            guard !others.isEmpty else { continue }
            for u in others { out.home.tiles[u.tile].items[u.item].config[u.key] = c.value }
            out.shared.append(
                HomeSharedValue(
                    key: c.key, anchor: own.anchor, line: before + own.site.line + 1,
                    others: others.map { new.tiles[$0.tile].items[$0.item].id }))
        }
        return out
    }
}

extension HomeValueSites {
    /// Where change `c` is written when it is the widget's own entry (not reached through an
    /// alias `*x` or a merge key), and the nearest anchor around it: the value's own, its
    /// `config` mapping's, its widget's or its tile's.
    func ownSite(_ c: Change) -> (site: Site, anchor: String?)? {
        guard let item = itemNode(c.tile, c.item), let config = Self.own(item, "config"),
            alias(at: valueStart(afterKey: config.key)) == nil,
            let entry = Self.own(config.value, c.key), alias(at: valueStart(afterKey: entry.key)) == nil,
            let site = Self.site(entry.value.mark)
        else { return nil }
        let around = [entry.value, config.value, item, tiles[c.tile]]
        return (site, around.lazy.compactMap { anchor(at: Self.site($0.mark)) }.first)
    }

    /// The anchor written where a node starts (`&x`, maybe after a `!tag`), read from the text:
    /// Yams keeps a node's anchor weakly, so it is gone once the document is composed.
    func anchor(at site: Site?) -> String? {
        guard let site, lines.indices.contains(site.line) else { return nil }
        let cs = lines[site.line]
        var c = site.column
        func token() -> Int {
            var e = c
            while e < cs.count, !" \t,[]{}".unicodeScalars.contains(cs[e]) { e += 1 }
            return e
        }
        if c < cs.count, cs[c] == "!" {
            c = token()
            while c < cs.count, cs[c] == " " || cs[c] == "\t" { c += 1 }
        }
        guard c < cs.count, cs[c] == "&" else { return nil }
        let end = token()
        return end > c + 1 ? String(String.UnicodeScalarView(cs[(c + 1)..<end])) : nil
    }
}
