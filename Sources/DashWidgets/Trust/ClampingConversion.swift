/// Every conversion of a floating-point number to an integer in swiftdash goes through here
/// (issue 37.1). `Int(x)` traps on NaN, on ±infinity and on anything past `Int.max`, and such
/// numbers come from outside: an API field of 1e17 that a chart scales into rows, a forecast's
/// 1e300 degrees, a width divided by zero. `Int(clamping: x)` never traps.
extension FixedWidthInteger {
    /// `x` truncated toward zero, as `Self(x)` does (round it first for another rule), but kept
    /// within `range`: a value past a bound (±infinity, 1e300, 1e17 for an `Int32`) is that
    /// bound, and NaN is `nan` (itself kept within `range`).
    @inlinable
    public init(clamping x: Double, to range: ClosedRange<Self> = Self.min...Self.max, nan: Self = 0) {
        if x.isNaN {
            self = Swift.min(Swift.max(nan, range.lowerBound), range.upperBound)
        } else if x <= Double(range.lowerBound) {
            self = range.lowerBound
        } else if x >= Double(range.upperBound) {
            self = range.upperBound
        } else {
            // Strictly between two integers' doubles, so within Self; a bound's double may be
            // rounded, so the result is kept within `range` once more.
            self = Swift.min(Swift.max(Self(x), range.lowerBound), range.upperBound)
        }
    }
}

extension ClosedRange where Bound == Int {
    /// Whole seconds since 1970 a date is held within (±31,000 years): room left for a time
    /// zone's offset, a day's 86,400 and the sums a calendar makes, none of which overflow.
    public static var unixSeconds: ClosedRange<Int> { -1_000_000_000_000...1_000_000_000_000 }
}

extension ClosedRange where Bound == Int64 {
    /// Whole seconds since 1970 a date is held within (see `ClosedRange<Int>.unixSeconds`).
    public static var unixSeconds: ClosedRange<Int64> { -1_000_000_000_000...1_000_000_000_000 }
}
