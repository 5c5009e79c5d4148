import LowbandBasics

/// Printing of the human units used in profile files: `150kbit`, `1.5Mbit`, `400ms`, `2s`,
/// `0.5%`, `30KB`, and ranges such as `1s..3s`; LowbandProfiles reads them, and what it reads
/// prints back as written (exact decimals, decimal size prefixes, `KiB`/`MiB` binary).
package enum Units {
    // MARK: Printing

    /// `1500000` → `1.5 Mbit/s`.
    package static func formatRate(_ bitsPerSecond: Int64) -> String {
        if bitsPerSecond >= 1_000_000_000 { return "\(decimal(bitsPerSecond, scale: 1_000_000_000)) Gbit/s" }
        if bitsPerSecond >= 1_000_000 { return "\(decimal(bitsPerSecond, scale: 1_000_000)) Mbit/s" }
        if bitsPerSecond >= 1_000 { return "\(decimal(bitsPerSecond, scale: 1_000)) kbit/s" }
        return "\(bitsPerSecond) bit/s"
    }

    /// Nanoseconds → `400 ms`, `2 s`, `1.5 min`.
    package static func formatDuration(_ nanoseconds: Int64) -> String {
        let magnitude = nanoseconds.magnitude
        if magnitude >= 60_000_000_000 && nanoseconds % 60_000_000_000 == 0 { return "\(nanoseconds / 60_000_000_000) min" }
        if magnitude >= 1_000_000_000 { return "\(decimal(nanoseconds, scale: 1_000_000_000)) s" }
        if magnitude >= 1_000_000 { return "\(decimal(nanoseconds, scale: 1_000_000)) ms" }
        if magnitude >= 1_000 { return "\(decimal(nanoseconds, scale: 1_000)) us" }
        return "\(nanoseconds) ns"
    }

    /// `30000` → `30 KB`.
    package static func formatBytes(_ bytes: Int64) -> String {
        if bytes >= 1_000_000 { return "\(decimal(bytes, scale: 1_000_000)) MB" }
        if bytes >= 1_000 { return "\(decimal(bytes, scale: 1_000)) KB" }
        return "\(bytes) B"
    }

    /// `0.005` → `0.5%` (to a millionth of a percent).
    package static func formatPercentage(_ fraction: Double) -> String {
        let millionths = Int64((fraction * 100 * 1_000_000).rounded())
        return "\(decimal(millionths, scale: 1_000_000))%"
    }

    /// A range printed with `format`, collapsed to one value when both ends agree.
    package static func formatRange(_ range: ClosedRange<Int64>, _ format: (Int64) -> String) -> String {
        range.lowerBound == range.upperBound ? format(range.lowerBound) : "\(format(range.lowerBound))..\(format(range.upperBound))"
    }

    /// `value / scale` written exactly, without trailing zeros: (1_500_000, 1_000_000) → "1.5".
    package static func decimal(_ value: Int64, scale: Int64) -> String {
        DecimalText.format(value, scale: scale)
    }

}

