import XCTest
import Foundation
import DashCore
import DashWidgets
import DashTestSupport
@testable import DashRender

/// Borders never break (issue 14, point 2; decision 22): the corpus of headlines across
/// scripts and emoji, drawn in tiles with each width model, sent as the curses front end
/// sends it and replayed on simulated terminals that draw widths differently.
final class BorderFidelityTests: XCTestCase {
    static let tileSize = GridMetrics.tileSize(.large)
    static let perRow = 4
    static let headlinesPerTile = Chrome.contentSize(.large).height

    struct Screen {
        var buffer: CellBuffer
        var tiles: [Rect]
    }

    /// Large tiles, each titled with a headline and holding one headline per content row.
    func corpusScreen(_ model: WidthModel) -> Screen {
        let corpus = widthCorpus().map(\.text)
        let perTile = Self.headlinesPerTile
        let tileCount = (corpus.count + perTile - 1) / perTile
        let rows = (tileCount + Self.perRow - 1) / Self.perRow
        let size = Size(width: Self.perRow * (Self.tileSize.width + 1), height: rows * (Self.tileSize.height + 1))
        return WidthModel.$scoped.withValue(model) {
            var buffer = CellBuffer(size: size)
            var tiles: [Rect] = []
            let env = RenderEnvironment(
                theme: .dark, now: Date(timeIntervalSince1970: 0),
                timeZone: TimeZone(identifier: "UTC")!)
            for t in 0..<tileCount {
                let rect = Rect(
                    x: (t % Self.perRow) * (Self.tileSize.width + 1),
                    y: (t / Self.perRow) * (Self.tileSize.height + 1),
                    width: Self.tileSize.width, height: Self.tileSize.height)
                let lines = corpus[(t * perTile)..<min(corpus.count, (t + 1) * perTile)]
                let view = VStack {
                    for line in lines { Text(line).lineLimit(1).link("https://example.com/\(t)") }
                }
                Chrome.drawTile(
                    view, rect: rect, decoration: TileDecoration(title: corpus[(t * 7) % corpus.count]),
                    environment: env, into: &buffer)
                tiles.append(rect)
            }
            return Screen(buffer: buffer, tiles: tiles)
        }
    }

    struct Damage {
        /// Tile rows whose right border is not at the border column.
        var brokenRows = 0
        var rows = 0
        /// Cells that did not land where the frame put them.
        var misplacedCells = 0
        var examples: [String] = []
    }

    /// Compares what the simulated terminal shows with the frame, cell by cell.
    func damage(_ screen: Screen, _ sim: TerminalSimulator, model: WidthModel) -> Damage {
        var d = Damage()
        let b = screen.buffer
        WidthModel.$scoped.withValue(model) {
            for tile in screen.tiles {
                for y in tile.y..<tile.maxY {
                    d.rows += 1
                    let border = sim.glyph(x: tile.maxX - 1, y: y)?.text
                    if border != b[tile.maxX - 1, y].text {
                        d.brokenRows += 1
                        if d.examples.count < 5 { d.examples.append("row \(y): \(sim.rowText(y))") }
                    }
                    var x = tile.x
                    while x < tile.maxX {
                        let cell = b[x, y]
                        if cell.isContinuation {
                            x += 1
                            continue
                        }
                        let w = max(1, cell.width)
                        // What the terminal shows in the glyph's columns: one cell, or one per code
                        // point (tmux, xterm), then the blanks that pad a glyph drawn narrower.
                        var shown = ""
                        let startsHere = sim.glyph(x: x, y: y) != nil
                        for k in x..<min(tile.maxX, x + w) { shown += sim.glyph(x: k, y: y)?.text ?? "" }
                        while shown.hasSuffix(" ") && !cell.text.hasSuffix(" ") { shown.removeLast() }
                        let expected = WidthModel.terminalText(Character(cell.text))
                        if !startsHere || shown != expected {
                            d.misplacedCells += 1
                            if d.examples.count < 5 { d.examples.append("(\(x),\(y)) \(expected) shows as \(shown)") }
                        }
                        x += w
                    }
                }
            }
        }
        return d
    }

