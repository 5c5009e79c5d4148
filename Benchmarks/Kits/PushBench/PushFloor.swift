public import LowbandShaper

/// The physical floor of a push on a network profile: the least time any client and server
/// could take to get one frame from the server's socket to the client over an already-open
/// connection, so a measured push-to-visible time can be read as "how far above physics".
///
/// ```
/// floor = downlink.delay + ⌈frameBytes × 8 / downlink.rate⌉
/// ```
///
/// - `downlink.delay`: the base one-way delay of the server → client direction.
/// - `frameBytes`: the frame as it crosses the link — the 12-byte header plus the payload as
///   sent (LZ4-compressed when the policy compressed it), counted on the wire, not re-encoded.
/// - `downlink.rate`: the bottleneck in bit/s; `unlimited` adds nothing. A frame longer than
///   the MTU crosses as back-to-back pieces, so the sum is the same. The shaper rounds each
///   piece's crossing up to the next nanosecond, as here.
///
/// Deliberately left out, and how each shows in a measurement:
/// - **Connect delay**: paid once per connection; a push travels on an open one.
/// - **Radio wake-up** (`wakeup`): paid only by the first transmission after `idle` without
///   traffic. Pushes in an active conversation keep the radio awake (see the harness).
/// - **Jitter**: a variation around `delay`. Uniform and normal jitter are symmetric, so single
///   pushes land up to `amount` *below* the floor and the median stays near it; Pareto jitter
///   only adds (its median is about 0.06 × `amount`), so p50 sits a little above the floor.
/// - **Loss** (an RTO stall per lost piece) and **outages**: rare events that move p99 and the
///   maximum by whole seconds, not the median.
public struct PushFloor: Hashable, Sendable {
    /// The downlink's base one-way delay.
    public var oneWayDelay: Duration
    /// The frame's bytes at the downlink's bottleneck rate.
    public var serialization: Duration
    /// The frame's size on the wire, header included.
    public var frameBytes: Int

    /// The floor itself: delay plus serialization.
    public var total: Duration { oneWayDelay + serialization }

    /// ``total`` in whole microseconds (rounded), as the benchmark records it.
    public var totalMicroseconds: Int { total.roundedMicroseconds }

    /// The floor of a frame of `frameBytes` on the downlink (server → client) of `profile`.
    ///
    /// - Throws: ``PushBenchError`` `.unsupportedProfile` for a trace-driven downlink or a
    ///   profile with a timeline: their figures change over time, so there is no one floor.
    public init(profile: NetworkProfile, frameBytes: Int) throws(PushBenchError) {
        guard profile.timeline == nil else {
            throw PushBenchError(.unsupportedProfile, "profile '\(profile.name)' has a timeline; its floor changes over time, pick a profile with fixed figures")
        }
        try self.init(downlink: profile.downlink, frameBytes: frameBytes, profileName: profile.name)
    }

    /// The floor of a frame of `frameBytes` on a link with `downlink`'s figures.
    ///
    /// - Throws: ``PushBenchError`` `.unsupportedProfile` when the rate is a Mahimahi trace.
    public init(downlink: LinkProfile, frameBytes: Int) throws(PushBenchError) {
        try self.init(downlink: downlink, frameBytes: frameBytes, profileName: "the given link")
    }

    private init(downlink: LinkProfile, frameBytes bytesOnWire: Int, profileName: String) throws(PushBenchError) {
        let bytes = max(0, bytesOnWire)
        switch downlink.rate {
        case .unlimited:
            serialization = .zero
        case .bitsPerSecond(let rate) where rate > 0:
            let bitNanoseconds = Int64(bytes) * 8 * 1_000_000_000
            serialization = .nanoseconds((bitNanoseconds + rate - 1) / rate)
        case .bitsPerSecond(let rate):
            throw PushBenchError(.unsupportedProfile, "\(profileName): a downlink rate of \(rate) bit/s never delivers a frame")
        case .trace:
            throw PushBenchError(.unsupportedProfile, "\(profileName): the downlink follows a Mahimahi trace; its floor depends on when a frame arrives")
        }
        oneWayDelay = downlink.delay
        frameBytes = bytes
    }

    /// `measured` divided by the floor (1.0 is physics); nil when the floor is zero (`perfect`).
    public func ratio(of measured: Duration) -> Double? {
        let floor = total.seconds
        return floor > 0 ? measured.seconds / floor : nil
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Whole microseconds, rounded to the nearest.
    var roundedMicroseconds: Int {
        Int((seconds * 1e6).rounded())
    }
}
