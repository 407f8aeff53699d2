import Foundation

/// `%02d` and `%.2f` without `String(format:)`, which pulls ICU-backed formatting into a
/// static binary on first use (~3 MB of resident memory for a clock that ticks every
/// minute). The output is byte-identical to glibc's printf for the same arguments.
public enum FixedFormat {
    /// `String(format: "%0<width>d", n)`: at least `width` characters, zeros after the sign.
    public static func zeroPadded(_ n: Int, width: Int = 2) -> String {
        let digits = String(n.magnitude)
        let sign = n < 0 ? "-" : ""
        let pad = max(0, width - sign.count - digits.count)
        return sign + String(repeating: "0", count: pad) + digits
    }

    /// `String(format: "%.<places>f", v)` (with `plusSign`, `"%+.<places>f"`): rounded to
    /// nearest with ties to even on the exact binary value, as printf does; "-" whenever
    /// the sign bit is set ("-0.00" for -0.001, like printf).
    public static func decimal(_ v: Double, places: Int, plusSign: Bool = false) -> String {
        let negative = v.sign == .minus
        let sign = negative ? "-" : (plusSign ? "+" : "")
        guard v.isFinite else { return v.isNaN ? sign + "nan" : sign + "inf" }
        let d = max(0, places)
        guard d <= 15, let n = roundedScaled(abs(v), places: d) else {
            // Beyond 2^53 units of the last place: exotic for a dashboard; let printf do it.
            return String(format: "%\(plusSign ? "+" : "").\(d)f", v)
        }
        var digits = String(n)
        guard d > 0 else { return sign + digits }
        if digits.count <= d { digits = String(repeating: "0", count: d + 1 - digits.count) + digits }
        let cut = digits.index(digits.endIndex, offsetBy: -d)
        return sign + digits[..<cut] + "." + digits[cut...]
    }

    /// A number in scientific notation with `significant` digits and a short exponent:
    /// `1.23e-6`, `-4.5e-12`, `9.99e3` (printf's `%.2e` would write `1.23e-06`). The mantissa
    /// is rounded as `decimal` rounds; one that rounds up to 10 moves to the next exponent.
    public static func scientific(_ v: Double, significant: Int = 3) -> String {
        guard v.isFinite else { return decimal(v, places: 0) }
        let sign = v.sign == .minus ? "-" : ""
        let a = abs(v)
        let places = max(0, significant - 1)
        guard a > 0 else { return sign + decimal(0, places: places) + "e0" }
        var e = Int(clamping: log10(a).rounded(.down))
        var m = a / pow10(e)
        // log10 can be one off next to a power of ten.
        if m >= 10 {
            e += 1
            m = a / pow10(e)
        } else if m < 1 {
            e -= 1
            m = a / pow10(e)
        }
        var text = decimal(m, places: places)
        if text.hasPrefix("10") {
            e += 1
            text = decimal(a / pow10(e), places: places)
        }
        return sign + text + "e" + String(e)
    }

    /// `10^e` for a decimal exponent.
    static func pow10(_ e: Int) -> Double {
        var r = 1.0
        if e >= 0 { for _ in 0..<e { r *= 10 } } else { for _ in 0..<(-e) { r /= 10 } }
        return r
    }

    /// `a · 10^places` rounded to the nearest integer, ties to even, decided on the exact
    /// product (an FMA recovers the rounding error of the multiplication); nil when too big.
    static func roundedScaled(_ a: Double, places: Int) -> UInt64? {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }  // exact up to 10^22
        let p = a * scale
        guard p < 9_007_199_254_740_992 else { return nil }  // 2^53: every double is an integer
        let err = fmaError(a, scale, p)
        // Exact product = p + err. Its integer part:
        var floorP = p.rounded(.down)
        if floorP == p, err < 0 { floorP -= 1 }
        // Compare the exact fraction with one half: (p - floorP) is exact, and so is
        // subtracting 0.5 from it; the sign of the sum with err is then exact too.
        let half = (p - floorP) - 0.5 + err
        var n = UInt64(clamping: floorP)
        if half > 0 || (half == 0 && n % 2 == 1) { n += 1 }
        return n
    }

    /// The rounding error of `x * y == p`: `x * y - p`, exactly.
    static func fmaError(_ x: Double, _ y: Double, _ p: Double) -> Double {
        (-p).addingProduct(x, y)
    }
}
