/// The little floating-point math the charts need, in pure Swift so the target imports nothing.
enum ReportMath {
    /// The base-10 logarithm of a positive finite `x`; nil otherwise.
    ///
    /// Accurate to about 1e-15 relative, far below what a pixel can show.
    static func log10(_ x: Double) -> Double? {
        guard x.isFinite, x > 0 else { return nil }
        // x = m · 2^e with m in [1, 2); ln(m) = 2·atanh(t), t = (m - 1)/(m + 1) in [0, 1/3).
        let exponent = Double(x.exponent)
        let mantissa = x.significand
        let t = (mantissa - 1) / (mantissa + 1)
        let t2 = t * t
        var term = t
        var sum = 0.0
        var k = 1.0
        while k < 80 {
            sum += term / k
            term *= t2
            k += 2
        }
        let naturalLogOf2 = 0.693_147_180_559_945_3
        let naturalLogOf10 = 2.302_585_092_994_046
        return (2 * sum + exponent * naturalLogOf2) / naturalLogOf10
    }

    /// 10 raised to the integer `power` (clamped to ±300, where Double still has room).
    static func pow10(_ power: Int) -> Double {
        let clamped = Swift.min(Swift.max(power, -300), 300)
        var result = 1.0
        for _ in 0..<abs(clamped) { result *= 10 }
        return clamped < 0 ? 1 / result : result
    }

    /// 10 raised to a real `power`, for placing points on a logarithmic axis.
    static func pow10(real power: Double) -> Double {
        guard power.isFinite else { return power > 0 ? .infinity : 0 }
        let whole = power.rounded(.down)
        let fraction = power - whole
        // 10^f = e^(f·ln 10), f in [0, 1): the Taylor series converges quickly.
        let y = fraction * 2.302_585_092_994_046
        var term = 1.0
        var sum = 1.0
        var n = 1.0
        while n < 40 {
            term *= y / n
            sum += term
            n += 1
        }
        return pow10(Int(whole)) * sum
    }

    /// The decade exponent of `x`: `floor(log10(x))` for positive finite `x`, 0 otherwise.
    static func decade(_ x: Double) -> Int {
        guard let logarithm = log10(x) else { return 0 }
        var power = Int(logarithm.rounded(.down))
        // Repair the last-bit error of log10 at exact powers of ten.
        if pow10(power + 1) <= x { power += 1 }
        if pow10(power) > x { power -= 1 }
        return power
    }

    /// A "nice" step (1, 2 or 5 times a power of ten) close to `rough`, for axis ticks.
    static func niceStep(_ rough: Double) -> Double {
        guard rough.isFinite, rough > 0 else { return 1 }
        let magnitude = pow10(decade(rough))
        let normalized = rough / magnitude
        let factor: Double = normalized < 1.5 ? 1 : normalized < 3 ? 2 : normalized < 7 ? 5 : 10
        return factor * magnitude
    }
}
