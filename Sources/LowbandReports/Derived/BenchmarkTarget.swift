/// A figure a benchmark kit promises, checked against a report.
///
/// A target matches rows of a report (a suite, a metric, benchmarks with a given ending, minus
/// any with an excluded beginning) and turns each match into a row of the suite `targets`:
/// benchmark `<name>/<matched benchmark>`, metric `attainment`, unit `x` — measured over goal for
/// an "at least" target, goal over measured for an "at most" one. At 1 or above the target is
/// met; 0.52 means the figure reached 52 % of the goal, i.e. missed it by 48 %. So a missed
/// target is visible in the CSV itself, and `lowband compare` gates the attainment like any
/// other ratio.
///
/// ```swift
/// BenchmarkTarget(
///     name: "cold-start-3x-raw-query", promise: "cold start to first screen <= 3x the raw SQLite query",
///     suite: "startup", benchmarkSuffix: "cold-start", metric: "engine_vs_raw_query",
///     comparison: .atMost, goal: 3
/// )
/// ```
public struct BenchmarkTarget: Sendable, Hashable {
    /// Which side of the goal meets the target: `atLeast` (`>=`) or `atMost` (`<=`).
    public enum Comparison: String, Sendable, Hashable {
        case atLeast = ">="
        case atMost = "<="
    }

    /// Short name, unique among all targets, e.g. `codable-3x-json`: the `targets` rows' first
    /// benchmark component.
    public var name: String
    /// What it promises, for the table.
    public var promise: String
    /// Why the goal is what it is (an issue, a measured figure); empty when the promise says it.
    public var reason: String
    /// The suite of the rows it judges.
    public var suite: String
    /// Matched benchmarks end with this (`""` matches all in the suite).
    public var benchmarkSuffix: String
    /// Matched benchmarks do not begin with any of these (the perfect profile is not "shaped").
    public var excludedPrefixes: [String]
    /// The metric of the rows it judges.
    public var metric: String
    /// Which statistic of a row it reads; p50 by default.
    public var statistic: BenchmarkRow.Statistic
    /// Whether the figure must be at least or at most `goal`.
    public var comparison: Comparison
    /// The figure promised, in the rows' unit.
    public var goal: Double

    /// A target; by default it has no reason, excludes nothing and reads the p50.
    public init(
        name: String, promise: String, reason: String = "", suite: String, benchmarkSuffix: String, excludedPrefixes: [String] = [],
        metric: String, statistic: BenchmarkRow.Statistic = .p50, comparison: Comparison, goal: Double
    ) {
        self.name = name
        self.promise = promise
        self.reason = reason
        self.suite = suite
        self.benchmarkSuffix = benchmarkSuffix
        self.excludedPrefixes = excludedPrefixes
        self.metric = metric
        self.statistic = statistic
        self.comparison = comparison
        self.goal = goal
    }

    /// One target checked against one row.
    public struct Outcome: Sendable, Hashable {
        /// The target checked.
        public var target: BenchmarkTarget
        /// The matched row's benchmark.
        public var benchmark: String
        /// The row's figure, the target's statistic.
        public var measured: Double
        /// Measured over goal ("at least") or goal over measured ("at most"); >= 1 is met.
        public var attainment: Double
        /// True when the attainment is 1 or more.
        public var met: Bool { attainment >= 1 }
    }

    /// Whether `row` is one this target judges.
    public func matches(_ row: BenchmarkRow) -> Bool {
        row.suite == suite && row.metric == metric && row.benchmark.hasSuffix(benchmarkSuffix)
            && !excludedPrefixes.contains { row.benchmark.hasPrefix($0) }
    }

    /// Every target matched against `rows`, in the order of `targets`, then of `rows`.
    public static func evaluate(_ targets: [BenchmarkTarget], rows: [BenchmarkRow]) -> [Outcome] {
        var outcomes: [Outcome] = []
        for target in targets {
            for row in rows where target.matches(row) {
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
}
