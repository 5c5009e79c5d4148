/// A fast, seedable pseudo-random generator (xoshiro256**, seeded through SplitMix64).
///
/// Every random choice in Lowband comes from one of these, never from the global generator, so a
/// seed reproduces a run. Streams for independent consumers are derived with ``derived(_:)``.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// Creates a generator whose whole sequence is fixed by `seed`.
    public init(seed: UInt64) {
        var splitMix = seed
        state = (
            Self.splitMix64(&splitMix), Self.splitMix64(&splitMix),
            Self.splitMix64(&splitMix), Self.splitMix64(&splitMix)
        )
    }

    /// A generator for an independent stream identified by `labels`, fixed by this one's seed.
    ///
    /// Derivation does not advance `self`, so adding a consumer never shifts another's stream.
    public func derived(_ labels: UInt64...) -> SeededGenerator {
        var mix = state.0 ^ 0x9E37_79B9_7F4A_7C15
        for label in labels {
            mix = Self.mixed(mix ^ label)
        }
        return SeededGenerator(seed: mix)
    }

    public mutating func next() -> UInt64 {
        let result = rotl(state.1 &* 5, 7) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = rotl(state.3, 45)
        return result
    }

    private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }

    private static func splitMix64(_ x: inout UInt64) -> UInt64 {
        x &+= 0x9E37_79B9_7F4A_7C15
        return mixed(x)
    }

    private static func mixed(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
