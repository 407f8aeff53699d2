import XCTest
import Foundation
import DashWidgets
import DashScheduler
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

final class ControlProtocolTests: XCTestCase {
    let kinds: Set<String> = ["clock", "news"]

    func testPingAndReload() {
        XCTAssertEqual(ControlProtocol.handle("ping", kinds: kinds).answer, "pong")
        let all = ControlProtocol.handle("reload", kinds: kinds)
        XCTAssertEqual(all.answer, "ok")
        XCTAssertEqual(all.request, .reloadAllTimelines)
        XCTAssertEqual(ControlProtocol.handle("reload news", kinds: kinds).request, .reloadTimelines(kind: "news"))
        XCTAssertEqual(ControlProtocol.reloadLine(kind: "news"), "reload news")
    }

    func testUnknownThingsAreErrorsWithoutEscapeSequences() {
        let bad = ControlProtocol.handle("reload \u{1B}]52;c;aGk=\u{07}x", kinds: kinds)
        XCTAssertNil(bad.request)
        XCTAssertTrue(bad.answer.hasPrefix("error: unknown widget"))
        XCTAssertFalse(bad.answer.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, bad.answer)
        XCTAssertTrue(ControlProtocol.handle("rm -rf /", kinds: kinds).answer.hasPrefix("error: unknown command"))
        XCTAssertNil(ControlProtocol.handle("reload a b", kinds: kinds).request)
    }
}

final class SecretFingerprintTests: XCTestCase {
    let schema = ConfigurationSchema([
        Parameter(key: "apiKey", title: "API key", help: "", kind: .string(), default: .string(""), isSecret: true),
        Parameter(key: "coin", title: "Coin", help: "", kind: .string(), default: .string("BTC")),
    ])

    func testSecretsAreFingerprintedAndRevealedOnlyWhenTheyMatch() {
        let config = WidgetConfig(["apiKey": .string("sk-very-secret"), "coin": .string("ETH")])
        let hidden = SecretFingerprint.hide(config, schema: schema)
        XCTAssertNotEqual(hidden["apiKey"], .string("sk-very-secret"))
        XCTAssertEqual(hidden["coin"], .string("ETH"))
        XCTAssertEqual(SecretFingerprint.reveal(hidden, using: config, schema: schema), config)
        let other = WidgetConfig(["apiKey": .string("another"), "coin": .string("ETH")])
        XCTAssertNotEqual(SecretFingerprint.reveal(hidden, using: other, schema: schema), other)
        XCTAssertEqual(SecretFingerprint.fingerprint("abc"), SecretFingerprint.fingerprint("abc"), "stable across runs")
    }
}