    func replay(_ chunks: [String], on kind: TerminalSimulator.Kind, size: Size) -> TerminalSimulator {
        var sim = TerminalSimulator(kind: kind, width: size.width, height: size.height)
        for c in chunks { sim.write(c) }
        return sim
    }

    /// The model the probe finds on a terminal of this kind.
    func probedModel(_ kind: TerminalSimulator.Kind) -> WidthModel {
        WidthProbe.result(columns: WidthProbe.probes.map { TerminalSimulator.measure($0.1, kind: kind) + 1 }).model
    }

    func testEveryRowEndsAtTheBorderWithTheModelTheTerminalReports() {
        for kind in TerminalSimulator.Kind.allCases {
            let model = probedModel(kind)
            let screen = corpusScreen(model)
            let sim = replay(simulateCursesOutput(screen.buffer, model: model), on: kind, size: screen.buffer.size)
            let d = damage(screen, sim, model: model)
            XCTAssertGreaterThan(d.rows, 500)
            XCTAssertEqual(d.brokenRows, 0, "\(kind) with \(model):\n" + d.examples.joined(separator: "\n"))
            XCTAssertEqual(d.misplacedCells, 0, "\(kind) with \(model):\n" + d.examples.joined(separator: "\n"))
        }
    }

    func testTheWidestModelKeepsBordersOnEveryTerminalByPadding() {
        let screen = corpusScreen(.widest)
        let output = simulateCursesOutput(screen.buffer, model: .widest)
        for kind in TerminalSimulator.Kind.allCases {
            let sim = replay(output, on: kind, size: screen.buffer.size)
            let d = damage(screen, sim, model: .widest)
            XCTAssertEqual(d.brokenRows, 0, "\(kind):\n" + d.examples.joined(separator: "\n"))
            XCTAssertEqual(d.misplacedCells, 0, "\(kind):\n" + d.examples.joined(separator: "\n"))
        }
    }

    func testEveryFixedModelDrawsTheCorpusWithinItsTiles() {
        for model in [WidthModel.clusters, .codePoints, .tmux33, .widest] {
            let screen = corpusScreen(model)
            WidthModel.$scoped.withValue(model) {
                for y in 0..<screen.buffer.height {
                    var width = 0
                    for x in 0..<screen.buffer.width where !screen.buffer[x, y].isContinuation {
                        width += screen.buffer[x, y].width
                    }
                    XCTAssertEqual(width, screen.buffer.width, "row \(y) under \(model)")
                }
            }
            for tile in screen.tiles {
                for y in tile.y..<tile.maxY {
                    XCTAssertTrue(["│", "╮", "╯"].contains(screen.buffer[tile.maxX - 1, y].text), "\(model) row \(y)")
                }
            }
        }
    }

    /// The baseline: before decision 22 every cell went through ncurses, measured by its first
    /// code point. In tmux 3.3 that broke rows; this shows the corpus catches it.
    func testTheOldOutputBrokeRowsInTmux() {
        let screen = corpusScreen(.clusters)
        let sim = replay(simulateNaiveCursesOutput(screen.buffer), on: .tmux33, size: screen.buffer.size)
        let d = damage(screen, sim, model: .clusters)
        let percent = Double(d.brokenRows) * 100 / Double(max(1, d.rows))
        print(
            "old output in tmux 3.3: \(d.brokenRows) of \(d.rows) tile rows broken (\(Int(percent.rounded()))%), "
                + "\(d.misplacedCells) cells misplaced")
        XCTAssertGreaterThan(d.brokenRows, 0)
    }

    /// Why the terminal is asked: with the cluster model, tmux draws कि and 👍🏽 wider than
    /// the frame reserves, over the cells that follow.
    func testAModelNarrowerThanTheTerminalOverwritesNeighbours() {
        let screen = corpusScreen(.clusters)
        let sim = replay(simulateCursesOutput(screen.buffer, model: .clusters), on: .tmux33, size: screen.buffer.size)
        XCTAssertGreaterThan(damage(screen, sim, model: .clusters).misplacedCells, 0)
    }
}
