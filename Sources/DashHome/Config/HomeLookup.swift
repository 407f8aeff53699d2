import Foundation

/// Where each tile and widget id sits in `HomeConfig.tiles`, built on the first lookup after a
/// change (`tiles` drops it on every change) and shared by the copies of the same home. Every
/// turn asks for each tile by id (Smart Stacks, attention, drawing): a scan per question made
/// a turn quadratic in the tiles (issue 25: 1,000 tiles took 9 s to render).
package final class HomeLookup: @unchecked Sendable, Hashable {
    struct Index {
        /// The first tile with each id.
        var tiles: [String: Int] = [:]
        /// The first (tile, item) of each widget id.
        var instances: [String: (tile: Int, item: Int)] = [:]
    }

    private let lock = NSLock()
    private var built: Index?
    private var buildCount = 0

    /// The index of `tiles`, built once.
    func index(_ tiles: [TileInstance]) -> Index {
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        var i = Index()
        i.tiles.reserveCapacity(tiles.count)
        for (t, tile) in tiles.enumerated() {
            if i.tiles[tile.id] == nil { i.tiles[tile.id] = t }
            for (k, inst) in tile.items.enumerated() where i.instances[inst.id] == nil {
                i.instances[inst.id] = (t, k)
            }
        }
        built = i
        buildCount += 1
        return i
    }

    /// How many times this lookup built its index (tests count it: lookups do not rebuild).
    var builds: Int {
        lock.lock()
        defer { lock.unlock() }
        return buildCount
    }

    // The index is derived from `tiles`: two homes with the same tiles are equal whatever their
    // lookups hold.
    package static func == (a: HomeLookup, b: HomeLookup) -> Bool { true }
    package func hash(into hasher: inout Hasher) {}
}

extension HomeConfig {
    /// The position of the first tile with `id` in `tiles`.
    public func tileIndex(_ id: String) -> Int? { lookup.index(tiles).tiles[id] }

    /// The position of the tile holding the widget `id`.
    public func tileIndex(ofInstance id: String) -> Int? { lookup.index(tiles).instances[id]?.tile }

    /// The first tile with `id`.
    public func tile(_ id: String) -> TileInstance? { tileIndex(id).map { tiles[$0] } }

    /// The widget `id`, wherever it is (in a tile or a stack).
    public func instance(_ id: String) -> WidgetInstance? {
        lookup.index(tiles).instances[id].map { tiles[$0.tile].items[$0.item] }
    }
}
