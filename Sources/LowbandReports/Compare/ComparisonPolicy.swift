/// How `lowband compare` judges a change: the thresholds, the statistical test and the statistic
/// it reads.
///
/// Timing rows (wall-clock times, throughputs) with samples in both reports are judged by a
/// two-sided Mann–Whitney U test at ``significance`` together with the Hodges–Lehmann shift's
/// 1 − α confidence interval, which must lie wholly beyond ``minimumEffect``; every other row by
/// its threshold.
public struct ComparisonPolicy: Sendable, Hashable {
    /// The largest change for the worse, as a fraction (0.10 = 10%), that a deterministic metric
    /// (allocations, bytes, counts) may show and still pass.
    public var threshold: Double
    /// The same for ratios (`x`) measured within one run; nil uses ``threshold``.
    public var ratioThreshold: Double?
    /// The same for timing metrics *without samples* (wall-clock times, throughputs); nil reports
    /// them as `info` without gating, the default, because shared machines are noisy.
    public var timeThreshold: Double?
    /// Which statistic of each row is compared when a row is judged by threshold.
    public var statistic: BenchmarkRow.Statistic
    /// Whether a baseline metric absent from the current report passes; false by default, because
    /// a benchmark that silently stopped running is a gate that silently stopped gating.
    public var allowMissing: Bool
    /// Whether a baseline metric this machine could not measure at all (``UnmeasuredMetric``)
    /// fails the gate too; false by default, when it is reported in one line.
    public var requireAll: Bool
    /// The significance level α of the two-sided Mann–Whitney U test on samples (0.01 = 1%); the
    /// confidence interval of the shift is at 1 − α.
    public var significance: Double
    /// The smallest shift, as a fraction of the baseline's median, that the whole confidence
    /// interval of a significant timing change must exceed to be a regression or an improvement
    /// (0.05 = 5%).
    public var minimumEffect: Double
    /// Metric names (`growth_100_to_1000`) shown as `info` and never gated, whatever their unit:
    /// figures known to move beyond their threshold on the machine that runs the gate.
    public var ungated: Set<String> = []
    /// The largest worsening of an instrumented instruction count with samples in both reports
    /// (``InstructionGate``); nil derives it from the runs' spread (0.1 % for a spread of 0).
    public var instructionThreshold: Double?

    /// A policy; every argument has the `lowband compare` default. Thresholds, significance and
    /// minimum effect are fractions (0.10 = 10%); a nil `ratioThreshold` uses `threshold`, a nil
    /// `timeThreshold` leaves timing rows without samples ungated.
    public init(
        threshold: Double = 0.10, ratioThreshold: Double? = nil, timeThreshold: Double? = nil,
        statistic: BenchmarkRow.Statistic = .p50, allowMissing: Bool = false, requireAll: Bool = false,
        significance: Double = 0.01, minimumEffect: Double = 0.05
    ) {
        self.threshold = threshold
        self.ratioThreshold = ratioThreshold
        self.timeThreshold = timeThreshold
        self.statistic = statistic
        self.allowMissing = allowMissing
        self.requireAll = requireAll
        self.significance = significance
        self.minimumEffect = minimumEffect
    }
}
