import DashTestSupport
import DashWidgets
import Foundation
import Testing

@testable import DashBuiltinWidgets
@testable import DashNetworking

/// Issue 9, items 3 and 10: what a hostile redirect or a silent server can do to a request
/// that carries a key. Two local servers stand for two hosts.
@Suite("Hardening: redirects and timeouts")
struct RedirectHardeningTests {
    let key = "k-0123456789abcdef"
    let token = "t-fedcba9876543210"

    /// The headers a server saw, names lowercased.
    func sawCredentials(_ r: LocalHTTPServer.Request) -> Bool {
        r.headers["authorization"] != nil || r.headers["x-api-key"] != nil
            || r.headers.values.contains { $0.contains(key) }
    }

    /// Both transports: URLSession in process, and the real `swiftdash-fetch` helper. The limits
    /// are generous (a local server on a busy machine is slow, not silent) unless a test is about them.
    func clients(_ options: HTTPOptions = HTTPOptions(connectTimeout: 30, totalTimeout: 30)) throws
        -> [(String, HTTPClient)]
    {
        let exe = try #require(builtFetchHelper(), "swiftdash-fetch is not built next to the tests (swift build)")
        return [
            ("in process", inProcessHTTP(options)),
            ("helper", HTTPClient(options: options, transport: SubprocessTransport(executable: exe))),
        ]
    }

