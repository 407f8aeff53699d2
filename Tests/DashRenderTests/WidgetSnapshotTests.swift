import XCTest
import Foundation
import DashCore
import DashWidgets
import DashBuiltinWidgets
import DashTestSupport
@testable import DashRender

/// Text snapshots of every shipped widget in every family, and as placeholder.
/// Re-record with RECORD_SNAPSHOTS=1 swift test.
final class WidgetSnapshotTests: XCTestCase {
    func snapshot(_ widget: Widget, family: WidgetFamily, placeholder: Bool) async -> String {
        let size = Chrome.contentSize(family)
        let ctx = TimelineContext(family: family, size: (size.width, size.height), now: t0, isPreview: true)
        let entry = placeholder ? widget.placeholder(in: ctx) : await widget.snapshot(for: WidgetConfig(), in: ctx)
        var view = widget.view(for: entry, in: ctx)
        if placeholder { view = view.redacted() }
        let tile = GridMetrics.tileSize(family)
        var b = CellBuffer(size: tile)
        Chrome.drawTile(
            view, rect: b.bounds, decoration: TileDecoration(title: widget.displayName),
            environment: RenderEnvironment(theme: .dark, now: t0, timeZone: TimeZone(identifier: "UTC")!), into: &b)
        return b.textDump
    }

    func testEveryWidgetEveryFamily() async {
        for widget in BuiltinWidgets.bundle.widgets {
            for family in widget.supportedFamilies {
                for placeholder in [false, true] {
                    let text = await snapshot(widget, family: family, placeholder: placeholder)
                    assertSnapshot(
                        text, named: "preview-\(widget.kind)-\(family.rawValue)\(placeholder ? "-placeholder" : "")")
                    for line in text.split(separator: "\n") {
                        XCTAssertLessThanOrEqual(
                            DisplayWidth.of(line), GridMetrics.tileSize(family).width, "\(widget.kind) spills")
                    }
                }
            }
        }
    }
}
