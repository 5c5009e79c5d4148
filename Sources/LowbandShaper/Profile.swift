public import LowbandDeterminism

/// A network as the shaper emulates it: the figures of each direction, the events that
/// interrupt it, and where every figure comes from.
///
/// Load one from a file or by name with LowbandProfiles (`NetworkProfile.load(named:searchPath:)`);
/// build one in code for tests. Downlink is server → client (``Direction/downstream``).
public struct NetworkProfile: Sendable, Hashable {
    /// The name it is listed under: the file name without `.yaml`.
    public var name: String
    /// One line saying what network this is.
    public var summary: String
    /// Where the figures come from as a whole, when the profile is another tool's preset
    /// (`Network Link Conditioner`, `Chrome DevTools`, …); `lowband profiles list` groups by it.
    /// Nil for Lowband's own profiles.
    public var group: String?
    /// The largest piece the link moves at once, in bytes (1500, as Ethernet and Mahimahi),
    /// headers included.
    public var mtu: Int
    /// What bytes cost beyond their payload: headers per segment, TLS records,
    /// acknowledgements. Profile files default to ``PacketOverhead/tcpIPv4``; profiles built in
    /// code to ``PacketOverhead/none`` unless given.
    public var overhead: PacketOverhead = .none
    /// The figures of the server → client direction.
    public var downlink: LinkProfile
    /// The figures of the client → server direction.
    public var uplink: LinkProfile
    /// Added between `open` and the proxy connecting upstream (the TCP handshake and more).
    public var connectDelay: ClosedRange<Duration>
    /// The radio's promotion delay after the link was idle; nil when there is none. The simple
    /// form of ``radio``, which wins when both are given.
    public var wakeUp: WakeUpProfile?
    /// The radio's power states, timers and promotions; nil: ``wakeUp``'s two states, if any.
    public var radio: RadioProfile?
    /// Scheduled periods when nothing moves.
    public var outages: [OutageProfile]
    /// Connections the network aborts; nil when none are.
    public var resets: ResetProfile?
    /// The carrier's NAT, which forgets a flow idle for its timeout; nil: flows are never
    /// forgotten.
    public var nat: NATProfile?
    /// How long a name takes to resolve, and how often it fails, for every name the proxy
    /// resolves (a front door's destination, a named upstream); nil: at once, always.
    public var dns: DNSProfile?
    /// Figures that change over time; nil when the base figures hold throughout.
    public var timeline: ProfileTimeline?
    /// The citation of each figure, keyed by its path in the file (`downlink.rate`); a source on
    /// a section (`downlink.loss`) covers the figures in it. Look one up with ``source(for:)``.
    public var sources: [ProfileSource]
    /// The file the profile was read from, if any.
    public var file: String?
    /// From this instant on the profile's own faults are over: no outage begins, one in force
    /// ends, and no connection is reset. A run's drain phase sets it to the end of its traffic
    /// (the network healed); nil: the faults go on for ever. Not read from files.
    public var healedFrom: Duration?

    /// A profile; everything but the name and the two directions defaults to none (no connect
    /// delay, no wake-up, outages, resets or timeline), with a 1500-byte MTU.
    public init(
        name: String,
        summary: String = "",
        mtu: Int = 1500,
        downlink: LinkProfile,
        uplink: LinkProfile,
        connectDelay: ClosedRange<Duration> = .zero ... .zero,
        wakeUp: WakeUpProfile? = nil,
        outages: [OutageProfile] = [],
        resets: ResetProfile? = nil,
        timeline: ProfileTimeline? = nil,
        sources: [ProfileSource] = [],
        file: String? = nil
    ) {
        self.name = name
        self.summary = summary
        self.mtu = mtu
        self.downlink = downlink
        self.uplink = uplink
        self.connectDelay = connectDelay
        self.wakeUp = wakeUp
        self.outages = outages
        self.resets = resets
        self.timeline = timeline
        self.sources = sources
        self.file = file
    }

    /// The most payload a segment carries: the MTU less the headers.
    public var maximumSegmentPayload: Int { max(1, mtu - overhead.headerBytes) }

    /// The base figures of the link carrying `direction`'s bytes.
    public func link(_ direction: Direction) -> LinkProfile {
        direction == .downstream ? downlink : uplink
    }

    /// The citation covering the figure at `key` (`downlink.loss.rate`): its own, else that of
    /// the nearest enclosing section; nil when the file gives none.
    public func source(for key: String) -> String? {
        var path = Substring(key)
        while true {
            if let found = sources.first(where: { $0.key == path }) { return found.text }
            if path.isEmpty { return nil }
            path = path[..<(path.lastIndex(where: { $0 == "." || $0 == "[" }) ?? path.startIndex)]
        }
    }
}

