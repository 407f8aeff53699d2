import XCTest
import Foundation
@testable import DashWidgets

/// `FixedFormat` must print exactly what `String(format:)` (glibc printf) prints.
final class FixedFormatTests: XCTestCase {
    func testZeroPaddedMatchesPrintf() {
        for n in [-1234, -10, -5, -1, 0, 1, 5, 9, 10, 59, 99, 100, 12345] {
            for w in [1, 2, 3, 4] {
                XCTAssertEqual(FixedFormat.zeroPadded(n, width: w), String(format: "%0\(w)d", n), "\(n) width \(w)")
            }
        }
    }

    func testDecimalMatchesPrintfOnTiesAndEdges() {
        let values: [Double] = [
            0, -0.0, 0.125, 0.375, 2.675, 1.005, 1.015, 0.5, 1.5, 2.5, -2.5, 0.05, 0.15, 0.25, 0.35,
            -0.001, -0.004, 0.0049999999999999, 0.995, 9.995, 99.995, 999999.995, 1e-7, 5e-7,
            4503599627370495.5, 4503599627370496.5, 123456789.125, 43210.555, 0.06123, 1e15, 1e-300,
            Double.leastNonzeroMagnitude, 1.25e-5, 2.5e-6, 0.45, 1.45, 2.45, 8.345, 100.0 / 3.0,
        ]
        for v in values {
            for places in 0...6 {
                XCTAssertEqual(
                    FixedFormat.decimal(v, places: places), String(format: "%.\(places)f", v), "\(v) places \(places)")
                XCTAssertEqual(
                    FixedFormat.decimal(v, places: places, plusSign: true), String(format: "%+.\(places)f", v))
            }
        }
        XCTAssertEqual(FixedFormat.decimal(.infinity, places: 2), String(format: "%.2f", Double.infinity))
        XCTAssertEqual(FixedFormat.decimal(-.infinity, places: 2), String(format: "%.2f", -Double.infinity))
        XCTAssertEqual(FixedFormat.decimal(1e300, places: 2), String(format: "%.2f", 1e300))
    }

    func testDecimalMatchesPrintfOnRandomValues() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let magnitude = Double.random(in: -8...9, using: &rng)
            var v = (Double.random(in: 1..<10, using: &rng) * pow(10, magnitude.rounded(.down)))
            if Bool.random(using: &rng) { v = -v }
            // Also values on a grid of halves, where printf's ties-to-even matters.
            if Int.random(in: 0..<4, using: &rng) == 0 {
                let places = Int.random(in: 0...4, using: &rng)
                v = (Double(Int.random(in: -2_000_000...2_000_000, using: &rng)) + 0.5) / pow(10, Double(places))
            }
            let places = Int.random(in: 0...6, using: &rng)
            XCTAssertEqual(
                FixedFormat.decimal(v, places: places), String(format: "%.\(places)f", v), "\(v) places \(places)")
        }
    }

    func testScientificKeepsSignificantDigitsWithAShortExponent() {
        XCTAssertEqual(FixedFormat.scientific(0.00000123), "1.23e-6")
        XCTAssertEqual(FixedFormat.scientific(0.00001234), "1.23e-5")
        XCTAssertEqual(FixedFormat.scientific(-0.000045), "-4.50e-5")
        XCTAssertEqual(FixedFormat.scientific(0.000999999), "1.00e-3", "a mantissa that rounds up to 10 moves on")
        XCTAssertEqual(FixedFormat.scientific(0.001), "1.00e-3")
        XCTAssertEqual(FixedFormat.scientific(1e-15, significant: 2), "1.0e-15")
        XCTAssertEqual(FixedFormat.scientific(9990), "9.99e3")
        for v in [1.23e-6, 4.56e-9, 7.77e-12, 0.5, 0.000321] {
            // The digits printf's %.2e prints, with the exponent written short.
            let printf = String(format: "%.2e", v)
            let parts = printf.split(separator: "e")
            XCTAssertEqual(FixedFormat.scientific(v), "\(parts[0])e\(Int(parts[1])!)", "\(v)")
        }
    }
}
