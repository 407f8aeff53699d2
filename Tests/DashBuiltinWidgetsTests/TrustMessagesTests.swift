import Foundation
import Testing
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets

/// Issue 37 point 8: what was cut or went wrong is said in words: a list longer than the api
/// widget keeps, JSON too deep or with a number out of range, a 304 with nothing remembered, a
/// command whose background child held its output.
@Suite("issue 37: say what is wrong")
struct TrustMessagesTests {
    let widget = APIWidget.make(http: testHTTP)

    func apiEntry(_ s: LocalHTTPServer, _ path: String, fields: [String]) async throws -> APIEntry {
        let c = WidgetConfig(["url": .string(s.baseURL + path), "title": .string("T"), "fields": .list(fields)])
        let t = try await widget.timeline(for: c, in: context(.large))
        return try #require(t.entries.first?.base as? APIEntry)
    }

    @Test func apiListsLongerThanTheCapIndexProperlyOrSaySo() async throws {
        let s = try LocalHTTPServer()
        defer { s.stop() }
        let items = (0..<2000).map { "{\"n\": \($0)}" }.joined(separator: ",")
        s.route("/long", LocalHTTPServer.Response(status: 200, contentType: "application/json", "{\"items\": [\(items)]}"))
        let e = try await apiEntry(
            s, "/long",
            fields: [
                "Last = items[-1].n", "First = items[0].n", "Early = items[899].n", "Late = items[1900].n",
                "Middle = items[1500].n", "Gone = items[2000].n", "Key = items.1999.n",
            ])
        func value(_ label: String) -> APIValue? { e.values.first { $0.label == label } }
        #expect(value("Last")?.text == "1999", "items[-1] of 2,000 is item 1999, not 999")
        #expect(value("First")?.text == "0")
        #expect(value("Early")?.text == "899")
        #expect(value("Late")?.text == "1900")
        #expect(value("Key")?.text == "1999")
        #expect(
            value("Middle")?.problem
                == "item [1500] of 2,000 is not kept: swiftdash keeps a list's first 900 and last 100 items")
        #expect(value("Gone")?.problem == "no value at items[2000].n")
        let root = try #require(APIJSON.parse(Data("{\"items\": [\(items)]}".utf8)))
        #expect(try JSONPath("items").values(in: root).first?.text == "[2000 items]")
        #expect(try JSONPath("items[*].n").values(in: root).count == 1000)
        #expect(JSONPath.discover(root).contains { $0.sample.hasPrefix("2000 items") || $0.path == "items[0].n" })
    }

    @Test func apiObjectsWithMoreKeysThanTheCapSaySo() async throws {
        let s = try LocalHTTPServer()
        defer { s.stop() }
        let keys = (0..<1500).map { String(format: "\"k%04d\": %d", $0, $0) }.joined(separator: ",")
        s.route("/wide", LocalHTTPServer.Response(status: 200, contentType: "application/json", "{\(keys)}"))
        let e = try await apiEntry(s, "/wide", fields: ["Kept = k0999", "Past = k1499", "Nothing = zzz"])
        #expect(e.values.first { $0.label == "Kept" }?.text == "999")
        #expect(
            e.values.first { $0.label == "Past" }?.problem
                == "no 'k1499' among the 1000 keys kept of 1,500: swiftdash keeps an object's first 1000 keys in sorted order")
        let root = try #require(APIJSON.parse(Data("{\(keys)}".utf8)))
        #expect(try JSONPath(".").values(in: root).first?.text == "{1500 keys}")
    }

    @Test func jsonTooDeepOrWithANumberOutOfRangeSaysWhich() async throws {
        #expect(
            JSONProblem.describe(Data((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8))
                == "JSON nested more than 512 levels deep (swiftdash reads 512)")
        #expect(
            JSONProblem.describe(Data(#"{"a": "1e400 in a string", "b": [1, -2.5e400]}"#.utf8))
                == "JSON holding a number out of range (-2.5e400): larger than any number swiftdash can hold")
        #expect(JSONProblem.describe(Data(#"{"a": "[[[[" "#.utf8)) == "not valid JSON")
        #expect(JSONProblem.describe(Data("<html>".utf8)).hasPrefix("HTML, not JSON"))

        let s = try LocalHTTPServer()
        defer { s.stop() }
        let deep = String(repeating: "{\"a\":", count: 600) + "1" + String(repeating: "}", count: 600)
        s.route("/deep", LocalHTTPServer.Response(status: 200, contentType: "application/json", deep))
        s.route("/big", LocalHTTPServer.Response(status: 200, contentType: "application/json", "{\"a\": 1e400}"))
        let d = try await apiEntry(s, "/deep", fields: ["A = a"])
        #expect(d.failure?.contains("JSON nested more than 512 levels deep") == true, "\(d.failure ?? "")")
        #expect(d.failure?.contains("not valid JSON") == false)
        let b = try await apiEntry(s, "/big", fields: ["A = a"])
        #expect(b.failure?.contains("a number out of range (1e400)") == true, "\(b.failure ?? "")")
        // The widgets that decode a known shape say the same.
        struct Shape: Decodable { var a: Double }
        #expect(throws: DataSourceError.self) { _ = try HTTPClient.decode(Shape.self, Data("{\"a\": 1e400}".utf8), host: "h") }
        do { _ = try HTTPClient.decode(Shape.self, Data("{\"a\": 1e400}".utf8), host: "h") } catch let e as DataSourceError {
            #expect(e.message.hasPrefix("h sent JSON holding a number out of range (1e400)"), "\(e.message)")
        }
    }

    @Test func notModifiedWithNothingRememberedIsNotARedirect() async throws {
        let e = HTTPClient.statusError(304, host: "api.example.com", retryAfter: nil, rateRemaining: nil, notFoundHint: nil)
        #expect(
            e.message == "HTTP 304 (not modified) from api.example.com, but swiftdash has no earlier answer to show "
                + "(an If-None-Match or If-Modified-Since header in the request?)")
        #expect(!e.message.contains("redirect"))
        let s = try LocalHTTPServer()
        defer { s.stop() }
        s.route("/same", LocalHTTPServer.Response(status: 304, contentType: "application/json", ""))
        let c = WidgetConfig(["url": .string(s.baseURL + "/same"), "title": .string("T"), "fields": .list(["A = a"])])
        var said = ""
        do {
            let t = try await widget.timeline(for: c, in: context(.large))
            said = (t.entries.first?.base as? APIEntry)?.failure ?? ""
        } catch {
            said = "\(error)"
        }
        #expect(said.contains("HTTP 304 (not modified)"), "\(said)")
        #expect(!said.contains("redirect"), "\(said)")
    }

    @Test func aCommandThatExitsWhileItsBackgroundChildHoldsTheOutputSaysSo() async throws {
        let widget = CommandWidget.make(runs: CommandRunRegistry())
        var said = ""
        do {
            _ = try await widget.timeline(
                for: WidgetConfig(["command": .list(["sh", "-c", "sleep 100 & echo 5"]), "timeout": .int(1)]),
                in: context(.small))
        } catch {
            said = "\(error)"
        }
        #expect(
            said
                == "sh exited, but a process it left running in the background kept its output open; killed after 1 s "
                + "(send that process's output elsewhere: cmd > /dev/null 2>&1 &)")
    }
}