/// The figures of one direction of the link.
public struct LinkProfile: Sendable, Hashable {
    /// How fast the shared bottleneck moves bytes.
    public var rate: LinkRate
    /// One-way base delay added to every piece after it leaves the bottleneck.
    public var delay: Duration
    /// Variation added to `delay` per piece.
    public var jitter: JitterProfile
    /// How pieces are lost and retransmitted.
    public var loss: LossProfile
    /// The bottleneck's drop-tail queue, in bytes, shared by the device's connections. Full
    /// means back-pressure (``TrafficShaper/submit(_:on:_:at:)`` returns false), never a drop.
    public var queueBytes: Int

    /// A direction; by default no delay, jitter or loss and a 64 000-byte queue.
    public init(rate: LinkRate, delay: Duration = .zero, jitter: JitterProfile = .none, loss: LossProfile = .none, queueBytes: Int = 64_000) {
        self.rate = rate
        self.delay = delay
        self.jitter = jitter
        self.loss = loss
        self.queueBytes = queueBytes
    }
}

/// Where the bottleneck's capacity comes from.
public enum LinkRate: Sendable, Hashable {
    /// A constant rate in bits per second.
    case bitsPerSecond(Int64)
    /// No limit: pieces leave the bottleneck as soon as they arrive.
    case unlimited
    /// A Mahimahi packet-delivery trace: one MTU piece per delivery opportunity.
    case trace(MahimahiTrace)
}

/// Variation added to the base delay of each piece.
public struct JitterProfile: Sendable, Hashable {
    /// The bound of the variation: ± this for uniform and normal, 0 … this for Pareto.
    public var amount: Duration
    /// The shape of the samples.
    public var distribution: JitterDistribution
    /// How much of each sample carries over from the previous one of the same connection and
    /// direction (0 ..< 1): `next = c × previous + (1 − c) × fresh`, as netem does.
    public var correlation: Double

    /// Jitter of up to `amount`; uniform and uncorrelated by default.
    public init(amount: Duration, distribution: JitterDistribution = .uniform, correlation: Double = 0) {
        self.amount = amount
        self.distribution = distribution
        self.correlation = correlation
    }

    /// No jitter.
    public static let none = JitterProfile(amount: .zero)
}

/// The shape of jitter samples.
public enum JitterDistribution: String, Sendable, Hashable, CaseIterable {
    /// Uniform within ± amount.
    case uniform
    /// Normal with σ = amount / 3, cut off at ± amount.
    case normal
    /// Pareto (Lomax, shape 1.5, scale amount / 10): mostly small, a long tail up to + amount.
    case pareto
}

/// Loss as TCP feels it: a lost piece stalls its connection and direction for a retransmission
/// timeout, then goes again. Bytes are delayed, never dropped.
public struct LossProfile: Sendable, Hashable {
    /// The long-run fraction of pieces lost (0 … 1).
    public var rate: Double
    /// The mean length of a fade, during which every piece is lost; nil: pieces are lost
    /// independently. Fades are intervals of time on the device's radio (a Gilbert–Elliott
    /// chain over time), so a retransmission's fate depends on when it is sent.
    public var burst: Duration?
    /// The floor of the retransmission timeout (RFC 6298 §2.4: 1 s); above it the timeout
    /// follows the connection's measured round trips, doubles on each repeated loss, up to
    /// ``maximumRTO``.
    public var rto: Duration
    /// The longest stall repeated losses double up to.
    public var maximumRTO: Duration

    /// Loss at `rate` (0 … 1) in fades of mean length `burst` (nil: independent), with an RTO
    /// floor of 1 s doubling up to 60 s, by default.
    public init(rate: Double, burst: Duration? = nil, rto: Duration = .seconds(1), maximumRTO: Duration = .seconds(60)) {
        self.rate = rate
        self.burst = burst
        self.rto = rto
        self.maximumRTO = maximumRTO
    }

    /// No loss.
    public static let none = LossProfile(rate: 0)
}

/// The radio's wake-up: after `idle` without traffic the next piece (or connect) waits `delay`.
public struct WakeUpProfile: Sendable, Hashable {
    /// How long the link must be idle before the radio sleeps.
    public var idle: Duration
    /// The wake-up delay, drawn uniformly from the range for each wake-up.
    public var delay: ClosedRange<Duration>

    /// A radio that sleeps after `idle` and takes `delay` to wake.
    public init(idle: Duration, delay: ClosedRange<Duration>) {
        self.idle = idle
        self.delay = delay
    }
}

/// A schedule of periods when nothing moves in either direction; connections stay open.
public struct OutageProfile: Sendable, Hashable {
    /// What the outage stands for; it does not change the effect.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Lost coverage: a tunnel, a lift, a dead zone.
        case blackout
        /// A cell change (2G↔3G) cutting data for seconds.
        case handover
    }

    /// What the outage stands for.
    public var kind: Kind
    /// When the first outage begins (drawn uniformly from the range).
    public var start: ClosedRange<Duration>
    /// How long each lasts (drawn for each); nil means it never ends.
    public var duration: ClosedRange<Duration>?
    /// The time from one outage's start to the next one's (drawn for each); nil for a single one.
    public var every: ClosedRange<Duration>?
    /// Whether the device comes back with another address, and how its open flows die then:
    /// every connection open when the outage starts is lost, silently or with a reset; nil:
    /// the address stays and connections live on.
    public var newAddress: FlowDeath?

    /// An outage schedule; a single one (no `every`) of a blackout by default.
    public init(kind: Kind = .blackout, start: ClosedRange<Duration>, duration: ClosedRange<Duration>?, every: ClosedRange<Duration>? = nil, newAddress: FlowDeath? = nil) {
        self.kind = kind
        self.start = start
        self.duration = duration
        self.every = every
        self.newAddress = newAddress
    }
}

