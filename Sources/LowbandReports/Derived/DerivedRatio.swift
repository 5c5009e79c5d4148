/// A figure computed from other rows of the same run, declared by the benchmark kit that
/// measures them: one row per benchmark it applies to, one sample each.
///
/// Comparisons are only fair within one run on one machine, so a ratio is always computed from
/// rows of the report it is added to, never against a committed number. `terms` looks the
/// numerator and the denominator up for each benchmark; a term with a missing half, a
/// denominator that is not positive or a result that is not finite gives no row (a suite that
/// did not run adds nothing).
///
/// ```swift
/// DerivedRatio(
///     suite: "startup", metric: "engine_vs_raw_query", direction: .lowerIsBetter,
///     summary: "cold start to the first screen over the raw SQLite query"
/// ) { report in
///     [.init(benchmark: "cold-start",
///            numerator: report.value("startup", "cold-start/engine", "wall_clock"),
///            denominator: report.value("startup", "cold-start/raw-sqlite", "wall_clock"))]
/// }
/// ```
///
/// `lowband compare` judges a row's direction from its metric name and unit
/// (``MetricDirection``); `direction` states it, and a kit's tests check the two agree.
public struct DerivedRatio: Sendable {
    /// One benchmark's numerator and denominator.
    public struct Term: Sendable, Hashable {
        /// The derived row's benchmark, e.g. `login-reply-50/msgpack-fast`.
        public var benchmark: String
        /// The numerator; nil when its row is missing from the report.
        public var numerator: Double?
        /// The denominator; nil when its row is missing from the report.
        public var denominator: Double?

        /// The term of `benchmark`.
        public init(benchmark: String, numerator: Double?, denominator: Double?) {
            self.benchmark = benchmark
            self.numerator = numerator
            self.denominator = denominator
        }

        /// Numerator over denominator, or nil when a half is missing, the denominator is not
        /// positive or the result is not finite.
        public var ratio: Double? {
            guard let numerator, let denominator, denominator > 0 else { return nil }
            let ratio = numerator / denominator
            return ratio.isFinite ? ratio : nil
        }
    }

    /// The suite of the derived rows, e.g. `codec`.
    public var suite: String
    /// The derived rows' metric, e.g. `speedup_vs_json`.
    public var metric: String
    /// The derived rows' unit: `x` for a ratio, `MB/s` for bytes per microsecond.
    public var unit: String
    /// Which way is better.
    public var direction: MetricDirection
    /// What the figure says, in one line, for a reader of the kit.
    public var summary: String
    /// The numerator and denominator of every benchmark the ratio applies to, in row order.
    public var terms: @Sendable (ReportRows) -> [Term]

    /// A ratio; its unit defaults to `x`. `terms` is called once per report it is applied to.
    public init(
        suite: String, metric: String, unit: String = "x", direction: MetricDirection, summary: String,
        terms: @escaping @Sendable (ReportRows) -> [Term]
    ) {
        self.suite = suite
        self.metric = metric
        self.unit = unit
        self.direction = direction
        self.summary = summary
        self.terms = terms
    }

    /// The derived rows of `report`, with `environment`'s columns.
    public func rows(of report: ReportRows, environment: RunEnvironment) -> [BenchmarkRow] {
        terms(report).compactMap { term in
            term.ratio.map {
                BenchmarkRow(suite: suite, benchmark: term.benchmark, metric: metric, unit: unit, value: $0, environment: environment)
            }
        }
    }
}
