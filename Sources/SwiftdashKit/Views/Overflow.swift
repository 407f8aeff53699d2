import Foundation
internal import DashWidgets

/// A view that needs more room than its tile is clipped, as SwiftUI clips it, never left blank.
/// swiftdash's renderer clips what does not fit; what blanked a tile was padding: every
/// `.padding()` is at least a cell on each side, so four nested ones take eight rows, more than a
/// small tile has, where SwiftUI's 16 points each leave most of the tile to the content. So the
/// padding along any path from the tile to a view is limited to a share of the tile (the outer
/// padding is kept, the inner gives way), and the content keeps at least its first line.
enum Overflow {
    /// The view JSON `view` for a tile of `size` points (8 by 16 a cell).
    static func fit(_ view: JSONValue, in size: CGSize) -> JSONValue {
        let rows = Int((size.height / 16).rounded()), columns = Int((size.width / 8).rounded())
        let budget = Room(rows: max(2, rows / 3), columns: max(2, columns / 4))
        return fit(view, budget)
    }

    /// The padding still allowed: rows (top and bottom) and columns (leading and trailing).
    struct Room {
        var rows: Int, columns: Int
    }

    static func fit(_ view: JSONValue, _ room: Room) -> JSONValue {
        switch view {
        case .array(let items): return .array(items.map { fit($0, room) })
        case .object(var o):
            var left = room
            if let pad = o["padding"]?.object {
                var p = pad
                func take(_ key: String, _ from: inout Int) {
                    let want = max(0, Int(pad[key]?.number ?? 0))
                    let given = min(want, from)
                    from -= given
                    p[key] = .number(Double(given))
                }
                take("top", &left.rows)
                take("bottom", &left.rows)
                take("leading", &left.columns)
                take("trailing", &left.columns)
                o["padding"] = .object(p)
            }
            for (key, value) in o where key != "padding" {
                switch value {
                case .array, .object: o[key] = fit(value, left)
                default: break
                }
            }
            return .object(o)
        default: return view
        }
    }
}
