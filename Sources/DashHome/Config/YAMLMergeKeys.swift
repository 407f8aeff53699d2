import Yams

extension Node.Mapping {
    /// Whether `key` is YAML's merge key (`<<`, written plain).
    static func isMergeKey(_ key: Node) -> Bool {
        guard case .scalar(let s) = key else { return false }
        return s.string == "<<" && s.style == .plain
    }

    /// The mapping as YAML's merge keys make it (`<<: *base` or `<<: [*a, *b]`): its own keys
    /// first, then each merged mapping's keys it does not have itself (of several, the first
    /// wins), recursively. A merge of anything but a mapping or a list of mappings stays a key
    /// (and reads as an unknown key, with its line). A mapping without `<<` is itself.
    public var mergingKeys: Node.Mapping {
        guard contains(where: { Self.isMergeKey($0.key) }) else { return self }
        var pairs: [(Node, Node)] = []
        var merged: [Node.Mapping] = []
        for (k, v) in self {
            if Self.isMergeKey(k) {
                if let m = v.mapping {
                    merged.append(m.mergingKeys)
                    continue
                }
                if let seq = v.sequence, !seq.isEmpty, seq.allSatisfy({ $0.mapping != nil }) {
                    merged += seq.compactMap { $0.mapping?.mergingKeys }
                    continue
                }
            }
            pairs.append((k, v))
        }
        var seen = Set(pairs.compactMap { $0.0.string })
        for m in merged {
            for (k, v) in m where !seen.contains(k.string ?? "") {
                seen.insert(k.string ?? "")
                pairs.append((k, v))
            }
        }
        return Node.Mapping(pairs, tag, style, mark)
    }
}

extension Node {
    /// `mapping` with its merge keys applied (`Node.Mapping.mergingKeys`).
    public var mergedMapping: Node.Mapping? { mapping?.mergingKeys }
}
