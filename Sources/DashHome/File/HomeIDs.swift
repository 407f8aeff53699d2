import Foundation
import DashWidgets

/// The ids the tiles (`t3`) and widgets (`w7`) of `home.yaml` were last given, kept beside the file
/// (`.home.yaml.ids`, decision 41). The file itself holds no ids: read alone it numbers by position, so a
/// running home screen (which keeps ids across removals) and a command line process would name one
/// widget differently. Every process instead reads the file and this record together and gives the file's
/// widgets the recorded ids (`HomeConfig.adoptingIDs(from:)`, the alignment the app uses for outside
/// edits), and whoever writes the file records the ids it used. A configuration is kept only as a
/// fingerprint, so no secret is stored here.
public struct HomeIDs: Codable, Equatable, Sendable {
    public struct Item: Codable, Equatable, Sendable {
        public var id: String
        public var kind: String
        /// `HomeIDs.fingerprint` of the widget's configuration.
        public var config: String
    }

    public struct Tile: Codable, Equatable, Sendable {
        public var id: String
        public var items: [Item]
    }

    public var tiles: [Tile]

    public init(_ home: HomeConfig) {
        tiles = home.tiles.map { t in
            Tile(id: t.id, items: t.items.map { Item(id: $0.id, kind: $0.kind, config: Self.fingerprint($0.config)) })
        }
    }

    /// The configuration's values as one stable string (sorted keys, each part with its length, so no
    /// two configurations read alike), fingerprinted (FNV-1a 64).
    public static func fingerprint(_ config: WidgetConfig) -> String {
        func part(_ s: String) -> String { "\(s.utf8.count):\(s)" }
        var text = ""
        for key in config.values.keys.sorted() {
            let value: String
            switch config.values[key] {
            case .string(let v)?: value = "s" + part(v)
            case .int(let v)?: value = "i" + part(String(v))
            case .bool(let v)?: value = v ? "b1" : "b0"
            case .date(let v)?: value = "d" + part(String(v.timeIntervalSinceReferenceDate))
            case .list(let v)?: value = "l\(v.count)" + v.map(part).joined()
            case nil: value = ""
            }
            text += part(key) + value
        }
        return String(SecretFingerprint.fnv1a(text), radix: 16)
    }

    /// `w` and a number: what a widget's id looks like (a kind never does, in practice).
    public static func looksLikeWidgetID(_ s: String) -> Bool {
        s.first == "w" && (2...10).contains(s.count) && s.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The largest record read (about 100 bytes a widget: 1,000 tiles of 32 widgets fit).
    public static let maxBytes = 4 << 20

    /// The record in `data`, or nil when it is not one swiftdash wrote: every id `t` or `w` and a
    /// number, none twice, the kinds plain words.
    public static func decode(_ data: Data) -> HomeIDs? {
        guard data.count <= maxBytes, let ids = try? JSONDecoder().decode(HomeIDs.self, from: data) else { return nil }
        var seen: Set<String> = []
        func valid(_ id: String, _ prefix: Character) -> Bool {
            id.first == prefix && (2...10).contains(id.count) && id.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
                && seen.insert(id).inserted
        }
        for t in ids.tiles {
            guard valid(t.id, "t") else { return nil }
            for i in t.items {
                guard valid(i.id, "w"), i.kind.count <= 200, TextSanitizer.singleLine(i.kind) == i.kind else {
                    return nil
                }
            }
        }
        return ids
    }
}

extension HomeIDs {
    /// The largest table (cells) the alignment fills for a longest common subsequence (a few ms).
    static let largestTable = 65_536

