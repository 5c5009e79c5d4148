public import LowbandReports

/// The figures issue 5 promises, checked against a report.
///
/// Each target matches rows of a report (a suite, a metric, benchmarks with a given ending) and
/// turns each match into a row of the suite `targets`: benchmark `<target>/<matched benchmark>`,
/// metric `attainment`, unit `x` — measured over goal for an "at least" target, goal over
/// measured for an "at most" one. At 1 or above the target is met; 0.52 means the figure reached
/// 52 % of the goal, i.e. missed it by 48 %. So a missed target is visible in the CSV itself, and
/// `lowband compare` gates the attainment like any other ratio.
public struct BenchmarkTarget: Sendable, Hashable {
    public enum Comparison: String, Sendable, Hashable {
        case atLeast = ">="
        case atMost = "<="
    }

    /// Short name, e.g. `codable-3x-json`.
    public var name: String
    /// What it promises, for the table.
    public var promise: String
    public var suite: String
    /// Matched benchmarks end with this (`""` matches all in the suite).
    public var benchmarkSuffix: String
    public var metric: String
    public var statistic: BenchmarkRow.Statistic
    public var comparison: Comparison
    public var goal: Double

    public init(name: String, promise: String, suite: String, benchmarkSuffix: String, metric: String, statistic: BenchmarkRow.Statistic = .p50, comparison: Comparison, goal: Double) {
        self.name = name
        self.promise = promise
        self.suite = suite
        self.benchmarkSuffix = benchmarkSuffix
        self.metric = metric
        self.statistic = statistic
        self.comparison = comparison
        self.goal = goal
    }

    /// The targets of docs/BENCHMARKS.md, in the order the README lists them.
    public static let all: [BenchmarkTarget] = [
        BenchmarkTarget(name: "codable-3x-json", promise: "MessagePack Codable encode+decode >= 3x faster than JSON", suite: "codec", benchmarkSuffix: "/msgpack-codable", metric: "speedup_vs_json", comparison: .atLeast, goal: 3),
        BenchmarkTarget(name: "fast-path-10x-json", promise: "MessagePack fast path encode+decode >= 10x faster than JSON", suite: "codec", benchmarkSuffix: "/msgpack-fast", metric: "speedup_vs_json", comparison: .atLeast, goal: 10),
        BenchmarkTarget(name: "msgpack-0.7x-json-bytes", promise: "MessagePack bytes <= 0.7x JSON bytes", suite: "codec", benchmarkSuffix: "/msgpack-codable", metric: "bytes_vs_json", comparison: .atMost, goal: 0.7),
        // Issue 13: wire format v2 and the fast path frames use, against protobuf on each fixture.
        BenchmarkTarget(name: "msgpack-v2-bytes-le-protobuf", promise: "MessagePack v2 bytes <= protobuf's bytes", suite: "codec", benchmarkSuffix: "/msgpack-fast", metric: "bytes_vs_protobuf", comparison: .atMost, goal: 1),
        BenchmarkTarget(name: "msgpack-v2-lz4-le-protobuf", promise: "LZ4(MessagePack v2) <= LZ4(protobuf)", suite: "codec", benchmarkSuffix: "/msgpack-fast", metric: "lz4_bytes_vs_protobuf", comparison: .atMost, goal: 1),
        BenchmarkTarget(name: "fast-path-1.5x-protobuf", promise: "MessagePack fast path encode+decode >= 1.5x protobuf's speed", suite: "codec", benchmarkSuffix: "/msgpack-fast", metric: "speedup_vs_protobuf", comparison: .atLeast, goal: 1.5),
        BenchmarkTarget(name: "lz4-compress-within-5pct-of-cli", promise: "our LZ4 compresses within 5% of lz4 -b's speed", suite: "compression", benchmarkSuffix: "/lz4-a1", metric: "compress_speedup_vs_lz4_cli", comparison: .atLeast, goal: 0.95),
        BenchmarkTarget(name: "lz4-decompress-within-5pct-of-cli", promise: "our LZ4 decompresses within 5% of lz4 -b's speed", suite: "compression", benchmarkSuffix: "/lz4-a1", metric: "decompress_speedup_vs_lz4_cli", comparison: .atLeast, goal: 0.95),
        BenchmarkTarget(name: "hand-wiring-20x-container", promise: "hand wiring >= 20x faster than Swinject on the same graph", suite: "startup", benchmarkSuffix: "", metric: "hand_speedup_vs_container", comparison: .atLeast, goal: 20),
        // Growth is judged on instructions: a 10x larger graph no longer fits the same caches, and on
        // a shared machine its wall-clock growth moves between 10x and 16x from run to run.
        BenchmarkTarget(name: "hand-wiring-linear", promise: "hand wiring grows linearly: 1000 services <= 12x the instructions of 100", suite: "startup", benchmarkSuffix: "synthetic/hand", metric: "instructions_growth_100_to_1000", comparison: .atMost, goal: 12),
        BenchmarkTarget(name: "cold-start-3x-raw-query", promise: "cold start to first screen <= 3x the raw SQLite query", suite: "startup", benchmarkSuffix: "cold-start", metric: "engine_vs_raw_query", comparison: .atMost, goal: 3),
        BenchmarkTarget(name: "push-perfect-p99-1ms", promise: "push-to-visible on the perfect profile: p99 < 1 ms", suite: "push-to-visible", benchmarkSuffix: "perfect/push-to-visible", metric: "wall_clock", statistic: .p99, comparison: .atMost, goal: 1000),
        // Issue 10: an explorer is only useful when a sweep of a thousand seeds fits a coffee break.
        BenchmarkTarget(name: "explore-1000-seeds-10min", promise: "lowband explore: 1,000 seeds of a 5-client, 10-minute EDGE crowd with swarm faults in <= 10 minutes", suite: "explore.crowd", benchmarkSuffix: "edge", metric: "seconds_per_1000_seeds", comparison: .atMost, goal: 600),
        BenchmarkTarget(name: "push-shaped-p50-1.1x-floor", promise: "push-to-visible on a shaped profile: p50 <= 1.1x the physical floor", suite: "push-to-visible", benchmarkSuffix: "/push-to-visible", metric: "p50_vs_floor", comparison: .atMost, goal: 1.1),
    ]

