/// A decimal number as written, with the unit that follows it: `-1.5 Mbit` → (−1.5, "Mbit").
///
/// Read exactly (no floating point), so `1.5Mbit` is exactly 1,500,000 and printing gives back
/// what was written. The grammar under every figure Lowband reads from a command line or a file:
/// an optional sign, digits with an optional fraction (at most 15 integer and 9 fraction digits),
/// optional spaces, then the unit.
package struct DecimalText: Sendable, Hashable {
    /// Why a text is not a number with a unit.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What was wrong, naming the text.
        package var reason: String
        /// The reason.
        package var description: String { reason }

        /// A failure saying `reason`.
        package init(_ reason: String) {
            self.reason = reason
        }
    }

    /// True for a leading `-`.
    package var negative: Bool
    /// The digits before the point.
    package var integer: Int64
    /// The digits after the point, as an integer.
    package var fraction: Int64
    /// How many digits follow the point.
    package var fractionDigits: Int
    /// What follows the number, spaces trimmed; empty when nothing does.
    package var unit: String

    /// True for 0 (with any sign or fraction digits).
    package var isZero: Bool { integer == 0 && fraction == 0 }

    /// The number as a Double (for figures that are fractions anyway, such as percentages).
    package var doubleValue: Double {
        var power = 1.0
        for _ in 0 ..< fractionDigits { power *= 10 }
        let value = Double(integer) + Double(fraction) / power
        return negative ? -value : value
    }

    /// Reads `raw`; `what` describes the expected text for the error (`a rate like 150kbit`).
    ///
    /// - Throws: ``Failure`` when there are no digits or too many, or no unit where one is required.
    package init(_ raw: String, what: String, unitRequired: Bool = false) throws(Failure) {
        let text = raw.trimmingSpaces
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
            throw Failure("'\(raw)' is not \(what)")
        }
        guard integerDigits.count <= 15, fractionDigits.count <= 9,
              let integer = Int64(integerDigits.isEmpty ? "0" : String(integerDigits)),
              let fraction = Int64(fractionDigits.isEmpty ? "0" : String(fractionDigits))
        else {
            throw Failure("'\(raw)' has too many digits")
        }
        let unit = String(scalars).trimmingSpaces
        guard !unitRequired || !unit.isEmpty else {
            throw Failure("'\(raw)' has no unit; write \(what)")
        }
        self.negative = negative
        self.integer = integer
        self.fraction = fraction
        self.fractionDigits = fractionDigits.count
        self.unit = unit
    }

    /// The number times `multiplier`, which must come out whole.
    ///
    /// - Throws: ``Failure`` when the product overflows or has a fraction left.
    package func scaled(by multiplier: Int64, text: String) throws(Failure) -> Int64 {
        var divisor: Int64 = 1
        for _ in 0 ..< fractionDigits { divisor *= 10 }
        let (wholePart, overflowA) = integer.multipliedReportingOverflow(by: multiplier)
        let (fractionScaled, overflowB) = fraction.multipliedReportingOverflow(by: multiplier)
        guard !overflowA, !overflowB else { throw Failure("'\(text)' is too large") }
        guard fractionScaled % divisor == 0 else {
            throw Failure("'\(text)' is finer than the unit allows; use a smaller unit")
        }
        let (total, overflowC) = wholePart.addingReportingOverflow(fractionScaled / divisor)
        guard !overflowC else { throw Failure("'\(text)' is too large") }
        return negative ? -total : total
    }

    /// `value / scale` written exactly, without trailing zeros: (1_500_000, 1_000_000) → "1.5".
    package static func format(_ value: Int64, scale: Int64) -> String {
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
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    package var trimmingSpaces: String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view = view.dropFirst() }
        while let last = view.last, last == " " || last == "\t" { view = view.dropLast() }
        return String(view)
    }
}

extension DecimalText {
    /// The one percentage grammar (a profile's `loss: 0.5%`, `lowband compare --threshold 10%`):
    /// a number of zero or more followed by `%`, as the fraction it stands for (`0.5%` → 0.005).
    ///
    /// - Throws: ``Failure`` naming the text: no `%`, another unit, or a negative number.
    package static func percentage(_ text: String) throws(Failure) -> Double {
        let number = try DecimalText(text, what: "a percentage like 0.5%", unitRequired: true)
        guard number.unit == "%" else {
            throw Failure("'\(text)' is not a percentage; write it with %, e.g. 0.5%")
        }
        guard !number.negative || (number.integer == 0 && number.fraction == 0) else {
            throw Failure("\(text) is below 0%; a percentage is zero or more")
        }
        return number.doubleValue / 100
    }
}
