/// Parsing and printing of the human units used in profile files: `150kbit`, `1.5Mbit`,
/// `400ms`, `2s`, `0.5%`, `30KB`, and ranges such as `1s..3s`.
///
/// Numbers are read as exact decimals (no floating point), so `1.5Mbit` is exactly 1,500,000
/// bit/s and printing gives back what was written. Sizes use decimal prefixes (1 KB = 1000 B,
/// as networking does); `KiB`/`MiB` are binary.
enum Units {
    /// Why a value could not be read; the loader adds the file and key.
    struct Failure: Error {
        var reason: String
    }

    // MARK: Parsing

    /// A rate in bit/s: `150kbit`, `1.5Mbit/s`, `800bit`. Must be positive.
    ///
    /// Only bit units are accepted: `kbps` means kilobits to some tools and kilobytes to others
    /// (tc), so it is refused rather than guessed.
    static func rate(_ text: String) throws(Failure) -> Int64 {
        let (number, unit) = try split(text, what: "a rate like 150kbit or 1.5Mbit")
        var name = unit.lowercased()
        if name.hasSuffix("/s") { name.removeLast(2) }
        let multipliers: [(String, Int64)] = [("bit", 1), ("kbit", 1_000), ("mbit", 1_000_000), ("gbit", 1_000_000_000)]
        guard let multiplier = multipliers.first(where: { $0.0 == name })?.1 else {
            throw Failure(reason: "'\(text)' has unknown rate unit '\(unit)'; use bit, kbit, Mbit or Gbit (optionally /s), e.g. 150kbit")
        }
        let value = try number.scaled(by: multiplier, text: text)
        guard value > 0 else {
            throw Failure(reason: "rate must be positive (got \(text)); for a link that moves nothing use an outage")
        }
        return value
    }

    /// A size in bytes: `30KB`, `1.5MB`, `64KiB`, `1500B` or a plain `1500`.
    static func bytes(_ text: String) throws(Failure) -> Int64 {
        let (number, unit) = try split(text, what: "a size like 30KB or 1500B", unitOptional: true)
        let multipliers: [(String, Int64)] = [("", 1), ("b", 1), ("kb", 1_000), ("mb", 1_000_000), ("gb", 1_000_000_000), ("kib", 1_024), ("mib", 1_048_576), ("gib", 1_073_741_824)]
        guard let multiplier = multipliers.first(where: { $0.0 == unit.lowercased() })?.1 else {
            throw Failure(reason: "'\(text)' has unknown size unit '\(unit)'; use B, KB, MB, GB, KiB or MiB, e.g. 30KB")
        }
        let value = try number.scaled(by: multiplier, text: text)
        guard value >= 0 else { throw Failure(reason: "a size cannot be negative (got \(text))") }
        return value
    }

    /// A duration in nanoseconds: `400ms`, `2s`, `1.5s`, `250us`, `2min`, `1h`, or `0`.
    static func duration(_ text: String) throws(Failure) -> Int64 {
        let (number, unit) = try split(text, what: "a duration like 400ms or 2s", unitOptional: true)
        let multipliers: [(String, Int64)] = [("ns", 1), ("us", 1_000), ("µs", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000), ("min", 60_000_000_000), ("h", 3_600_000_000_000)]
        if unit.isEmpty && number.isZero { return 0 }
        guard let multiplier = multipliers.first(where: { $0.0 == unit })?.1 else {
            let said = unit.isEmpty ? "has no unit" : "has unknown unit '\(unit)'"
            throw Failure(reason: "'\(text)' \(said); write a duration with ns, us, ms, s, min or h, e.g. 400ms")
        }
        let value = try number.scaled(by: multiplier, text: text)
        guard value >= 0 else { throw Failure(reason: "a duration cannot be negative (got \(text))") }
        return value
    }

