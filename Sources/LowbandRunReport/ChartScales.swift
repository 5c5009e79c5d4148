/// Maps data values to SVG positions along one axis and chooses the ticks to label.
///
/// Every scale is total: a degenerate or non-finite domain is widened to a usable one, so a chart
/// of a single sample or of nothing still produces finite coordinates.
struct LinearScale: Sendable, Hashable {
    let lower: Double
    let upper: Double
    let rangeStart: Double
    let rangeEnd: Double

    init(domain lower: Double, _ upper: Double, range rangeStart: Double, _ rangeEnd: Double) {
        var low = lower.isFinite ? lower : 0
        var high = upper.isFinite ? upper : 1
        if high < low { swap(&low, &high) }
        if high == low {
            // One value: centre it on a span that still reads sensibly.
            let pad = low == 0 ? 1 : abs(low) * 0.5
            low -= pad
            high += pad
        }
        self.lower = low
        self.upper = high
        self.rangeStart = rangeStart.isFinite ? rangeStart : 0
        self.rangeEnd = rangeEnd.isFinite ? rangeEnd : 1
    }

    /// The same scale with the domain widened outwards to whole multiples of a nice step.
    func niced(tickCount: Int = 5) -> LinearScale {
        let step = ReportMath.niceStep((upper - lower) / Double(Swift.max(tickCount, 1)))
        return LinearScale(
            domain: (lower / step).rounded(.down) * step, (upper / step).rounded(.up) * step,
            range: rangeStart, rangeEnd
        )
    }

    func callAsFunction(_ value: Double) -> Double {
        guard value.isFinite else { return rangeStart }
        return rangeStart + (value - lower) / (upper - lower) * (rangeEnd - rangeStart)
    }

    /// Round values (1, 2 or 5 times a power of ten apart) inside the domain, about `count` of them.
    func ticks(count: Int = 5) -> [Double] {
        let step = ReportMath.niceStep((upper - lower) / Double(Swift.max(count, 1)))
        let first = (lower / step - 1e-9).rounded(.up)
        let last = (upper / step + 1e-9).rounded(.down)
        guard first <= last, last - first < 1000 else { return [lower, upper] }
        // Multiply instead of accumulating, so ticks are exact multiples (0.3, not 0.30000000000000004).
        // Below 1, divide by a power of ten instead (6 / 10 is 0.6; 3 · 0.2 is 0.6000000000000001).
        let decimals = Swift.max(-ReportMath.decade(step), 0)
        let divisor = ReportMath.pow10(decimals)
        let wholeStep = (step * divisor).rounded()
        return stride(from: first, through: last, by: 1).map { index in
            let value = index * wholeStep / divisor
            return value == 0 ? 0 : value
        }
    }
}

/// A base-10 logarithmic scale, for figures spanning several orders of magnitude (latencies from
/// tens of milliseconds to tens of seconds).
struct LogScale: Sendable, Hashable {
    let lower: Double
    let upper: Double
    let rangeStart: Double
    let rangeEnd: Double
    private let logLower: Double
    private let logUpper: Double

    /// `lower` and `upper` must be positive to mean anything; other values are replaced so the
    /// scale stays finite (a non-positive lower bound becomes a thousandth of the upper).
    init(domain lower: Double, _ upper: Double, range rangeStart: Double, _ rangeEnd: Double) {
        var high = upper.isFinite && upper > 0 ? upper : 1
        var low = lower.isFinite && lower > 0 ? lower : high / 1000
        if high < low { swap(&low, &high) }
        if high == low {
            low /= 10
            high *= 10
        }
        self.lower = low
        self.upper = high
        self.rangeStart = rangeStart.isFinite ? rangeStart : 0
        self.rangeEnd = rangeEnd.isFinite ? rangeEnd : 1
        logLower = ReportMath.log10(low) ?? 0
        logUpper = ReportMath.log10(high) ?? 1
    }

    /// The same scale widened to the nearest 1, 2 or 5 times a power of ten on each side, so the
    /// axis starts and ends on a labelled tick without wasting most of a decade.
    func niced() -> LogScale {
        LogScale(domain: Self.roundNumber(below: lower), Self.roundNumber(above: upper), range: rangeStart, rangeEnd)
    }

    private static func roundNumber(below value: Double) -> Double {
        let magnitude = ReportMath.pow10(ReportMath.decade(value))
        return [5.0, 2, 1].map { $0 * magnitude }.first { $0 <= value * (1 + 1e-12) } ?? magnitude
    }

    private static func roundNumber(above value: Double) -> Double {
        let magnitude = ReportMath.pow10(ReportMath.decade(value))
        return [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= value * (1 - 1e-12) } ?? 10 * magnitude
    }

    /// Values at or below zero sit at the lower end of the axis.
    func callAsFunction(_ value: Double) -> Double {
        guard let logarithm = ReportMath.log10(Swift.max(value, lower)) else { return rangeStart }
        let span = logUpper - logLower
        guard span > 0 else { return rangeStart }
        return rangeStart + (logarithm - logLower) / span * (rangeEnd - rangeStart)
    }

    /// Powers of ten inside the domain, plus 2× and 5× of each when it spans at most three and a
    /// half decades (about ten labels).
    func ticks() -> [Double] {
        let first = ReportMath.decade(lower)
        let last = ReportMath.decade(upper)
        guard last - first < 300 else { return [lower, upper] }
        let decades = ReportMath.log10(upper / lower) ?? 0
        let multipliers: [Double] = decades <= 3.5 ? [1, 2, 5] : [1]
        var ticks: [Double] = []
        for power in (first - 1)...last {
            for multiplier in multipliers {
                let value = multiplier * ReportMath.pow10(power)
                if value >= lower * (1 - 1e-9), value <= upper * (1 + 1e-9) { ticks.append(value) }
            }
        }
        return ticks
    }
}

/// Either kind of scale, chosen by the spread of the data.
enum ValueScale: Sendable, Hashable {
    case linear(LinearScale)
    case logarithmic(LogScale)

    /// A log scale when the positive values span more than two decades (max/min > 100), else a
    /// linear scale from zero; both widened to nice bounds.
    static func fitting(minimum: Double, maximum: Double, range rangeStart: Double, _ rangeEnd: Double) -> ValueScale {
        if minimum.isFinite, maximum.isFinite, minimum > 0, maximum / minimum > 100 {
            return .logarithmic(LogScale(domain: minimum, maximum, range: rangeStart, rangeEnd).niced())
        }
        let upper = maximum.isFinite && maximum > 0 ? maximum : 1
        return .linear(LinearScale(domain: 0, upper, range: rangeStart, rangeEnd).niced())
    }

    func callAsFunction(_ value: Double) -> Double {
        switch self {
        case .linear(let scale): scale(value)
        case .logarithmic(let scale): scale(value)
        }
    }

    func ticks(count: Int = 5) -> [Double] {
        switch self {
        case .linear(let scale): scale.ticks(count: count)
        case .logarithmic(let scale): scale.ticks()
        }
    }

    var isLogarithmic: Bool {
        if case .logarithmic = self { return true }
        return false
    }
}