    /// One target checked against one row.
    public struct Outcome: Sendable, Hashable {
        public var target: BenchmarkTarget
        public var benchmark: String
        public var measured: Double
        /// Measured over goal ("at least") or goal over measured ("at most"); >= 1 is met.
        public var attainment: Double
        public var met: Bool { attainment >= 1 }
    }

    /// Every target matched against `rows`. The perfect profile is not "shaped", so the floor
    /// target skips it.
    public static func evaluate(_ targets: [BenchmarkTarget] = all, rows: [BenchmarkRow]) -> [Outcome] {
        var outcomes: [Outcome] = []
        for target in targets {
            for row in rows where row.suite == target.suite && row.metric == target.metric && row.benchmark.hasSuffix(target.benchmarkSuffix) {
                if target.name == "push-shaped-p50-1.1x-floor", row.benchmark.hasPrefix("perfect/") { continue }
                let measured = row.value(of: target.statistic)
                let attainment: Double
                switch target.comparison {
                case .atLeast: attainment = target.goal == 0 ? .infinity : measured / target.goal
                case .atMost: attainment = measured == 0 ? .infinity : target.goal / measured
                }
                outcomes.append(Outcome(target: target, benchmark: row.benchmark, measured: measured, attainment: attainment))
            }
        }
        return outcomes
    }

    /// The outcomes as `targets` rows of the report (infinite attainments are capped at 1000).
    public static func rows(_ outcomes: [Outcome], environment: RunEnvironment) -> [BenchmarkRow] {
        outcomes.map { outcome in
            BenchmarkRow(
                suite: "targets", benchmark: "\(outcome.target.name)/\(outcome.benchmark)", metric: "attainment", unit: "x",
                value: Swift.min(outcome.attainment, 1000), environment: environment
            )
        }
    }

    /// The readable table of outcomes: goal, measured, attainment and verdict.
    public static func table(_ outcomes: [Outcome]) -> String {
        var table = TextTable(
            headers: ["target", "benchmark", "goal", "measured", "attainment", "verdict"],
            alignments: [.left, .left, .right, .right, .right, .left]
        )
        for outcome in outcomes {
            let verdict = outcome.met ? "met" : "MISSED by \(TextTable.number(((1 - outcome.attainment) * 1000).rounded() / 10))%"
            table.rows.append([
                outcome.target.name, outcome.benchmark,
                "\(outcome.target.comparison.rawValue) \(TextTable.number(outcome.target.goal))",
                TextTable.number((outcome.measured * 1000).rounded() / 1000),
                TextTable.number((outcome.attainment * 1000).rounded() / 1000), verdict,
            ])
        }
        return table.rendered()
    }
}
