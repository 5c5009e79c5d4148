package import LowbandBasics
package import LowbandFindings

/// What one `lowband run` measured on one network profile: its figures, the bytes it moved over
/// time and the timeline of network and connection events.
///
/// This is the seam between the scenarios (which fill it), the CSV and the summary table of
/// `lowband run`, and the HTML report (which draws it). A run over several profiles
/// (`--profiles gprs,edge,3g`) produces one record per profile.
package struct RunRecord: Sendable, Hashable, Codable {
    /// The scenario's name, e.g. `push-to-visible`.
    package var scenario: String
    /// The profile's name (or the file it was read from).
    package var profile: String
    /// The seed every random decision of the run derives from.
    package var seed: UInt64
    /// Client engines in the run.
    package var clients: Int
    /// True when the run used the simulated clock and in-memory transport.
    package var virtualTime: Bool
    /// The exact command line that reproduces this run.
    package var command: String
    /// How long the run lasted on its own clock (virtual seconds with `--virtual-time`).
    package var durationSeconds: Double
    /// True when the run was stopped early (Ctrl-C): the figures are what was measured so far.
    package var partial: Bool
    /// The physical floor of one push on this profile, in milliseconds: the least time the profile
    /// allows (one-way delay less the jitter below it where that is bounded, plus the smallest push
    /// frame's bytes at the bottleneck rate; docs/RUN.md). `nil` when the scenario has no single
    /// push size.
    package var floorMilliseconds: Double?
    /// The time the profile implies for the median push, in milliseconds (delay plus the median
    /// jitter plus the median push frame's bytes at the bottleneck rate): what p50 is compared
    /// with. `nil` with no floor, or when the profile's figures change over time.
    package var medianMilliseconds: Double?
    /// Samples of the main latency below their push's floor: zero unless the measurement or the
    /// network model is wrong. `nil` with no floor.
    package var samplesBelowFloor: Int?
    /// The figures, in the order the scenario reports them.
    package var metrics: [RunMetric]
    /// Bytes moved per time bucket, both directions, from the start of the run.
    package var traffic: [TrafficBucket]
    /// Outages, disconnects, reconnects and other events worth a mark on the timeline.
    package var timeline: [TimelineEvent]
    /// The messenger's promises checked at the end of the run, in a fixed order.
    package var invariants: [InvariantCheck]
    /// Every broken promise, in time order (at most ``maximumViolations`` of each invariant
    /// kept, so one flood does not hide the others; the counts in ``invariants`` are complete).
    package var violations: [InvariantViolation]
    /// Where the time of delivered messages went: one metric per ``LatencyStage``
    /// (`stage.<name>`, ms, one sample per delivery), and `stage.total`.
    package var stages: [RunMetric]
    /// The slowest deliveries with their stages, slowest first (at most 20).
    package var slowest: [MessageBreakdown]
    /// The bounds the checks used, seconds: how long a member may take to get a message, and
    /// an outbox task to be sent, while online (docs/EXPLORE.md).
    package var settleSeconds: Double?
    /// See ``settleSeconds``.
    package var livenessSeconds: Double?
    /// What happened after the traffic (``durationSeconds``): how long the run drained and
    /// whether it settled; nil when it ended with its traffic (`--no-drain`, a stop, older records).
    package var drain: RunDrain?

    /// Where the run's clock stopped: the traffic's end plus the drain.
    package var endSeconds: Double { durationSeconds + (drain?.seconds ?? 0) }

    /// Violations of one invariant kept in a record; the rest are counted only (the promise
    /// book's own bound).
    package static let maximumViolations = PromiseBook.defaultKeep

    /// True when some promise was broken.
    package var hasViolations: Bool { invariants.contains { $0.violations > 0 } }

    /// A record; the checks, stages and slowest deliveries default to none and the bounds to nil.
    package init(
        scenario: String, profile: String, seed: UInt64, clients: Int, virtualTime: Bool,
        command: String, durationSeconds: Double, partial: Bool, floorMilliseconds: Double?,
        metrics: [RunMetric], traffic: [TrafficBucket], timeline: [TimelineEvent],
        invariants: [InvariantCheck] = [], violations: [InvariantViolation] = [],
        stages: [RunMetric] = [], slowest: [MessageBreakdown] = []
    ) {
        self.scenario = scenario
        self.profile = profile
        self.seed = seed
        self.clients = clients
        self.virtualTime = virtualTime
        self.command = command
        self.durationSeconds = durationSeconds
        self.partial = partial
        self.floorMilliseconds = floorMilliseconds
        self.metrics = metrics
        self.traffic = traffic
        self.timeline = timeline
        self.invariants = invariants
        self.violations = violations
        self.stages = stages
        self.slowest = slowest
    }

    private enum CodingKeys: String, CodingKey {
        case scenario, profile, seed, clients, virtualTime, command, durationSeconds, partial, floorMilliseconds, medianMilliseconds, samplesBelowFloor
        case metrics, traffic, timeline, invariants, violations, stages, slowest, settleSeconds, livenessSeconds, drain
    }

    /// Reads records written before the checks existed too (their lists are empty).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        scenario = try container.decode(String.self, forKey: .scenario)
        profile = try container.decode(String.self, forKey: .profile)
        seed = try container.decode(UInt64.self, forKey: .seed)
        clients = try container.decode(Int.self, forKey: .clients)
        virtualTime = try container.decode(Bool.self, forKey: .virtualTime)
        command = try container.decode(String.self, forKey: .command)
        durationSeconds = try container.decode(Double.self, forKey: .durationSeconds)
        partial = try container.decode(Bool.self, forKey: .partial)
        floorMilliseconds = try container.decodeIfPresent(Double.self, forKey: .floorMilliseconds)
        medianMilliseconds = try container.decodeIfPresent(Double.self, forKey: .medianMilliseconds)
        samplesBelowFloor = try container.decodeIfPresent(Int.self, forKey: .samplesBelowFloor)
        metrics = try container.decode([RunMetric].self, forKey: .metrics)
        traffic = try container.decode([TrafficBucket].self, forKey: .traffic)
        timeline = try container.decode([TimelineEvent].self, forKey: .timeline)
        invariants = try container.decodeIfPresent([InvariantCheck].self, forKey: .invariants) ?? []
        violations = try container.decodeIfPresent([InvariantViolation].self, forKey: .violations) ?? []
        stages = try container.decodeIfPresent([RunMetric].self, forKey: .stages) ?? []
        slowest = try container.decodeIfPresent([MessageBreakdown].self, forKey: .slowest) ?? []
        settleSeconds = try container.decodeIfPresent(Double.self, forKey: .settleSeconds)
        livenessSeconds = try container.decodeIfPresent(Double.self, forKey: .livenessSeconds)
        drain = try container.decodeIfPresent(RunDrain.self, forKey: .drain)
    }

    /// The metric named `name`, if the scenario reported it.
    package func metric(named name: String) -> RunMetric? {
        metrics.first { $0.name == name }
    }
}