    /// A percentage as a fraction: `0.5%` → 0.005. Must lie within 0 % … 100 %.
    static func percentage(_ text: String) throws(Failure) -> Double {
        let (number, unit) = try split(text, what: "a percentage like 0.5%")
        guard unit == "%" else {
            throw Failure(reason: "'\(text)' is not a percentage; write it with %, e.g. 0.5%")
        }
        guard !number.negative else { throw Failure(reason: "\(text) is below 0%; a percentage lies between 0% and 100%") }
        guard number.integer < 100 || (number.integer == 100 && number.fraction == 0) else {
            throw Failure(reason: "\(text) is above 100%; a percentage lies between 0% and 100%")
        }
        return number.doubleValue / 100
    }

    /// A plain decimal number such as `3` or `2.5`.
    static func number(_ text: String) throws(Failure) -> Double {
        let (number, unit) = try split(text, what: "a number like 3 or 2.5", unitOptional: true)
        guard unit.isEmpty else { throw Failure(reason: "'\(text)' is not a plain number (unexpected '\(unit)')") }
        return number.doubleValue
    }

    /// `A..B` → (A, B) with A ≤ B, each read by `parse`; a single value is the range A..A.
    static func range(_ text: String, _ parse: (String) throws(Failure) -> Int64) throws(Failure) -> ClosedRange<Int64> {
        let parts = text.split(separator: "..", omittingEmptySubsequences: false)
        if parts.count == 1 {
            let value = try parse(text)
            return value ... value
        }
        guard parts.count == 2 else { throw Failure(reason: "'\(text)' is not a range; write it as low..high, e.g. 1s..3s") }
        let low = try parse(String(parts[0]).trimmed)
        let high = try parse(String(parts[1]).trimmed)
        guard low <= high else { throw Failure(reason: "range '\(text)' runs backwards; write the smaller bound first") }
        return low ... high
    }

    // MARK: Printing

    /// `1500000` → `1.5 Mbit/s`.
    static func formatRate(_ bitsPerSecond: Int64) -> String {
        if bitsPerSecond >= 1_000_000_000 { return "\(decimal(bitsPerSecond, scale: 1_000_000_000)) Gbit/s" }
        if bitsPerSecond >= 1_000_000 { return "\(decimal(bitsPerSecond, scale: 1_000_000)) Mbit/s" }
        if bitsPerSecond >= 1_000 { return "\(decimal(bitsPerSecond, scale: 1_000)) kbit/s" }
        return "\(bitsPerSecond) bit/s"
    }

    /// Nanoseconds → `400 ms`, `2 s`, `1.5 min`.
    static func formatDuration(_ nanoseconds: Int64) -> String {
        let magnitude = nanoseconds.magnitude
        if magnitude >= 60_000_000_000 && nanoseconds % 60_000_000_000 == 0 { return "\(nanoseconds / 60_000_000_000) min" }
        if magnitude >= 1_000_000_000 { return "\(decimal(nanoseconds, scale: 1_000_000_000)) s" }
        if magnitude >= 1_000_000 { return "\(decimal(nanoseconds, scale: 1_000_000)) ms" }
        if magnitude >= 1_000 { return "\(decimal(nanoseconds, scale: 1_000)) us" }
        return "\(nanoseconds) ns"
    }

    /// `30000` → `30 KB`.
    static func formatBytes(_ bytes: Int64) -> String {
        if bytes >= 1_000_000 { return "\(decimal(bytes, scale: 1_000_000)) MB" }
        if bytes >= 1_000 { return "\(decimal(bytes, scale: 1_000)) KB" }
        return "\(bytes) B"
    }

    /// `0.005` → `0.5%` (to a millionth of a percent).
    static func formatPercentage(_ fraction: Double) -> String {
        let millionths = Int64((fraction * 100 * 1_000_000).rounded())
        return "\(decimal(millionths, scale: 1_000_000))%"
    }

    /// A range printed with `format`, collapsed to one value when both ends agree.
    static func formatRange(_ range: ClosedRange<Int64>, _ format: (Int64) -> String) -> String {
        range.lowerBound == range.upperBound ? format(range.lowerBound) : "\(format(range.lowerBound))..\(format(range.upperBound))"
    }

