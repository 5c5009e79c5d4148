import Foundation

/// The physical floor of one frame on a profile's downlink, and beside it the median the profile
/// implies: how fast the network allows at best, and how fast it is half the time.
///
/// ```
/// floor  = max(0, delay − jitter below) + serialization
/// median = max(0, delay + median jitter) + serialization
/// serialization = ⌈frameBytes × 8 / rate⌉   (0 on an unlimited link)
/// ```
///
/// - `delay`: the downlink's base one-way delay.
/// - jitter below: how far the shaper's jitter can pull a piece below `delay` — its whole amount
///   for uniform and normal jitter (both bounded to ± amount), nothing for Pareto (it only adds).
/// - median jitter: 0 for uniform and normal (symmetric about 0, correlated or not); for Pareto
///   the median of what the shaper draws (see ``medianJitter(_:)``), about 0.06 × amount
///   uncorrelated and 0.081 × amount at the profiles' 25 % correlation.
/// - `frameBytes`: the frame as it crosses the link, header included, as sent (compressed when
///   the policy compressed it), plus, on a profile, each segment's TCP/IP headers and the TLS
///   record's overhead (``PacketOverhead``). A frame longer than the MSS crosses as back-to-back
///   pieces, so the sum is the same; the shaper rounds each crossing up to the nanosecond, as
///   here.
///
/// Left out, because they are paid rarely or not by a frame on an open connection: the
/// connect delay, the radio's wake-up after `idle` without traffic, loss stalls and outages.
/// They move p99 and the maximum by seconds, not the median; the floor stays a true bound.
///
/// A profile with a timeline takes the least floor over its base figures and segments, and has
/// no single median (nil); neither has a downlink that follows a Mahimahi trace (its crossing
/// depends on when a frame arrives, so the floor counts none).
public struct PhysicalFloor: Hashable, Sendable {
    /// The frame's size on the wire, header included.
    public var frameBytes: Int
    /// The least time the profile allows for the frame: no sample can be faster.
    public var least: Duration
    /// The time the profile implies for the median sample; nil when the link's figures change
    /// over time (a timeline or a trace).
    public var median: Duration?

    /// The floor of a frame of `frameBytes` on the downlink (server → client) of `profile`.
    public init(profile: NetworkProfile, frameBytes: Int) {
        self.frameBytes = max(0, frameBytes)
        least = Self.least(profile: profile, frameBytes: frameBytes)
        median = profile.timeline == nil ? PhysicalFloor(link: profile.downlink, frameBytes: Self.onAir(frameBytes, profile)).median : nil
    }

    /// The bytes a frame of `frameBytes` takes of the rate on `profile`: its segments' headers
    /// and its TLS record's overhead added (``PacketOverhead``).
    static func onAir(_ frameBytes: Int, _ profile: NetworkProfile) -> Int {
        let bytes = max(0, frameBytes)
        let segments = (bytes + profile.maximumSegmentPayload - 1) / profile.maximumSegmentPayload
        return bytes + segments * profile.overhead.headerBytes + profile.overhead.tlsBytes(forWriteOf: bytes)
    }

    /// The floor of a frame of `frameBytes` on a link with `link`'s figures.
    public init(link: LinkProfile, frameBytes: Int) {
        let bytes = max(0, frameBytes)
        self.frameBytes = bytes
        least = Self.least(link: link, frameBytes: bytes)
        median = Self.serialization(bytes: bytes, rate: link.rate).map {
            .nanoseconds(max(0, link.delay.nanosecondsClamped + Self.medianJitter(link.jitter).nanosecondsClamped) + $0)
        }
    }

    /// ``least`` alone, without computing the median: cheap enough to check every sample.
    public static func least(profile: NetworkProfile, frameBytes: Int) -> Duration {
        let links = [profile.downlink] + (profile.timeline?.segments.map(\.downlink) ?? [])
        return links.map { least(link: $0, frameBytes: onAir(frameBytes, profile)) }.min() ?? .zero
    }