/// A run's drain phase (docs/RUN.md, "The drain"): after its traffic, no new sends and the
/// network healed, until nothing was in flight or the settle bound passed.
package struct RunDrain: Sendable, Hashable, Codable {
    /// How long it drained, seconds on the run's clock.
    package var seconds: Double
    /// True when nothing was left in flight (the checks took that state as final); false when
    /// the bound passed first.
    package var settled: Bool
    /// The instant the checks judged at: the end of the run, or for a settled run the settled
    /// instant plus the settle time.
    package var judgedUntilSeconds: Double

    /// A drain of `seconds`.
    package init(seconds: Double, settled: Bool, judgedUntilSeconds: Double) {
        self.seconds = seconds
        self.settled = settled
        self.judgedUntilSeconds = judgedUntilSeconds
    }

    /// `drained 2.0 s until nothing was in flight; promises judged as of 209.0 s (the state
    /// then is final)` or `drained 147.0 s to the bound without settling`.
    package var words: String {
        let time = String(format: "%.1f s", seconds)
        return settled
            ? "drained \(time) until nothing was in flight; promises judged as of \(String(format: "%.1f s", judgedUntilSeconds)) (the state then is final)"
            : "drained \(time) to the bound without settling"
    }
}

/// One figure of a run: every sample of it, in the order measured.
///
/// A count measured once (messages delivered, reconnects) is a metric with one sample.
package struct RunMetric: Sendable, Hashable, Codable {
    /// snake_case, e.g. `push_to_visible`, `outbox_drain`, `bytes_down`, `reconnects`.
    package var name: String
    /// `ms`, `s`, `bytes`, `count`, `x`, … as in the benchmark CSV schema (docs/BENCHMARKS.md).
    package var unit: String
    /// Every sample, in `unit`, in the order measured.
    package var values: [Double]
    /// When each sample's interval began, seconds from the start of the run, parallel to
    /// ``values``; nil when the scenario did not record it (counts, older records). The report
    /// plots latency over time from it, over the outages.
    package var startSeconds: [Double]?

    /// A metric; `startSeconds`, when given, has one entry per value.
    package init(name: String, unit: String, values: [Double], startSeconds: [Double]? = nil) {
        self.name = name
        self.unit = unit
        self.values = values
        self.startSeconds = startSeconds
    }

    /// Nearest-rank percentiles (LowbandBasics' `Percentile`), the definition of every report, benchmark and
    /// gate. `nil` without samples.
    package var summary: RunSummary? {
        PercentileSummary(values)
    }
}

