import XCTest
import Foundation
import DashWidgets

/// Issue 37.4: the forms a secret is masked in (`SecretMask`); `EchoedSecretTests` (the command
/// line against an echoing server) shows them kept out of the tile, the cache and every output.
final class SecretMaskTests: XCTestCase {
    static let token = "tok-S3CRET/42+x y\"z"
    var forms: [String] {
        let bytes = Data(Self.token.utf8)
        return [
            Self.token, bytes.base64EncodedString(),
            Self.token.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
            bytes.map { String(format: "%02x", $0) }.joined(),
        ]
    }

    func testASecretStaysSecretWhenAServerEchoesIt_everyEncoding() {
        let mask = SecretMask([Self.token])
        let bytes = Data(Self.token.utf8)
        for form in forms + [
            bytes.base64EncodedString().replacingOccurrences(of: "=", with: ""),
            bytes.map { String(format: "%02X", $0) }.joined(),
            String(decoding: try! JSONEncoder().encode(Self.token), as: UTF8.self).dropFirst().dropLast().description,
        ] {
            XCTAssertEqual(mask.mask("a \(form) b"), "a •••• b", form)
        }
        XCTAssertEqual(SecretMask(["abc"]).mask("abc"), "abc", "too short to mask")
        XCTAssertEqual(
            SecretMask.of(
                WidgetConfig(["url": .string("https://x/${TOKEN_A}"), "headers": .list(["X: ${TOKEN_B}"])]),
                schema: ConfigurationSchema([]), environment: ["TOKEN_A": "aaaa-1111", "TOKEN_B": "bbbb-2222"]
            ).mask("aaaa-1111 bbbb-2222"), "•••• ••••")
    }
}
