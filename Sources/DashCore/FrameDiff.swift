/// A horizontal run of cells that changed between two frames.
public struct CellRun: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var cells: [Cell]
    public init(x: Int, y: Int, cells: [Cell]) {
        self.x = x
        self.y = y
        self.cells = cells
    }
}

public enum FrameDiff {
    /// The minimal list of runs that turns `old` into `new`: each run covers only cells that
    /// differ, adjacent differing cells share one run, and a wide character is never split.
    /// With no old frame, or one of another size, every row is one run.
    public static func runs(from old: CellBuffer?, to new: CellBuffer) -> [CellRun] {
        guard let old, old.size == new.size else {
            return (0..<new.height).map { y in
                CellRun(x: 0, y: y, cells: (0..<new.width).map { new[$0, y] })
            }
        }
        var result: [CellRun] = []
        for y in 0..<new.height {
            var x = 0
            while x < new.width {
                guard new[x, y] != old[x, y] else {
                    x += 1
                    continue
                }
                // A wide character is sent whole: from its lead cell to its last continuation.
                var start = x
                while start > 0 && new[start, y].isContinuation { start -= 1 }
                var end = x + 1
                while end < new.width, new[end, y] != old[end, y] || new[end, y].isContinuation { end += 1 }
                if let last = result.last, last.y == y, last.x + last.cells.count >= start {
                    let merged = last.x
                    result[result.count - 1] = CellRun(x: merged, y: y, cells: (merged..<end).map { new[$0, y] })
                } else {
                    result.append(CellRun(x: start, y: y, cells: (start..<end).map { new[$0, y] }))
                }
                x = end
            }
        }
        return result
    }
}