/// The statistics of a ``RunMetric``: LowbandBasics' `PercentileSummary` (nearest rank).
package typealias RunSummary = PercentileSummary

/// Bytes moved in one time bucket of a run. Up is client to server, down is server to client,
/// counted where the scenario's network counts them (the proxy, or the in-memory link).
package struct TrafficBucket: Sendable, Hashable, Codable {
    /// When the bucket begins, seconds from the start of the run.
    package var startSeconds: Double
    /// Bytes from client to server in the bucket.
    package var upBytes: Int
    /// Bytes from server to client in the bucket.
    package var downBytes: Int

    /// The bucket starting at `startSeconds`.
    package init(startSeconds: Double, upBytes: Int, downBytes: Int) {
        self.startSeconds = startSeconds
        self.upBytes = upBytes
        self.downBytes = downBytes
    }
}

/// An event on a run's timeline.
package struct TimelineEvent: Sendable, Hashable, Codable {
    /// What kind of event it is.
    package enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The network went away (a scheduled outage or blackout began).
        case outageStart = "outage_start"
        /// The network came back.
        case outageEnd = "outage_end"
        /// A client lost its connection.
        case disconnect
        /// A client connected again after losing its connection.
        case reconnect
        /// Anything else worth a mark: a phase of the scenario began, a burst was sent.
        case note
        /// The device's radio entered a power state (`detail`: its name, or `promoting (from
        /// NAME)`); it stays there until the next such event. Drawn as the timeline's radio lane.
        case radio
    }

    /// When it happened, seconds from the start of the run.
    package var seconds: Double
    /// What kind of event it is.
    package var kind: Kind
    /// The client it happened to, if it happened to one (0-based).
    package var client: Int?
    /// Words for the mark, e.g. which outage or phase; may be empty.
    package var detail: String

    /// An event at `seconds`; it concerns no single client and has no detail by default.
    package init(seconds: Double, kind: Kind, client: Int? = nil, detail: String = "") {
        self.seconds = seconds
        self.kind = kind
        self.client = client
        self.detail = detail
    }
}