    /// ``least`` of a frame on a link with `link`'s figures.
    public static func least(link: LinkProfile, frameBytes: Int) -> Duration {
        let crossing = serialization(bytes: max(0, frameBytes), rate: link.rate) ?? 0
        let below = link.jitter.distribution == .pareto ? 0 : link.jitter.amount.nanosecondsClamped
        return .nanoseconds(max(0, link.delay.nanosecondsClamped - below) + crossing)
    }

    /// `measured` over the median; nil when there is no median or it is zero (`perfect`).
    public func ratioToMedian(of measured: Duration) -> Double? {
        guard let median, median > .zero else { return nil }
        return measured / median
    }

    /// The frame's crossing of the bottleneck in nanoseconds, rounded up as the shaper does; nil
    /// when it depends on when the frame arrives (a trace) or never ends (no rate).
    static func serialization(bytes: Int, rate: LinkRate) -> Int64? {
        switch rate {
        case .unlimited:
            return 0
        case .bitsPerSecond(let rate) where rate > 0:
            let bitNanoseconds = Int64(bytes) * 8 * 1_000_000_000
            return (bitNanoseconds + rate - 1) / rate
        case .bitsPerSecond, .trace:
            return nil
        }
    }

    /// The median of the offsets the shaper adds to the base delay with `jitter` (see
    /// `JitterState`): 0 for the symmetric distributions; for Pareto, the median of the
    /// correlated mix `y = c × y' + (1 − c) × x` of capped Lomax draws `x`.
    ///
    /// Uncorrelated, that is the Lomax median, scale × (2^(1/shape) − 1), in closed form. With a
    /// correlation `c` the stationary mix is Σₖ (1 − c) cᵏ xₖ, whose distribution is the
    /// convolution of the scaled draws: computed on a grid of 1/4096 of the amount (within
    /// 0.01 % of the amount of a two-million-draw simulation at 25 %).
    public static func medianJitter(_ jitter: JitterProfile) -> Duration {
        let amount = Double(jitter.amount.nanosecondsClamped)
        guard amount > 0, jitter.distribution == .pareto else { return .zero }
        let fraction = paretoMedianFraction(correlation: jitter.correlation)
        return .nanoseconds(Int64((fraction * amount).rounded()))
    }

    /// The median of the shaper's Pareto jitter as a fraction of its amount.
    static func paretoMedianFraction(correlation: Double) -> Double {
        let shape = JitterState.paretoShape
        let scale = 1 / JitterState.paretoScaleDivisor
        let c = min(max(correlation, 0), 0.99)
        if c == 0 { return scale * (pow(2, 1 / shape) - 1) }
        // P(x ≤ v) of one draw, capped at 1 (the cap holds the rest of the tail).
        func cdf(_ value: Double) -> Double {
            value < 0 ? 0 : value >= 1 ? 1 : 1 - pow(1 + value / scale, -shape)
        }
        let bins = 4096
        let width = 1 / Double(bins)
        // The distribution of the mix on the grid: bin i holds the mass nearest i × width.
        var mix = [Double](repeating: 0, count: bins + 1)
        mix[0] = 1
        var weight = 1 - c
        while weight >= width / 16 {
            let top = min(bins, Int((weight / width).rounded(.up)) + 1)
            var term = [Double](repeating: 0, count: top + 1)
            for bin in 0 ... top {
                term[bin] = cdf((Double(bin) + 0.5) * width / weight) - cdf((Double(bin) - 0.5) * width / weight)
            }
            var next = [Double](repeating: 0, count: bins + 1)
            for (i, a) in mix.enumerated() where a > 0 {
                for (j, b) in term.enumerated() where b > 0 {
                    next[min(bins, i + j)] += a * b
                }
            }
            mix = next
            weight *= c
        }
        // The terms too small for the grid (together weighing c^k) add their mean.
        let remaining = weight / (1 - c)
        let mean = scale / (shape - 1) * (1 - pow(1 + 1 / scale, 1 - shape))
        var cumulative = 0.0
        for (bin, mass) in mix.enumerated() {
            if cumulative + mass >= 0.5 {
                let within = mass > 0 ? (0.5 - cumulative) / mass : 0
                return (Double(bin) - 0.5 + within) * width + remaining * mean
            }
            cumulative += mass
        }
        return 1
    }
}
