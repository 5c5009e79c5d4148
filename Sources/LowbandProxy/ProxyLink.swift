public import LowbandShaper

/// The link a proxy's simulated device uses: a name and seed for reports, where its decisions
/// are traced, and how to make the `TrafficShaper` that decides when bytes move. All
/// connections of a proxy share one shaper.
public struct ProxyLink: Sendable, CustomStringConvertible {
    /// The profile's name (`edge`, `3g`, `perfect`, or any label for a custom shaper).
    public var profile: String
    /// The seed of the shaper's random decisions (jitter, loss, outages).
    public var seed: UInt64
    /// What the profile was asked for by: a name or a file path. A seed change loads it again
    /// from here, so a link loaded from a file keeps its file. Defaults to ``profile``.
    public var source: String
    /// Receives the link's decisions on the proxy's timeline: time since the proxy started,
    /// connections numbered from 1 in accept order as in its events, a `link` line at each
    /// switch, and both continuing across switches (see `LowbandShaper/ShaperTraceFrame`).
    public var trace: (any ShaperTraceSink)?
    /// Makes a fresh shaper whenever the link starts or is switched to. The proxy passes the
    /// sink its decisions go to (``trace`` and the live event stream, already placed on the
    /// proxy's timeline); a shaper that can trace should report to it (a custom one may ignore it).
    public var makeShaper: @Sendable (_ sink: (any ShaperTraceSink)?) -> any TrafficShaper
    /// How the device's network resolves names (the profile's `dns`); nil: at once, always.
    public var dns: DNSProfile?

    /// A link named `profile` whose shaper `makeShaper` makes; `source` defaults to `profile`.
    public init(
        profile: String, seed: UInt64 = 0, source: String? = nil, trace: (any ShaperTraceSink)? = nil,
        makeShaper: @escaping @Sendable (_ sink: (any ShaperTraceSink)?) -> any TrafficShaper
    ) {
        self.profile = profile
        self.seed = seed
        self.source = source ?? profile
        self.trace = trace
        self.makeShaper = makeShaper
    }

    /// A link playing `profile` with random decisions from `seed`, tracing to `trace`.
    public static func network(_ profile: NetworkProfile, seed: UInt64 = 0, trace: (any ShaperTraceSink)? = nil) -> ProxyLink {
        var link = ProxyLink(profile: profile.name, seed: seed, trace: trace) { sink in
            NetworkShaper(profile: profile, seed: seed, trace: sink)
        }
        link.dns = profile.dns
        return link
    }

    /// No shaping: unlimited rate, no delay, loss or outages — a plain TCP proxy. The same
    /// figures as `profiles/perfect.yaml`, built in so a proxy needs no profile files.
    public static func perfect(seed: UInt64 = 0, trace: (any ShaperTraceSink)? = nil) -> ProxyLink {
        network(perfectProfile, seed: seed, trace: trace)
    }

    static let perfectProfile = NetworkProfile(
        name: "perfect",
        summary: "Perfect — no rate limit, no delay, no loss",
        downlink: LinkProfile(rate: .unlimited, queueBytes: 1_000_000),
        uplink: LinkProfile(rate: .unlimited, queueBytes: 1_000_000)
    )

    public var description: String { "\(profile) seed \(seed)" }
}

/// Hands each shaper decision to two sinks, in order.
struct TraceTee: ShaperTraceSink {
    let first: any ShaperTraceSink
    let second: any ShaperTraceSink

    func record(_ event: ShaperEvent) {
        first.record(event)
        second.record(event)
    }

    static func combine(_ first: (any ShaperTraceSink)?, _ second: (any ShaperTraceSink)?) -> (any ShaperTraceSink)? {
        switch (first, second) {
        case let (first?, second?): TraceTee(first: first, second: second)
        case let (first?, nil): first
        case let (nil, second?): second
        case (nil, nil): nil
        }
    }
}
