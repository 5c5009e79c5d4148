/// A baseline report set against a current one, joined on suite, benchmark and metric: the verdict
/// of `lowband compare`, usable from Swift.
///
/// ```swift
/// let comparison = BenchmarkComparison(baseline: try BenchmarkCSV.read(from: "base.csv"),
///                                      current: try BenchmarkCSV.read(from: "pr.csv"))
/// print(ComparisonReport.markdown(comparison))
/// if comparison.fails { /* a regression or a missing metric */ }
/// ```
///
/// Pure: no I/O, so every verdict is tested from rows in memory.
public struct BenchmarkComparison: Sendable {
    /// The outcome for one metric. The cases are in the order the table shows them: what fails
    /// the gate first, then what changed, then what did not.
    public enum Verdict: String, Sendable, CaseIterable {
        /// Worse than the threshold allows, or a significant timing shift beyond the minimum
        /// effect; fails the gate.
        case regression = "REGRESSION"
        /// Only in the baseline; fails the gate unless ``ComparisonPolicy/allowMissing``.
        case missing
        /// Better by more than the threshold.
        case improved
        /// Only in the current report.
        case new
        /// Within the threshold.
        case ok
        /// A timing metric without a time threshold: shown, never gated.
        case info
        /// Only in the baseline, because the current machine cannot measure its metric at all
        /// (see ``UnmeasuredMetric``); summarised in one line, gated only with
        /// ``ComparisonPolicy/requireAll``.
        case notMeasured = "not measured"

        /// Whether the row changed beyond its threshold, or cannot be compared for a reason
        /// that fails the gate: what `--changes-only` shows.
        public var isChange: Bool {
            switch self {
            case .regression, .missing, .improved, .new: true
            case .ok, .info, .notMeasured: false
            }
        }
    }

    /// One metric's line in the comparison.
    public struct Entry: Sendable {
        /// The suite, benchmark and metric.
        public var key: BenchmarkRow.Key
        /// The unit, the same in both reports (a unit that differs is an input error).
        public var unit: String
        /// The baseline's figure in the policy's statistic (p50 by default); nil when the metric
        /// is new in the current report.
        public var baseline: Double?
        /// The current report's figure; nil when the metric is missing from it.
        public var current: Double?
        /// (current − baseline) / |baseline|; ±infinity when the baseline is 0 and the current is
        /// not, nil when either side is absent. For a row with a ``test``, its Hodges–Lehmann
        /// shift over the baseline's median (``SampleTest/change``).
        public var change: Double?
        /// Which way is better for this metric.
        public var direction: MetricDirection
        /// How the metric is gated: by threshold, ratio threshold, or as a timing.
        public var gate: MetricGate
        /// The outcome for this metric; ``BenchmarkComparison/fails`` is decided from these.
        public var verdict: Verdict
        /// The statistical test, for a timing row with samples in both reports; nil for a row
        /// judged by threshold.
        public var test: SampleTest?
        /// The limit an instrumented instruction count was judged by (``InstructionGate``); nil
        /// for every other row.
        public var countLimit: Double? = nil
    }

    /// The thresholds and statistical settings the entries were judged by.
    public var policy: ComparisonPolicy
    /// One entry per key in either report, sorted by suite, benchmark and metric.
    public var entries: [Entry]
    /// The metrics the current machine did not measure at all, with the rows that were therefore
    /// not compared (verdict ``Verdict/notMeasured``).
    public var unmeasured: [UnmeasuredMetric]

