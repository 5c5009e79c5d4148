import LowbandBasics
import LowbandShaper

/// Reading the human units of profile files: `150kbit`, `1.5Mbit`, `400ms`, `2s`, `0.5%`,
/// `30KB`, and ranges such as `1s..3s`; LowbandShaper's `Units` prints them back.
///
/// Numbers are read as exact decimals (no floating point), so `1.5Mbit` is exactly 1,500,000
/// bit/s. Sizes use decimal prefixes (1 KB = 1000 B, as networking does); `KiB`/`MiB` are binary.
extension Units {
    /// Why a value could not be read; the loader adds the file and key.
    struct Failure: Error {
        var reason: String
    }

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
        let value = try scaled(number, by: multiplier, text: text)
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
        let value = try scaled(number, by: multiplier, text: text)
        guard value >= 0 else { throw Failure(reason: "a size cannot be negative (got \(text))") }
        return value
    }

    /// A duration in nanoseconds, in the one grammar of LowbandBasics' `DurationText`:
    /// `400ms`, `2s`, `1.5s`, `250us`, `2m`, `1h`, or `0`.
    static func duration(_ text: String) throws(Failure) -> Int64 {
        do {
            return try DurationText.nanoseconds(text)
        } catch {
            throw Failure(reason: error.reason)
        }
    }

    /// A percentage as a fraction: `0.5%` → 0.005, in the one grammar of LowbandBasics'
    /// `DecimalText.percentage`. Must lie within 0 % … 100 %.
    static func percentage(_ text: String) throws(Failure) -> Double {
        let fraction: Double
        do {
            fraction = try DecimalText.percentage(text)
        } catch {
            throw Failure(reason: error.reason)
        }
        guard fraction <= 1 else {
            throw Failure(reason: "\(text) is above 100%; a percentage lies between 0% and 100%")
        }
        return fraction
    }

    /// A power in milliwatts: `800mW`, `1.2W`, `0` (a bare 0 only). Not negative.
    static func milliwatts(_ text: String) throws(Failure) -> Double {
        if text == "0" { return 0 }
        let (number, unit) = try split(text, what: "a power like 800mW or 1.2W")
        guard !number.negative else { throw Failure(reason: "\(text) is below 0: a radio state draws power, it does not make it") }
        switch unit {
        case "mW": return number.doubleValue
        case "W": return number.doubleValue * 1000
        default: throw Failure(reason: "'\(text)' is not a power; write mW or W, e.g. 800mW")
        }
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
        let low = try parse(String(parts[0]).trimmingSpaces)
        let high = try parse(String(parts[1]).trimmingSpaces)
        guard low <= high else { throw Failure(reason: "range '\(text)' runs backwards; write the smaller bound first") }
        return low ... high
    }

    /// Splits `-1.5 Mbit` into its number and its unit (spaces between them allowed).
    private static func split(_ raw: String, what: String, unitOptional: Bool = false) throws(Failure) -> (DecimalText, String) {
        do {
            let number = try DecimalText(raw, what: what, unitRequired: !unitOptional)
            return (number, number.unit)
        } catch {
            throw Failure(reason: error.reason)
        }
    }
}

extension Units {
    /// `number × multiplier`, with DecimalText's failure as the loader's.
    fileprivate static func scaled(_ number: DecimalText, by multiplier: Int64, text: String) throws(Failure) -> Int64 {
        do {
            return try number.scaled(by: multiplier, text: text)
        } catch {
            throw Failure(reason: error.reason)
        }
    }
}