    @Test func credentialsFollowRedirectsToOtherHosts_fixed() async throws {
        for (name, http) in try clients() {
            let a = try LocalHTTPServer()
            let b = try LocalHTTPServer()
            defer {
                a.stop()
                b.stop()
            }
            // A hands the request to B under another host name (localhost, not 127.0.0.1).
            a.route("/away", .init(status: 302, headers: ["Location": "http://localhost:\(b.port)/data"], body: Data()))
            a.route("/here", .init(status: 301, headers: ["Location": "/data"], body: Data()))
            a.route("/data", .init(status: 200, "{\"ok\": true}"))
            b.route("/data", .init(status: 200, "{\"ok\": true}"))
            let headers = ["Authorization": "Bearer \(token)", "X-Api-Key": key, "Accept": "application/json"]

            let body = try await http.get(URL(string: a.baseURL + "/away")!, headers: headers, secrets: [key, token])
            #expect(String(decoding: body, as: UTF8.self) == "{\"ok\": true}", "\(name)")
            #expect(a.requests.count == 1 && sawCredentials(a.requests[0]), "\(name): the origin got the key")
            #expect(b.requests.count == 1, "\(name)")
            #expect(
                b.requests.allSatisfy { !sawCredentials($0) },
                "\(name): the other host got \(b.requests.map(\.headers))")
            #expect(b.requests.first?.headers["accept"] == "application/json", "\(name): other headers still go")

            // A redirect within the origin keeps them.
            _ = try await http.get(URL(string: a.baseURL + "/here")!, headers: headers, secrets: [key, token])
            #expect(a.requests.suffix(2).allSatisfy(sawCredentials), "\(name)")
        }
    }

    @Test func credentialsFollowRedirectsToOtherHosts_everyHopIsChecked() throws {
        let spec = HTTPRequestSpec(
            url: "https://api.example.com/v1?apiKey=\(key)",
            headers: ["X-Api-Key": key, "Accept": "*/*"], secretHeaders: ["X-Api-Key"], secrets: [key])
        // https to http is a downgrade, wherever it points.
        var p = RedirectPolicy(spec)
        #expect(
            p.decide(
                status: 301, location: "http://api.example.com/v1", target: URL(string: "http://api.example.com/v1"))
                == .refuse(HTTPTransportError(.insecureRedirect, status: 301)))
        // Same origin: nothing dropped.
        p = RedirectPolicy(spec)
        #expect(
            p.decide(status: 302, location: "/v2", target: URL(string: "https://api.example.com/v2"))
                == .follow(dropping: []))
        // Another host: the marked header and the credential headers go; and they stay gone
        // even if a later hop comes back.
        let dropped: Set<String> = ["x-api-key", "authorization", "proxy-authorization", "cookie"]
        #expect(
            p.decide(
                status: 302, location: "https://cdn.example.net/a", target: URL(string: "https://cdn.example.net/a"))
                == .follow(dropping: dropped))
        #expect(
            p.decide(
                status: 302, location: "https://api.example.com/b", target: URL(string: "https://api.example.com/b"))
                == .follow(dropping: dropped))
        // Another port is another origin.
        p = RedirectPolicy(spec)
        #expect(
            p.decide(
                status: 302, location: "https://api.example.com:8443/",
                target: URL(string: "https://api.example.com:8443/"))
                == .follow(dropping: dropped))

        // Plain http with a key, to this machine: allowed; to another machine, never, even
        // when the server itself puts the key into the address.
        let local = HTTPRequestSpec(
            url: "http://127.0.0.1:8080/x", headers: ["X-Api-Key": key],
            secretHeaders: ["X-Api-Key"], secrets: [key])
        p = RedirectPolicy(local)
        #expect(
            p.decide(status: 302, location: "http://localhost:9090/y", target: URL(string: "http://localhost:9090/y"))
                == .follow(dropping: dropped))
        p = RedirectPolicy(local)
        let leak = "http://collect.example.org/?k=\(key)"
        #expect(
            p.decide(status: 302, location: leak, target: URL(string: leak))
                == .refuse(HTTPTransportError(.secretOverHTTP, status: 302)))
        let encoded = "http://collect.example.org/?k=" + key.replacingOccurrences(of: "-", with: "%2D")
        p = RedirectPolicy(local)
        #expect(
            p.decide(status: 302, location: encoded, target: URL(string: encoded))
                == .refuse(HTTPTransportError(.secretOverHTTP, status: 302)))
        // Without the key in it, the other host gets the request, minus the key header.
        p = RedirectPolicy(local)
        #expect(
            p.decide(
                status: 302, location: "http://collect.example.org/", target: URL(string: "http://collect.example.org/")
            )
                == .follow(dropping: dropped))

        // The first hop too: a transport never sends a key over plain http to another machine.
        #expect(HTTPRequestSpec(url: "http://api.example.com/", headers: ["Authorization": "Bearer x"]).carriesSecrets)
        #expect(!HTTPRequestSpec(url: "http://api.example.com/", headers: ["Accept": "x"]).carriesSecrets)
    }

    @Test func credentialsFollowRedirectsToOtherHosts_plainHTTPLeakIsRefusedBeforeConnecting() async throws {
        for (name, http) in try clients() {
            let a = try LocalHTTPServer()
            defer { a.stop() }
            // 192.0.2.1 is TEST-NET-1: nothing answers there; the refusal must come first.
            a.route(
                "/away", .init(status: 302, headers: ["Location": "http://192.0.2.1/collect?k=\(key)"], body: Data()))
            let e = await expectDataSourceError {
                _ = try await http.get(
                    URL(string: a.baseURL + "/away?k=\(key)")!, headers: ["X-Api-Key": key], secrets: [key])
            }
            #expect(
                e?.message == "127.0.0.1:\(a.port) redirected to plain http with the API key or token: not followed "
                    + "(keys go over https only)", "\(name)")
            #expect(e?.message.contains(key) == false)
        }
        // And the transport refuses a first hop over plain http with a key, whoever calls it.
        await #expect(throws: HTTPTransportError(.secretOverHTTP)) {
            _ = try await URLSessionTransport().send(
                HTTPRequestSpec(url: "http://192.0.2.1/", headers: ["X-Api-Key": key], secretHeaders: ["X-Api-Key"]),
                options: HTTPOptions(connectTimeout: 1, totalTimeout: 1))
        }
    }

    @Test func smallThings_redirectToFileSaysWhatHappened() async throws {
        for (name, http) in try clients() {
            let a = try LocalHTTPServer()
            defer { a.stop() }
            a.route("/feed", .init(status: 302, headers: ["Location": "file:///etc/passwd"], body: Data()))
            a.route("/ftp", .init(status: 301, headers: ["Location": "ftp://files.example.com/x"], body: Data()))
            let e = await expectDataSourceError { _ = try await http.get(URL(string: a.baseURL + "/feed")!) }
            #expect(
                e?.message
                    == "127.0.0.1:\(a.port) redirected to a file: address: not followed (only http and https are)",
                "\(name)")
            #expect(e?.status == 302)
            let f = await expectDataSourceError { _ = try await http.get(URL(string: a.baseURL + "/ftp")!) }
            #expect(
                f?.message
                    == "127.0.0.1:\(a.port) redirected to a ftp: address: not followed (only http and https are)",
                "\(name)")
            // URLSession would have read the Location as a path on the same server: no such request went out.
            #expect(a.requests.map(\.path) == ["/feed", "/ftp"], "\(name)")
        }
    }

    @Test func smallThings_silentServerMessageNamesTheTimeoutThatFired() async throws {
        // The wait for an answer (connectTimeout) fires first: the message says its length.
        for (name, http) in try clients(HTTPOptions(connectTimeout: 2, totalTimeout: 3)) {
            let a = try LocalHTTPServer()
            defer { a.stop() }
            a.route("/silent", .init(status: 200, "[]", delay: 60))
            let start = Date()
            let e = await expectDataSourceError { _ = try await http.get(URL(string: a.baseURL + "/silent")!) }
            let took = Date().timeIntervalSince(start)
            #expect(e?.reason == .timeout, "\(name)")
            #expect(
                e?.message
                    == "127.0.0.1:\(a.port) did not answer within 2 s (timeout): check the network or try again later",
                "\(name)")
            // Behaviour, not speed: it gave up at its 2 s limit (a `.timeout`, where the 60 s answer
            // would have been an answer); only the lower bound is timed.
            #expect(took >= 1.9, "\(name): gave up after \(took) s")
        }
        // The shipped limits: abandoned after 5 s, and the message says 5 s.
        let standard = HTTPOptions.standard
        #expect(standard.connectTimeout == 5 && standard.totalTimeout == 10)
        let e = HTTPClient.error(for: HTTPTransportError(.timeout, seconds: 5), host: "h", options: standard)
        #expect(e.message.hasPrefix("h did not answer within 5 s (timeout)"))
        let whole = HTTPClient.error(for: HTTPTransportError(.timeout), host: "h", options: standard)
        #expect(whole.message.hasPrefix("h did not answer within 10 s (timeout)"))
    }
}
