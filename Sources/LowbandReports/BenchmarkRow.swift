import LowbandBasics

/// One row of a benchmark report: one benchmark's one metric, summarised over its samples, with
/// where and when it was measured.
///
/// This is the one schema every `lowband` benchmark writes and `lowband compare` reads; the
/// columns are documented in docs/BENCHMARKS.md. Units are free text, but they decide how a
/// metric is compared: see ``MetricDirection`` and ``MetricGate``.
public struct BenchmarkRow: Sendable, Hashable {
    /// The group of benchmarks, e.g. `startup` or `codec`.
    public var suite: String
    /// The benchmark inside the suite, e.g. `login-reply-decode`.
    public var benchmark: String
    /// What was measured, e.g. `wall_clock`, `allocations`, `encoded_bytes`.
    public var metric: String
    /// The unit of the five statistics, e.g. `ms`, `bytes`, `count`, `MB/s`, `x`.
    public var unit: String
    /// The median of the samples, in `unit`.
    public var p50: Double
    /// The 90th percentile of the samples, in `unit`.
    public var p90: Double
    /// The 99th percentile of the samples, in `unit`.
    public var p99: Double
    /// The smallest sample, in `unit`.
    public var min: Double
    /// The largest sample, in `unit`.
    public var max: Double
    /// How many samples the statistics summarise (1 for a figure measured once).
    public var samples: Int
    /// The short git commit the binary was built from, or `unknown`; empty when a report from
    /// another program does not say.
    public var commit: String
    /// The Swift compiler that built the binary, see ``RunEnvironment/swiftVersion``; empty when
    /// not recorded (a report from a program not written in Swift).
    public var swiftVersion: String
    /// The machine the benchmark ran on (empty when not recorded).
    public var host: String
    /// When the run started, ISO-8601 in UTC (`2025-01-31T12:00:00Z`); empty when not recorded.
    public var timestamp: String
    /// The command that measured it (`lowband run --scenario crowd …`); empty when not known
    /// (reports written before the column existed, other programs' reports).
    public var command: String
    /// Lowband's own commit (the `lowband_commit` column); ``commit`` is the measured code's.
    /// Empty in reports written before the column existed.
    public var lowbandCommit: String
    /// The raw samples the statistics summarise, in the row's unit, when the report keeps them
    /// (a `.samples.csv` file next to the report, see ``BenchmarkCSV``); nil otherwise. With
    /// samples on both sides `lowband compare` tests a timing row statistically instead of by
    /// threshold.
    public var sampleValues: [Double]?

    /// Which statistic of a row to read, as `lowband compare --metric-column` names it: `p50`,
    /// `p90`, `p99`, `min` or `max`.
    public enum Statistic: String, Sendable, CaseIterable {
        case p50, p90, p99, min, max
    }

    /// A row with every column given; `command` defaults to empty (not known).
    public init(
        suite: String,
        benchmark: String,
        metric: String,
        unit: String,
        p50: Double,
        p90: Double,
        p99: Double,
        min: Double,
        max: Double,
        samples: Int,
        commit: String,
        swiftVersion: String,
        host: String,
        timestamp: String,
        command: String = "",
        sampleValues: [Double]? = nil,
        lowbandCommit: String = ""
    ) {
        self.lowbandCommit = lowbandCommit
        self.suite = suite
        self.benchmark = benchmark
        self.metric = metric
        self.unit = unit
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.min = min
        self.max = max
        self.samples = samples
        self.commit = commit
        self.swiftVersion = swiftVersion
        self.host = host
        self.timestamp = timestamp
        self.command = command
        self.sampleValues = sampleValues
    }

    /// A row for samples of one metric, with the environment columns taken from `environment`.
    ///
    /// The percentiles are nearest-rank (LowbandBasics' `Percentile`, the definition `lowband
    /// run`'s metrics use too, so a metric and its CSV row can never disagree). Precondition:
    /// `samples` is not empty.
    public init(suite: String, benchmark: String, metric: String, unit: String, samples values: [Double], environment: RunEnvironment) {
        guard let summary = PercentileSummary(values) else {
            preconditionFailure("a benchmark row needs at least one sample")
        }
        self.init(
            suite: suite, benchmark: benchmark, metric: metric, unit: unit,
            p50: summary.p50, p90: summary.p90, p99: summary.p99,
            min: summary.min, max: summary.max, samples: summary.samples,
            commit: environment.commit, swiftVersion: environment.swiftVersion,
            host: environment.host, timestamp: environment.timestamp, command: environment.command,
            lowbandCommit: environment.lowbandCommit
        )
    }

    /// A row for a figure measured once (a byte count, a ratio): every statistic is `value`.
    public init(suite: String, benchmark: String, metric: String, unit: String, value: Double, environment: RunEnvironment) {
        self.init(suite: suite, benchmark: benchmark, metric: metric, unit: unit, samples: [value], environment: environment)
    }

    /// The statistic `statistic` of this row.
    public func value(of statistic: Statistic) -> Double {
        switch statistic {
        case .p50: p50
        case .p90: p90
        case .p99: p99
        case .min: min
        case .max: max
        }
    }

    /// What `lowband compare` joins rows on: one row per suite, benchmark and metric.
    public struct Key: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The row's suite.
        public var suite: String
        /// The row's benchmark.
        public var benchmark: String
        /// The row's metric.
        public var metric: String

        /// The key of the row with these three columns.
        public init(suite: String, benchmark: String, metric: String) {
            self.suite = suite
            self.benchmark = benchmark
            self.metric = metric
        }

        public var description: String { "\(suite)/\(benchmark) \(metric)" }

        /// Orders by suite, then benchmark, then metric, as reports list rows.
        public static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.suite, lhs.benchmark, lhs.metric) < (rhs.suite, rhs.benchmark, rhs.metric)
        }
    }

    /// The row's suite, benchmark and metric: what `lowband compare` joins rows on.
    public var key: Key { Key(suite: suite, benchmark: benchmark, metric: metric) }
}
