public import LowbandDeterminism

/// Capped exponential back-off with seeded jitter, for reconnecting.
///
/// Attempt `n` (0 after a session ended, counting failed attempts since) waits
/// `min(maximumDelay, initialDelay · 2ⁿ)`, less a random share of up to `jitter` of it, so a
/// crowd of clients that lost the same cell tower does not come back in lock step. The random
/// share comes from the injected generator, so a seed replays the same delays.
public struct Backoff: Hashable, Sendable {
    /// The ceiling of the first retry's delay.
    public var initialDelay: Duration
    /// The largest delay; at least `initialDelay`.
    public var maximumDelay: Duration
    /// The fraction of each delay that is random, 0...1.
    public var jitter: Double

    /// A back-off; `maximumDelay` is raised to `initialDelay` if below it and `jitter` is clamped
    /// to 0...1.
    public init(initialDelay: Duration = .milliseconds(250), maximumDelay: Duration = .seconds(30), jitter: Double = 0.5) {
        self.initialDelay = initialDelay
        self.maximumDelay = max(initialDelay, maximumDelay)
        self.jitter = min(1, max(0, jitter))
    }

    /// The delay before attempt `attempt`, without jitter.
    public func ceiling(attempt: Int) -> Duration {
        let initial = Self.nanoseconds(initialDelay)
        let maximum = Self.nanoseconds(maximumDelay)
        var delay = initial
        for _ in 0 ..< max(0, attempt) {
            guard delay < maximum else { break }
            delay = delay > maximum / 2 ? maximum : delay * 2
        }
        return .nanoseconds(min(delay, maximum))
    }

    /// The delay before attempt `attempt`, with jitter drawn from `generator`.
    public func delay(attempt: Int, using generator: inout SeededGenerator) -> Duration {
        let ceiling = Self.nanoseconds(ceiling(attempt: attempt))
        let spread = UInt64(Double(ceiling) * jitter)
        guard spread > 0 else { return .nanoseconds(ceiling) }
        // Multiply-high maps the draw onto 0...spread without the platform's `random(in:)`,
        // whose algorithm may change between toolchains.
        let draw = generator.next().multipliedFullWidth(by: spread &+ 1).high
        return .nanoseconds(ceiling - Int64(draw))
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