    /// Pairs (i, j) of keys found once in `a` and once in `b`, with both i and j increasing: the
    /// longest such run (patience sorting, O(n log n)).
    static func uniqueAnchors(_ a: [String], _ b: [String]) -> [(Int, Int)] {
        var countA: [String: Int] = [:]
        var countB: [String: (count: Int, at: Int)] = [:]
        for k in a { countA[k, default: 0] += 1 }
        for (j, k) in b.enumerated() { countB[k, default: (0, j)].count += 1 }
        var pairs: [(Int, Int)] = []
        for (i, k) in a.enumerated() where countA[k] == 1 {
            if let m = countB[k], m.count == 1 { pairs.append((i, m.at)) }
        }
        // Longest run with j increasing: `tails[l]` ends the best run of length l + 1.
        var tails: [Int] = []
        var before = [Int](repeating: -1, count: pairs.count)
        for (p, pair) in pairs.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if pairs[tails[mid]].1 < pair.1 { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { before[p] = tails[lo - 1] }
            if lo == tails.count { tails.append(p) } else { tails[lo] = p }
        }
        var out: [(Int, Int)] = []
        var p = tails.last ?? -1
        while p >= 0 {
            out.append(pairs[p])
            p = before[p]
        }
        return out.reversed()
    }
}

extension HomeConfig {
    /// This home (read from the file: ids by position) with the ids `previous` gave the same tiles and
    /// widgets. Widgets are aligned in reading order: those with the same kind and configuration anchor
    /// the alignment (a longest common subsequence after the common start and end; on a change too
    /// large for its table, the widgets found once on each side, in order); between two
    /// anchors, widgets of the same kind pair up in order (the same widget with a new configuration).
    /// A tile keeps the id of the tile its first kept widget was in. Everything else gets a fresh id,
    /// one past the highest `previous` has. The same inputs give the same ids in every process.
    public func adoptingIDs(from previous: HomeIDs) -> HomeConfig {
        let old = previous.tiles.flatMap(\.items)
        let now = allInstances.map { (kind: $0.kind, config: HomeIDs.fingerprint($0.config)) }
        let n = old.count, m = now.count
        func same(_ i: Int, _ j: Int) -> Bool { old[i].kind == now[j].kind && old[i].config == now[j].config }
        // Anchors: equal widgets, in order.
        var anchors: [(Int, Int)] = []
        var lo = 0
        while lo < n, lo < m, same(lo, lo) {
            anchors.append((lo, lo))
            lo += 1
        }
        var endOld = n, endNew = m
        var tail: [(Int, Int)] = []
        while endOld > lo, endNew > lo, same(endOld - 1, endNew - 1) {
            endOld -= 1
            endNew -= 1
            tail.append((endOld, endNew))
        }
        let rows = endOld - lo, cols = endNew - lo
        // What is left between them: a longest common subsequence while its table is small; on a
        // larger change, the widgets found once on each side anchor it in order (a longest
        // increasing run of them, n log n: the table grew with the square of the tiles, issue 25).
        if rows > 0, cols > 0, rows * cols > HomeIDs.largestTable {
            let oldKeys = (lo..<endOld).map { old[$0].kind + "\u{1}" + old[$0].config }
            let newKeys = (lo..<endNew).map { now[$0].kind + "\u{1}" + now[$0].config }
            anchors += HomeIDs.uniqueAnchors(oldKeys, newKeys).map { (lo + $0.0, lo + $0.1) }
        } else if rows > 0, cols > 0 {
            var t = [Int32](repeating: 0, count: (rows + 1) * (cols + 1))
            func at(_ i: Int, _ j: Int) -> Int32 { t[i * (cols + 1) + j] }
            for i in stride(from: rows - 1, through: 0, by: -1) {
                for j in stride(from: cols - 1, through: 0, by: -1) {
                    t[i * (cols + 1) + j] =
                        same(lo + i, lo + j) ? at(i + 1, j + 1) + 1 : max(at(i + 1, j), at(i, j + 1))
                }
            }
            var i = 0, j = 0
            while i < rows, j < cols {
                if same(lo + i, lo + j) {
                    anchors.append((lo + i, lo + j))
                    i += 1
                    j += 1
                } else if at(i + 1, j) >= at(i, j + 1) {
                    i += 1
                } else {
                    j += 1
                }
            }
        }
        anchors += tail.reversed()
        var match = [String?](repeating: nil, count: m)
        // Between anchors: the same kind, in order.
        var lastOld = 0, lastNew = 0
        for (ai, aj) in anchors + [(n, m)] {
            var free: [String: [Int]] = [:]
            for i in lastOld..<ai { free[old[i].kind, default: []].append(i) }
            var taken: [String: Int] = [:]
            for j in lastNew..<aj {
                let kind = now[j].kind
                let k = taken[kind, default: 0]
                if let list = free[kind], k < list.count {
                    match[j] = old[list[k]].id
                    taken[kind] = k + 1
                }
            }
            if ai < n { match[aj] = old[ai].id }
            lastOld = ai + 1
            lastNew = aj + 1
        }
        var oldTileOf: [String: String] = [:]
        for t in previous.tiles { for inst in t.items { oldTileOf[inst.id] = t.id } }
        var nextW = old.compactMap { Int($0.id.dropFirst()) }.max() ?? 0
        var nextT = previous.tiles.compactMap { Int($0.id.dropFirst()) }.max() ?? 0
        var out = self
        var k = 0
        var usedTiles: Set<String> = []
        for ti in out.tiles.indices {
            var kept: [String] = []
            for ii in out.tiles[ti].items.indices {
                if let id = match[k] {
                    out.tiles[ti].items[ii].id = id
                    kept.append(id)
                } else {
                    nextW += 1
                    out.tiles[ti].items[ii].id = "w\(nextW)"
                }
                k += 1
            }
            if let id = kept.compactMap({ oldTileOf[$0] }).first(where: { !usedTiles.contains($0) }) {
                out.tiles[ti].id = id
            } else {
                nextT += 1
                out.tiles[ti].id = "t\(nextT)"
            }
            usedTiles.insert(out.tiles[ti].id)
        }
        return out
    }

    /// Widgets by id and kind for a message (`w1 clock, w2 note`): `instances`, else every widget of
    /// this home; at most `limit` of them, the rest counted.
    public func idList(_ instances: [WidgetInstance]? = nil, limit: Int = 20) -> String {
        let list = instances ?? allInstances
        let shown = list.prefix(limit).map { "\($0.id) \(TextSanitizer.singleLine($0.kind).prefix(40))" }
        let more = list.count > limit ? ", and \(list.count - limit) more" : ""
        return list.isEmpty ? "none" : shown.joined(separator: ", ") + more
    }
}