    /// Compares `current` with `baseline` under `policy`. Rows are matched by ``BenchmarkRow/key``;
    /// when a key occurs twice in one report, the last row wins (``BenchmarkCSV`` refuses such files).
    ///
    /// `targetMetrics` maps the name of each target in the suite `targets` to the metric it is
    /// judged on, so a target judged on a metric this machine cannot measure is not compared either.
    public init(
        baseline: [BenchmarkRow], current: [BenchmarkRow], policy: ComparisonPolicy = ComparisonPolicy(),
        targetMetrics: [String: String] = [:]
    ) {
        self.policy = policy
        let old = Dictionary(baseline.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
        let new = Dictionary(current.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
        var entries = Set(old.keys).union(new.keys).sorted().map { key in
            Self.entry(key: key, baseline: old[key], current: new[key], policy: policy)
        }
        var unmeasured: [UnmeasuredMetric] = []
        for (metric, reason) in UnmeasuredMetric.absent(baseline: baseline, current: current) {
            var rows = 0
            for index in entries.indices where entries[index].verdict == .missing && UnmeasuredMetric.key(entries[index].key, dependsOn: metric, targetMetrics: targetMetrics) {
                entries[index].verdict = .notMeasured
                rows += 1
            }
            unmeasured.append(UnmeasuredMetric(metric: metric, reason: reason, rows: rows))
        }
        self.entries = entries
        self.unmeasured = unmeasured
    }

    /// Entries with `verdict`.
    public func count(_ verdict: Verdict) -> Int {
        entries.count { $0.verdict == verdict }
    }

    /// Whether the gate fails: a regression, a missing metric unless the policy allows it, or a
    /// metric not measured on this machine when the policy requires all.
    public var fails: Bool {
        count(.regression) > 0 || (!policy.allowMissing && count(.missing) > 0) || (policy.requireAll && count(.notMeasured) > 0)
    }

    /// Timing rows judged by threshold (or shown as info) because a report has no samples for them.
    public var timingWithoutSamples: Int {
        entries.count { $0.gate == .timing && $0.test == nil && $0.baseline != nil && $0.current != nil }
    }

    /// The entries in the order the table shows them: by verdict (regressions, missing,
    /// improvements, new, unchanged, info, not measured), then by key.
    public var entriesByVerdict: [Entry] {
        let rank = Dictionary(uniqueKeysWithValues: Verdict.allCases.enumerated().map { ($1, $0) })
        return entries.enumerated().sorted { (rank[$0.element.verdict] ?? 0, $0.offset) < (rank[$1.element.verdict] ?? 0, $1.offset) }.map(\.element)
    }

    /// Relative slack so that a change of exactly the threshold passes despite rounding.
    private static let tolerance = 1e-9

    private static func entry(key: BenchmarkRow.Key, baseline: BenchmarkRow?, current: BenchmarkRow?, policy: ComparisonPolicy) -> Entry {
        let unit = current?.unit ?? baseline?.unit ?? ""
        let direction = MetricDirection(metric: key.metric, unit: unit)
        let gate = MetricGate(metric: key.metric, unit: unit)
        let old = baseline?.value(of: policy.statistic)
        let new = current?.value(of: policy.statistic)
        var result = Entry(key: key, unit: unit, baseline: old, current: new, change: nil, direction: direction, gate: gate, verdict: .ok)
        guard let old, let new else {
            result.verdict = old == nil ? .new : .missing
            return result
        }
        let change: Double
        if old == 0 {
            change = new == 0 ? 0 : (new > 0 ? .infinity : -.infinity)
        } else {
            change = (new - old) / abs(old)
        }
        result.change = change
        if gate == .timing, let oldSamples = baseline?.sampleValues, let newSamples = current?.sampleValues,
           !oldSamples.isEmpty, !newSamples.isEmpty,
           let test = SampleTest(baseline: oldSamples, current: newSamples, alpha: policy.significance) {
            result.test = test
            result.change = test.change
            // The interval, not the estimate, must clear the minimum effect: on a loaded machine a
            // few slow samples move the estimate of a row with few samples by tens of percent.
            let leastWorsening = direction == .lowerIsBetter ? test.lower : -test.upper
            let leastImprovement = direction == .lowerIsBetter ? -test.upper : test.lower
            let significant = test.pValue < policy.significance
            if significant, leastWorsening > policy.minimumEffect + tolerance {
                result.verdict = .regression
            } else if significant, leastImprovement > policy.minimumEffect + tolerance {
                result.verdict = .improved
            } else {
                result.verdict = .ok
            }
            return result
        }
        if !policy.ungated.contains(key.metric),
           let derived = InstructionGate.limit(metric: key.metric, baseline: baseline?.sampleValues, current: current?.sampleValues) {
            let limit = policy.instructionThreshold ?? derived
            result.countLimit = limit
            result.verdict = verdict(change: change, direction: direction, limit: limit)
            return result
        }
        let gateLimit: Double? = switch gate {
        case .deterministic: policy.threshold
        case .ratio: policy.ratioThreshold ?? policy.threshold
        case .timing: policy.timeThreshold
        }
        guard let limit = gateLimit, !policy.ungated.contains(key.metric) else {
            result.verdict = .info
            return result
        }
        result.verdict = verdict(change: change, direction: direction, limit: limit)
        return result
    }

    private static func verdict(change: Double, direction: MetricDirection, limit: Double) -> Verdict {
        let worsening = direction == .lowerIsBetter ? change : -change
        if worsening > limit + tolerance { return .regression }
        if worsening < -(limit + tolerance) { return .improved }
        return .ok
    }
}
