import Foundation
import Yams
import DashWidgets

extension HomeConfig {
    /// Every problem of a `home.yaml` (`swiftdash config check`), in line order: the parser's
    /// own first problem, then each tile parsed on its own, and each configuration value of
    /// each tile on its own, so one bad tile does not hide the next. Through the same code as
    /// `parse`; what it cannot separate (two problems in one tile's keys, a second problem at
    /// the top level) shows as the first of them.
    public static func problems(yaml text: String, file: String, bundle: WidgetBundle) -> [ConfigFileError] {
        let first: ConfigFileError
        do {
            _ = try parse(yaml: text, file: file, bundle: bundle)
            return []
        } catch let e as ConfigFileError {
            first = e
        } catch {
            return [ConfigFileError(file: file, line: nil, message: "\(error)")]
        }
        var found = [first]
        // Through the guard again: composing the text unguarded would expand what `parse` refused.
        guard let root = try? YAMLGuard.compose(text, file: file), let tiles = root.mapping?["tiles"]?.sequence else {
            return found
        }
        var counter = 0
        for (i, tile) in tiles.enumerated() {
            for part in [tile] + Self.oneValueTiles(tile) {
                do { _ = try parseTile(part, index: i, counter: &counter, file: file, bundle: bundle) } catch let e
                    as ConfigFileError
                { found.append(e) } catch {}
            }
        }
        var seen: Set<String> = []
        return found.filter { seen.insert($0.description).inserted }
            .sorted { ($0.line ?? 0) < ($1.line ?? 0) }
    }

    /// Copies of a tile that keep one configuration value of one widget each.
    static func oneValueTiles(_ tile: Node) -> [Node] {
        guard let map = tile.mapping else { return [] }
        func keeping(_ m: Node.Mapping, config key: Node, _ value: Node) -> Node.Mapping {
            let cfg = m["config"]?.mapping
            let one = Node.mapping(Node.Mapping([(key, value)], cfg?.tag ?? .implicit, .any, cfg?.mark))
            return Node.Mapping(m.map { k, v in (k, k.string == "config" ? one : v) }, m.tag, m.style, m.mark)
        }
        if let stack = map["stack"]?.sequence {
            // Each item alone, then each of its values alone.
            func withStack(_ item: Node) -> Node {
                let seq = Node.sequence(Node.Sequence([item], stack.tag, stack.style, stack.mark))
                return .mapping(
                    Node.Mapping(
                        map.map { mk, mv in (mk, mk.string == "stack" ? seq : mv) },
                        map.tag, map.style, map.mark))
            }
            var out: [Node] = []
            for item in stack {
                out.append(withStack(item))
                guard let im = item.mapping, let cfg = im["config"]?.mapping else { continue }
                for (k, v) in cfg { out.append(withStack(.mapping(keeping(im, config: k, v)))) }
            }
            return out
        }
        guard let cfg = map["config"]?.mapping else { return [] }
        return cfg.map { k, v in .mapping(keeping(map, config: k, v)) }
    }
}
