import Foundation
import LowbandBasics

/// A percentage option of `lowband compare`, such as `10%` or `0.5%`; the `%` is required.
///
/// A bare number is refused because it is ambiguous: `0.25` was meant as 25% by the user who
/// found it read as 0.25% (issue 14).
public struct Percentage: Sendable, Hashable, CustomStringConvertible {
    /// The percentage as a fraction: 10% is 0.1.
    public var fraction: Double

    /// A percentage of `fraction` (0.1 for 10%).
    public init(fraction: Double) {
        self.fraction = fraction
    }

    /// Why an argument is not a percentage, said with the value the user probably meant.
    public struct ParseError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads `argument` as `<non-negative number>%`.
    ///
    /// - Throws: ``ParseError``; for a bare number its message shows both readings, e.g.
    ///   "a threshold needs a unit: write 25% (a fraction of 0.25) or 0.25%".
    public static func parse(_ argument: String) throws(ParseError) -> Percentage {
        let text = argument.trimmingCharacters(in: .whitespaces)
        guard text.hasSuffix("%") else {
            if let number = Double(text), number.isFinite, number >= 0 {
                throw ParseError(description: "a threshold needs a unit: write \(Self.text(number * 100))% (a fraction of \(Self.text(number))) or \(Self.text(number))%")
            }
            throw ParseError(description: "not a percentage; write a number followed by %, e.g. 10%")
        }
        do {
            return Percentage(fraction: try DecimalText.percentage(text))
        } catch {
            throw ParseError(description: "not a percentage of zero or more (\(error.reason)); write e.g. 10% or 0.5%")
        }
    }

    /// `12.5%`, `0.25%`, `10%`: the percentage with as many digits as it has (up to six significant).
    public var description: String { Self.text(fraction * 100) + "%" }

    /// `value` with up to six significant digits and no trailing zeros: `25`, `0.25`, `12.5`.
    package static func text(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.6g", value)
    }
}
