/// Numbers as a reader wants them: a unit picked so the figure has two or three digits
/// (`850 µs`, `1.2 ms`, `350 ms`, `4.1 s`; `12.3 KB`), and plain decimals for SVG coordinates.
///
/// Written by hand because the target uses no Foundation; bytes use decimal prefixes (1 KB =
/// 1000 B), as network rates do.
enum NumberFormatting {
    /// Shown for a value that is not a finite number.
    static let missing = "—"

    /// A duration given in milliseconds.
    static func duration(milliseconds: Double) -> String {
        guard milliseconds.isFinite else { return missing }
        if milliseconds < 0 { return "-" + duration(milliseconds: -milliseconds) }
        if milliseconds == 0 { return "0 ms" }
        // (symbol, milliseconds in one unit, value from which the next unit takes over)
        let ladder: [(String, Double, Double)] = [
            ("ns", 1e-6, 1000), ("µs", 1e-3, 1000), ("ms", 1, 1000),
            ("s", 1000, 120), ("min", 60_000, 120), ("h", 3_600_000, .infinity),
        ]
        return scaled(milliseconds, ladder: ladder, integralBase: false, oneDecimalBelow: 10)
    }

    /// A duration given in seconds.
    static func duration(seconds: Double) -> String {
        duration(milliseconds: seconds * 1000)
    }

    /// A byte count (or a fractional byte figure such as a mean).
    static func bytes(_ value: Double) -> String {
        guard value.isFinite else { return missing }
        if value < 0 { return "-" + bytes(-value) }
        let ladder: [(String, Double, Double)] = [
            ("B", 1, 1000), ("KB", 1e3, 1000), ("MB", 1e6, 1000), ("GB", 1e9, 1000), ("TB", 1e12, .infinity),
        ]
        return scaled(value, ladder: ladder, integralBase: true, oneDecimalBelow: 100)
    }

    /// A byte figure for an axis tick: like ``bytes(_:)`` without a trailing `.0` (`40 KB`, `2.5 KB`),
    /// since ticks are round numbers anyway.
    static func bytesTick(_ value: Double) -> String {
        let text = bytes(value)
        guard let space = text.firstIndex(of: " ") else { return text }
        return trimmedZeros(String(text[..<space])) + text[space...]
    }

    /// A value of the benchmark CSV schema's `unit` (docs/BENCHMARKS.md), formatted for it.
    static func value(_ value: Double, unit: String) -> String {
        switch unit {
        case "ns": return duration(milliseconds: value / 1e6)
        case "us", "µs": return duration(milliseconds: value / 1e3)
        case "ms": return duration(milliseconds: value)
        case "s": return duration(seconds: value)
        case "bytes", "B": return bytes(value)
        case "x": return number(value) + "×"
        case "%": return number(value) + "%"
        case "count", "allocations", "": return number(value)
        default: return number(value) + " " + unit
        }
    }

    /// A plain number with about three significant digits; integers as they are, grouped by
    /// thousands (`12,345`).
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return missing }
        if value < 0 { return "-" + number(-value) }
        if value == value.rounded() || value >= 100 { return grouped(fixed(value, fractionDigits: 0)) }
        let digits = Swift.min(Swift.max(2 - ReportMath.decade(value), 0), 6)
        return trimmedZeros(fixed(value, fractionDigits: digits))
    }

    /// A fraction in [0, 1] as a percentage, e.g. `99%` or `99.9%`.
    static func percent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return missing }
        let percentage = fraction * 100
        let text = trimmedZeros(fixed(percentage, fractionDigits: percentage == percentage.rounded() ? 0 : 1))
        return text + "%"
    }

    /// A part of a whole as a percentage, like ``percent(_:)`` but never `0%` for a part that is
    /// not zero: `<0.1%` instead.
    static func share(_ fraction: Double) -> String {
        fraction > 0 && fraction < 0.0005 ? "<0.1%" : percent(fraction)
    }

    /// An SVG coordinate or length: at most two decimals, no exponent, and 0 for a value that is
    /// not finite — a NaN in a path makes the browser drop the whole element.
    static func coordinate(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let clamped = Swift.min(Swift.max(value, -1e9), 1e9)
        return trimmedZeros(fixed(clamped, fractionDigits: 2))
    }

    /// `value` with exactly `fractionDigits` decimals, rounded half away from zero.
    static func fixed(_ value: Double, fractionDigits: Int) -> String {
        guard value.isFinite else { return missing }
        let digits = Swift.min(Swift.max(fractionDigits, 0), 9)
        let factor = ReportMath.pow10(digits)
        let scaled = (abs(value) * factor).rounded(.toNearestOrAwayFromZero)
        // Beyond 2^53 the digits are noise anyway; the standard description still shows the size.
        guard scaled < 9.0e15 else { return value.description }
        let units = UInt64(scaled)
        let divisor = UInt64(factor)
        let whole = units / divisor
        var text = (value < 0 && units != 0 ? "-" : "") + String(whole)
        if digits > 0 {
            let fraction = String(units % divisor)
            text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return text
    }

    /// Picks the smallest unit of `ladder` in which the rounded figure stays below the next
    /// unit's threshold; one decimal below `oneDecimalBelow`, none above (and none for a base unit
    /// counted in whole numbers, such as bytes).
    private static func scaled(_ value: Double, ladder: [(String, Double, Double)], integralBase: Bool, oneDecimalBelow: Double) -> String {
        for (index, (symbol, size, limit)) in ladder.enumerated() {
            let inUnit = value / size
            let digits = (inUnit < oneDecimalBelow - 0.05 && !(integralBase && index == 0)) ? 1 : 0
            let rounded = (inUnit * ReportMath.pow10(digits)).rounded() / ReportMath.pow10(digits)
            if rounded < limit || index == ladder.count - 1 {
                return fixed(rounded, fractionDigits: digits) + " " + symbol
            }
        }
        return missing
    }

    private static func trimmedZeros(_ text: String) -> String {
        guard text.contains(".") else { return text }
        var trimmed = Substring(text)
        while trimmed.last == "0" { trimmed = trimmed.dropLast() }
        if trimmed.last == "." { trimmed = trimmed.dropLast() }
        return trimmed == "-0" ? "0" : String(trimmed)
    }

    private static func grouped(_ digits: String) -> String {
        let negative = digits.hasPrefix("-")
        let body = negative ? Array(digits.dropFirst()) : Array(digits)
        guard body.count > 4 else { return digits }
        var result = ""
        for (index, character) in body.enumerated() {
            if index > 0, (body.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return (negative ? "-" : "") + result
    }
}
