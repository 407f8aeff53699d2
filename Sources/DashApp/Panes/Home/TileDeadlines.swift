import Foundation
import DashScheduler

/// One date per tile (when its Smart Rotate decision or its attention mark can change next) and
/// the earliest of them, kept as tiles are looked at one by one (issue 25: a pass over the tiles
/// whose timelines changed must not go over every tile to find the earliest). A changed date is
/// pushed again and the old one skipped when it surfaces (lazy deletion, as the scheduler does).
struct TileDeadlines: Sendable {
    struct Item: Comparable, Sendable {
        var date: Date
        var tile: String
        static func < (a: Item, b: Item) -> Bool { a.date < b.date }
    }

    private var byTile: [String: Date] = [:]
    private var heap = PriorityQueue<Item>()

    /// The tile's next date (nil: none).
    mutating func set(_ tile: String, _ date: Date?) {
        guard byTile[tile] != date else { return }
        byTile[tile] = date
        if let date { heap.push(Item(date: date, tile: tile)) }
        // Dates pushed and replaced since: rebuilt when they outnumber the live ones.
        if heap.count > 2 * byTile.count + 64 {
            heap = PriorityQueue(byTile.map { Item(date: $0.value, tile: $0.key) })
        }
    }

    mutating func removeAll() {
        byTile.removeAll(keepingCapacity: true)
        heap.removeAll()
    }

    /// The earliest date of any tile.
    mutating func earliest() -> Date? {
        while let top = heap.min, byTile[top.tile] != top.date { heap.popMin() }
        return heap.min?.date
    }
}
