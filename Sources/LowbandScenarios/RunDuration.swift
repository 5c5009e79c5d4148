import Foundation

/// Parses `--duration`: a number with a unit (`500ms`, `60s`, `5m`, `5min`, `1h`), or a plain
/// number of seconds; shared by `lowband run`, `lowband explore` and the commands they print.
public enum RunDuration {
    /// A duration that could not be parsed; the description says what to write instead.
    public struct ParseError: Error, CustomStringConvertible {
        /// The text as given.
        public var text: String
        public var description: String {
            "invalid duration '\(text)': give a number with a unit, e.g. 500ms, 60s, 5m, 1h (a plain number is seconds)"
        }
    }

    /// The duration `text` gives: a number with a unit (`ms`, `s`, `m`, `min`, `h`) or plain
    /// seconds, rounded to the nanosecond; surrounding spaces are ignored.
    ///
    /// - Throws: ``RunDuration/ParseError`` when it is not a finite number, has another unit, or is 10⁹ s or more.
    public static func parse(_ text: String) throws(ParseError) -> Duration {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("min", 60), ("s", 1), ("m", 60), ("h", 3600)]
        var number = Substring(trimmed)
        var scale = 1.0
        if let unit = units.first(where: { trimmed.hasSuffix($0.suffix) }) {
            number = number.dropLast(unit.suffix.count)
            scale = unit.seconds
        }
        guard let value = Double(number), value.isFinite, abs(value * scale) < 1e9 else { throw ParseError(text: text) }
        return .nanoseconds(Int64((value * scale * 1e9).rounded()))
    }

    /// `duration` the way `--duration` takes it back: whole seconds as `60s`, else milliseconds.
    public static func format(_ duration: Duration) -> String {
        let nanoseconds = duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
        if nanoseconds % 1_000_000_000 == 0 { return "\(nanoseconds / 1_000_000_000)s" }
        return "\(nanoseconds / 1_000_000)ms"
    }
}