/// How a flow the network forgot dies.
public enum FlowDeath: String, Sendable, Hashable, CaseIterable {
    /// Its packets vanish: no RST either way; each side retransmits into nothing until its own
    /// timeout (a keepalive, a heartbeat) gives up.
    case silent
    /// Both ends get a reset at the next packet.
    case reset
}

/// A carrier-grade NAT (or stateful firewall) between the device and the Internet: a TCP flow
/// that carried nothing for `idleTimeout` loses its binding, and dies as `onExpiry` says the
/// next time either side sends, while other flows and new ones work.
public struct NATProfile: Sendable, Hashable {
    /// How long a flow may carry nothing before the NAT forgets it.
    public var idleTimeout: Duration
    /// How a forgotten flow dies.
    public var onExpiry: FlowDeath

    /// A NAT forgetting flows idle for `idleTimeout`, silently by default.
    public init(idleTimeout: Duration, onExpiry: FlowDeath = .silent) {
        self.idleTimeout = idleTimeout
        self.onExpiry = onExpiry
    }
}

/// Name resolution on the device's network (Network Link Conditioner's "High Latency DNS").
public struct DNSProfile: Sendable, Hashable {
    /// Added before each lookup's answer (drawn uniformly for each).
    public var delay: ClosedRange<Duration>
    /// The chance (0 … 1) that a lookup fails: the name does not resolve.
    public var failure: Double

    /// A model adding `delay` to every lookup and failing it with the chance `failure`.
    public init(delay: ClosedRange<Duration> = .zero ... .zero, failure: Double = 0) {
        self.delay = delay
        self.failure = failure
    }

    /// One lookup's delay and fate, drawn from `generator` with the shaper's own draws (so a
    /// toolchain's `random(in:)` never shifts them).
    public func lookup(using generator: inout SeededGenerator) -> (delay: Duration, fails: Bool) {
        let delay = Duration.nanoseconds(generator.uniform(in: delay))
        return (delay, generator.chance(failure))
    }
}

/// Connections the network aborts after a random amount of time or bytes.
public struct ResetProfile: Sendable, Hashable {
    /// The chance that a given connection is reset at all (0 … 1).
    public var probability: Double
    /// Its lifetime, drawn at open; nil for no time limit.
    public var afterTime: ClosedRange<Duration>?
    /// The bytes it delivers (both directions together) before the reset; nil for no limit.
    public var afterBytes: ClosedRange<Int>?

    /// Resets of every connection (probability 1) by default; give a time or a byte limit, or both.
    public init(probability: Double = 1, afterTime: ClosedRange<Duration>? = nil, afterBytes: ClosedRange<Int>? = nil) {
        self.probability = probability
        self.afterTime = afterTime
        self.afterBytes = afterBytes
    }
}

/// Figures that change over time: segments played in order from time zero, optionally looping.
/// When a timeline that does not loop ends, the base figures apply again.
public struct ProfileTimeline: Sendable, Hashable {
    /// Whether the segments start again from the first after the last.
    public var loops: Bool
    /// The segments, in the order they are played.
    public var segments: [ProfileSegment]

    /// A timeline of `segments`, played once or in a loop.
    public init(loops: Bool, segments: [ProfileSegment]) {
        self.loops = loops
        self.segments = segments
    }
}

/// One stretch of a timeline: the link figures in force during it (the queue stays the base one).
public struct ProfileSegment: Sendable, Hashable {
    /// The segment's name in traces and reports, if the file gives one.
    public var name: String?
    /// How long the segment lasts.
    public var duration: Duration
    /// The server → client figures during the segment.
    public var downlink: LinkProfile
    /// The client → server figures during the segment.
    public var uplink: LinkProfile

    /// A segment of `duration` with the given figures.
    public init(name: String? = nil, duration: Duration, downlink: LinkProfile, uplink: LinkProfile) {
        self.name = name
        self.duration = duration
        self.downlink = downlink
        self.uplink = uplink
    }

    /// The figures of the link carrying `direction`'s bytes during the segment.
    public func link(_ direction: Direction) -> LinkProfile {
        direction == .downstream ? downlink : uplink
    }
}

/// Where a figure comes from.
public struct ProfileSource: Sendable, Hashable {
    /// The figure's path in the file: `downlink.rate`, `outages[0]`, `timeline.segments[1].downlink`;
    /// empty for a `source:` at the top, which covers the whole file.
    public var key: String
    /// The citation, as written in the file.
    public var text: String

    /// The citation `text` of the figure at `key`.
    public init(key: String, text: String) {
        self.key = key
        self.text = text
    }
}
