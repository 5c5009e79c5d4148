import LowbandDeterminism

/// The draws the shaper makes, written out here rather than taken from the standard library,
/// whose algorithms (`random(in:using:)`) may change between toolchains and shift every trace.
extension SeededGenerator {
    /// Uniform in [0, 1), from the top 53 bits.
    mutating func unitInterval() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Uniform in (0, 1]: safe for logarithms and negative powers.
    mutating func positiveUnitInterval() -> Double {
        Double((next() >> 11) + 1) * 0x1p-53
    }

    /// True with probability `probability`; draws nothing when the answer is certain.
    mutating func chance(_ probability: Double) -> Bool {
        if probability <= 0 { return false }
        if probability >= 1 { return true }
        return unitInterval() < probability
    }

    /// Uniform within `range` (nanoseconds, bytes, …); draws nothing for a single value.
    mutating func uniform(in range: ClosedRange<Int64>) -> Int64 {
        guard range.lowerBound < range.upperBound else { return range.lowerBound }
        let span = Double(range.upperBound - range.lowerBound)
        return range.lowerBound + min(Int64(unitInterval() * (span + 1)), range.upperBound - range.lowerBound)
    }

    /// Uniform within a range of durations, in nanoseconds.
    mutating func uniform(in range: ClosedRange<Duration>) -> Int64 {
        uniform(in: range.lowerBound.nanosecondsClamped ... range.upperBound.nanosecondsClamped)
    }
}
