/// The one duration grammar of every command and file Lowband reads: `--duration`, `--timeout`,
/// `--idle-timeout`, the soak's intervals, profile files, reproducing commands.
///
/// A decimal number and a unit: `ns`, `us` (or `µs`), `ms`, `s`, `m` (or `min`), `h` —
/// `250us`, `400ms`, `1.5s`, `5m`, `2min`, `1h`. Spaces may stand between number and unit.
/// A bare `0` is zero; any other number needs its unit, since `60` could be seconds or
/// milliseconds. Numbers are exact decimals, to the nanosecond; a duration is never negative.
package enum DurationText {
    /// The units, longest spelling first where one is a suffix of another.
    private static let units: [(name: String, nanoseconds: Int64)] = [
        ("ns", 1), ("us", 1_000), ("µs", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000),
        ("min", 60_000_000_000), ("m", 60_000_000_000), ("h", 3_600_000_000_000),
    ]

    /// The duration `text` gives, in whole nanoseconds.
    ///
    /// - Throws: ``DecimalText/Failure`` saying what was wrong and what to write instead.
    package static func nanoseconds(_ text: String) throws(DecimalText.Failure) -> Int64 {
        let number = try DecimalText(text, what: "a duration like 400ms, 60s or 5m")
        if number.unit.isEmpty {
            if number.isZero { return 0 }
            let written = text.trimmingSpaces
            throw DecimalText.Failure("'\(written)' has no unit; write \(written)s for seconds, \(written)ms for milliseconds (units: ns, us, ms, s, m, h)")
        }
        guard let unit = units.first(where: { $0.name == number.unit }) else {
            throw DecimalText.Failure("'\(text.trimmingSpaces)' has unknown unit '\(number.unit)'; write a duration with ns, us, ms, s, m or h, e.g. 400ms")
        }
        let value = try number.scaled(by: unit.nanoseconds, text: text.trimmingSpaces)
        guard value >= 0 else { throw DecimalText.Failure("a duration cannot be negative (got \(text.trimmingSpaces))") }
        return value
    }

    /// The duration `text` gives.
    ///
    /// - Throws: ``DecimalText/Failure`` saying what was wrong and what to write instead.
    package static func parse(_ text: String) throws(DecimalText.Failure) -> Duration {
        .nanoseconds(try nanoseconds(text))
    }

    /// `duration` the way a command takes it back: whole seconds as `60s`, whole milliseconds as
    /// `1500ms`, anything finer in nanoseconds.
    package static func format(_ duration: Duration) -> String {
        let nanoseconds = duration.nanosecondsClamped
        if nanoseconds % 1_000_000_000 == 0 { return "\(nanoseconds / 1_000_000_000)s" }
        if nanoseconds % 1_000_000 == 0 { return "\(nanoseconds / 1_000_000)ms" }
        return "\(nanoseconds)ns"
    }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating at Int64's range.
    package var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }

    /// The duration in seconds, as a Double (`self / .seconds(1)`, the figure records keep).
    package var seconds: Double { self / .seconds(1) }

    /// The duration in milliseconds, as a Double (from whole nanoseconds).
    package var milliseconds: Double { Double(nanosecondsClamped) / 1_000_000 }
}