    /// `value / scale` written exactly, without trailing zeros: (1_500_000, 1_000_000) → "1.5".
    static func decimal(_ value: Int64, scale: Int64) -> String {
        let sign = value < 0 ? "-" : ""
        let magnitude = value.magnitude
        let whole = magnitude / scale.magnitude
        var remainder = magnitude % scale.magnitude
        guard remainder != 0 else { return "\(sign)\(whole)" }
        var digits = ""
        var unit = scale.magnitude
        while remainder != 0 && unit > 1 {
            unit /= 10
            digits.append(Character(String(remainder / unit)))
            remainder %= unit
        }
        return "\(sign)\(whole).\(digits)"
    }

    // MARK: Decimal numbers

    /// A decimal number as written: sign, integer digits and up to 18 fraction digits.
    struct Number {
        var negative: Bool
        var integer: Int64
        var fraction: Int64
        var fractionDigits: Int

        var isZero: Bool { integer == 0 && fraction == 0 }

        var doubleValue: Double {
            var power = 1.0
            for _ in 0 ..< fractionDigits { power *= 10 }
            let value = Double(integer) + Double(fraction) / power
            return negative ? -value : value
        }

        /// The number times `multiplier`, which must come out whole.
        func scaled(by multiplier: Int64, text: String) throws(Failure) -> Int64 {
            var divisor: Int64 = 1
            for _ in 0 ..< fractionDigits { divisor *= 10 }
            let (wholePart, overflowA) = integer.multipliedReportingOverflow(by: multiplier)
            let (fractionScaled, overflowB) = fraction.multipliedReportingOverflow(by: multiplier)
            guard !overflowA, !overflowB else { throw Failure(reason: "'\(text)' is too large") }
            guard fractionScaled % divisor == 0 else {
                throw Failure(reason: "'\(text)' is finer than the unit allows; use a smaller unit")
            }
            let (total, overflowC) = wholePart.addingReportingOverflow(fractionScaled / divisor)
            guard !overflowC else { throw Failure(reason: "'\(text)' is too large") }
            return negative ? -total : total
        }
    }

    /// Splits `-1.5 Mbit` into its number and its unit (spaces between them allowed).
    private static func split(_ raw: String, what: String, unitOptional: Bool = false) throws(Failure) -> (Number, String) {
        let text = raw.trimmed
        var scalars = Substring(text)
        var negative = false
        if scalars.first == "-" || scalars.first == "+" {
            negative = scalars.first == "-"
            scalars = scalars.dropFirst()
        }
        let integerDigits = scalars.prefix { $0.isASCII && $0.isNumber }
        scalars = scalars.dropFirst(integerDigits.count)
        var fractionDigits = Substring("")
        if scalars.first == "." {
            fractionDigits = scalars.dropFirst().prefix { $0.isASCII && $0.isNumber }
            scalars = scalars.dropFirst(1 + fractionDigits.count)
        }
        guard !integerDigits.isEmpty || !fractionDigits.isEmpty else {
            throw Failure(reason: "'\(raw)' is not \(what)")
        }
        guard integerDigits.count <= 15, fractionDigits.count <= 9,
              let integer = Int64(integerDigits.isEmpty ? "0" : String(integerDigits)),
              let fraction = Int64(fractionDigits.isEmpty ? "0" : String(fractionDigits))
        else {
            throw Failure(reason: "'\(raw)' has too many digits")
        }
        let unit = String(scalars).trimmed
        guard unitOptional || !unit.isEmpty else {
            throw Failure(reason: "'\(raw)' has no unit; write \(what)")
        }
        return (Number(negative: negative, integer: integer, fraction: fraction, fractionDigits: fractionDigits.count), unit)
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmed: String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view = view.dropFirst() }
        while let last = view.last, last == " " || last == "\t" { view = view.dropLast() }
        return String(view)
    }
}
