import Foundation
import Testing
import DashCore
import DashRender
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets
import DashNetworking

/// The clock every test runs at.
let testNow = Date(timeIntervalSince1970: 1_795_424_400)  // 2026-11-23T09:00:00Z

/// Content sizes of the families, in cells.
func contentSize(_ family: WidgetFamily) -> (width: Int, height: Int) {
    switch family {
    case .small: return (15, 5)
    case .medium: return (35, 5)
    case .large: return (35, 13)
    case .extraLarge: return (71, 13)
    }
}

func context(_ family: WidgetFamily, preview: Bool = false, environment: [String: String] = [:]) -> TimelineContext {
    TimelineContext(
        family: family, size: contentSize(family), now: testNow, isPreview: preview, environment: environment)
}

let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

func fixture(_ name: String) -> Data {
    let url = testsDirectory.appendingPathComponent("Fixtures").appendingPathComponent(name)
    guard let data = try? Data(contentsOf: url) else { fatalError("missing fixture \(name)") }
    return data
}

func fixtureResponse(_ name: String, status: Int = 200, headers: [String: String] = [:], delay: TimeInterval = 0)
    -> LocalHTTPServer.Response
{
    var h = headers
    if h["Content-Type"] == nil {
        h["Content-Type"] =
            name.hasSuffix(".json")
            ? "application/json; charset=utf-8"
            : name.hasSuffix(".xml") ? "application/rss+xml; charset=utf-8" : "text/html"
    }
    return LocalHTTPServer.Response(status: status, headers: h, body: fixture(name), delay: delay)
}

/// Widget logic is tested in process, on URLSession (`SubprocessTransportTests` runs the helper).
func inProcessHTTP(_ options: HTTPOptions) -> HTTPClient {
    HTTPClient(options: options, transport: URLSessionTransport())
}

/// Fast limits for tests: a slow answer fails in two seconds.
/// Generous limits: a local server on a busy machine is slow, not silent (tests of the limits set their own).
let testHTTP = inProcessHTTP(HTTPOptions(connectTimeout: 30, totalTimeout: 30, maxBytes: 5 * 1024 * 1024))

struct RenderedTile {
    var text: String
    var links: [String]
    var widgetURL: String?
}

/// Draws a view the way a tile's content area is drawn.
func render(_ view: TileView, width: Int, height: Int) -> RenderedTile {
    var buffer = CellBuffer(width: width, height: height)
    var utc = TimeZone(identifier: "UTC")!
    utc = TimeZone(secondsFromGMT: 0) ?? utc
    let result = TileRenderer.render(
        view, in: Rect(x: 0, y: 0, width: width, height: height), buffer: &buffer,
        environment: RenderEnvironment(theme: .dark, now: testNow, timeZone: utc))
    return RenderedTile(text: buffer.textDump, links: result.tapRegions.map(\.url), widgetURL: result.widgetURL)
}

func render(_ widget: Widget, _ entry: AnyEntry, _ family: WidgetFamily) -> RenderedTile {
    let size = contentSize(family)
    return render(widget.view(for: entry, in: context(family)), width: size.width, height: size.height)
}

/// Runs the real timeline for `family` and draws its first entry.
func liveTile(
    _ widget: Widget, _ config: WidgetConfig, _ family: WidgetFamily,
    environment: [String: String] = [:]
) async throws -> (RenderedTile, AnyTimeline) {
    let timeline = try await widget.timeline(for: config, in: context(family, environment: environment))
    let entry = try #require(timeline.entries.first)
    return (render(widget, entry, family), timeline)
}

/// Swift Testing's front end to `SnapshotFile` (DashTestSupport): the same folder rule and
/// the same `RECORD_SNAPSHOTS` switch as every other target.
func assertSnapshot(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    // These snapshots were always written as the text plus one newline.
    switch SnapshotFile.check(
        text + "\n", named: name, besides: testsDirectory.appendingPathComponent("Support.swift").path)
    {
    case .matches: break
    case .recorded(let m), .differs(let m): Issue.record(Comment(rawValue: m), sourceLocation: sourceLocation)
    }
}

/// Expects `body` to throw a `DataSourceError` and returns it.
func expectDataSourceError(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async
    -> DataSourceError?
{
    do {
        try await body()
        Issue.record("expected an error", sourceLocation: sourceLocation)
        return nil
    } catch let e as DataSourceError {
        return e
    } catch {
        Issue.record("expected a DataSourceError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// True if the text has no control characters or escape sequences left.
func isClean(_ s: String) -> Bool {
    !s.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
}
