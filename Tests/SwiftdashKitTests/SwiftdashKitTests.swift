import XCTest
import Foundation
import DashWidgets
@testable import SwiftdashKit

/// The fixtures' widgets answered through the extension protocol in process
/// (ExtensionServer.answer(line:)), their answers read back by swiftdash's own protocol parser.
final class SwiftdashKitTests: XCTestCase {
    let server = ExtensionServer(TestBundle())

    func ask(_ method: String, _ params: [String: JSONValue] = [:]) throws -> JSONValue {
        let request = JSONValue.object(["id": .number(1), "method": .string(method), "params": .object(params)])
        let line = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        let answer = try JSONValue.parse(Data(server.answer(line: line).utf8))
        if let e = answer["error"]?.string {
            throw NSError(domain: e, code: 1, userInfo: [NSLocalizedDescriptionKey: e])
        }
        return answer["result"] ?? .null
    }

    func testDescribeNamesKindsFamiliesAndTheIntentsParametersAsFormFields() throws {
        let widgets = try ExtensionWidgetDescription.parse(try ask("describe"))
        XCTAssertEqual(widgets.map(\.kind), ["counter-widget", "clock", "lazy"])
        XCTAssertEqual(widgets[0].displayName, "Counter")
        XCTAssertEqual(widgets[0].description, "Counts")
        XCTAssertEqual(widgets[0].families, [DashWidgets.WidgetFamily.small, .medium])
        XCTAssertEqual(widgets[0].parameters.map(\.key), ["name", "tone", "limit"])
        XCTAssertEqual(widgets[0].parameters.map(\.title), ["Name", "Tone", "Limit"])
        guard case .enumeration(let options) = widgets[0].parameters[1].kind else { return XCTFail("tone is an enum") }
        XCTAssertEqual(options.map(\.value), ["calm", "loud"])
        guard case .integer(let range) = widgets[0].parameters[2].kind else { return XCTFail("limit is an integer") }
        XCTAssertEqual(range, 1...9)
        XCTAssertEqual(widgets[1].parameters.count, 0)
    }

    func testATimelineCarriesAViewPerFamilyTheConfigurationAndThePolicy() throws {
        let context: JSONValue = .object([
            "family": .string("medium"), "width": .number(40), "height": .number(8), "isPreview": .bool(false),
        ])
        let json = try ask(
            "timeline",
            ["kind": .string("counter-widget"), "config": .object(["limit": .number(2)]), "context": context])
        let timeline = try ExtensionProtocol.timeline(json, kind: "counter-widget")
        XCTAssertEqual(timeline.entries.count, 2)
        XCTAssertEqual(json["policy"], .object(["after": .number(1_800_003_600)]))
        let first = json["entries"]?.array?.first
        XCTAssertEqual(first?["relevance"]?["score"], .number(Double(Store.count)))
        let small = first?["views"]?["small"]
        let medium = first?["views"]?["medium"]
        XCTAssertEqual(small?["vstack"]?.array?.first?["font"], .string("largeTitle"))
        XCTAssertEqual(medium?["vstack"]?.array?.first?["hstack"]?.array?.first, .string("★"))
        XCTAssertEqual(medium?["vstack"]?.array?[1]["style"], .string("relative"))
        XCTAssertEqual(small?["widgetURL"], .string("https://example.com/c"))
        // A link swiftdash cannot open becomes the widget's own detail link.
        XCTAssertEqual(small?["vstack"]?.array?.last?["link"], .string("swiftdash://counter-widget/myapp%3A//item/1"))
    }

    func testAButtonsIntentTravelsAsItsParametersAndRunsOnPerform() throws {
        let json = try ask(
            "snapshot", ["kind": .string("counter-widget"), "context": .object(["family": .string("small")])])
        let button = json["views"]?["small"]?["vstack"]?.array?.first { $0["button"] != nil }
        XCTAssertEqual(button?["button"], .string("Bump"))
        let action = try XCTUnwrap(button?["action"]?.string)
        XCTAssertEqual(action, #"Bump {"by":2}"#)
        let before = Store.count
        XCTAssertEqual(
            try ask("perform", ["kind": .string("counter-widget"), "action": .string(action)]), .object([:]))
        XCTAssertEqual(Store.count, before + 2)
    }

    func testCompletionHandlersMayAnswerOnAnotherThread() throws {
        let snap = try ask("snapshot", ["kind": .string("clock")])
        XCTAssertEqual(snap["views"]?["small"]?["text"], .string("n=2"))
        XCTAssertEqual(try ask("timeline", ["kind": .string("clock")])["policy"], .string("never"))
    }

    func testAProviderWithoutATimelineSaysWhatToWrite() {
        XCTAssertThrowsError(try ask("timeline", ["kind": .string("lazy")])) { error in
            XCTAssertTrue("\(error)".contains("getTimeline(in:completion:)"), "\(error)")
        }
        XCTAssertThrowsError(try ask("timeline", ["kind": .string("nope")])) { error in
            XCTAssertTrue("\(error)".contains("no widget `nope`"), "\(error)")
        }
    }

    func testPlaceholderIsRedactedAndKindsFollowSwiftdashsRule() throws {
        let json = try ask("placeholder", ["kind": .string("clock")])
        XCTAssertEqual(json["views"]?["small"]?["redacted"], .bool(true))
        XCTAssertEqual(dashKind("CryptoWidgetExtension"), "crypto-widget-extension")
        XCTAssertEqual(dashKind("com.example.My Widget"), "com-example-my-widget")
        XCTAssertEqual(SFSymbols.glyph("cloud.rain.fill"), "☂")
        XCTAssertEqual(SFSymbols.glyph("no.such.symbol"), "•")
    }
}

/// WidgetCenter speaks the control socket's line protocol (`reload KIND`, as `swiftdash reload`).
final class WidgetCenterTests: XCTestCase {
    func testReloadTimelinesSendsTheKindAsSwiftdashNamesIt() throws {
        // In a private folder: WidgetCenter, like every client, uses no socket others could replace.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wc-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("wc.sock").path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in Array(path.utf8).enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(fd, 1), 0)
        defer {
            close(fd)
            unlink(path)
        }
        let server = Thread {
            let c = accept(fd, nil, nil)
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = read(c, &buffer, buffer.count)
            let reply =
                String(decoding: buffer[..<max(0, n)], as: UTF8.self) == "reload crypto-widget-extension\n"
                ? "ok\n" : "error\n"
            _ = reply.utf8CString.withUnsafeBufferPointer { write(c, $0.baseAddress, reply.utf8.count) }
            close(c)
        }
        server.start()
        XCTAssertEqual(WidgetCenter(socketPath: path).send("reload crypto-widget-extension"), "ok")
        XCTAssertNil(WidgetCenter(socketPath: nil).send("reload"))
    }
}
