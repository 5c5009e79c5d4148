/// The statistical comparison of one timing metric's samples: the Mann–Whitney U test and the
/// Hodges–Lehmann shift, relative to the baseline's median.
public struct SampleTest: Sendable, Hashable {
    /// The two-sided p-value of the Mann–Whitney U test, current against baseline.
    public var pValue: Double
    /// Whether the p-value is exact or from the normal approximation.
    public var method: MannWhitneyU.Method
    /// The estimated change, current − baseline, as a fraction of the baseline's median (0.05 is
    /// 5% larger).
    public var change: Double
    /// The lower end of the confidence interval of ``change`` at 1 − α.
    public var lower: Double
    /// The upper end of the confidence interval of ``change`` at 1 − α.
    public var upper: Double
    /// The number of baseline samples.
    public var baselineCount: Int
    /// The number of current samples.
    public var currentCount: Int

    /// Compares `current` with `baseline` at significance `alpha`, or nil when the baseline's
    /// median is 0 (no relative change exists). Precondition: both samples non-empty.
    public init?(baseline: [Double], current: [Double], alpha: Double) {
        let sorted = baseline.sorted()
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        guard median != 0 else { return nil }
        let test = MannWhitneyU(current, baseline)
        let shift = HodgesLehmann(current, baseline, confidence: 1 - alpha)
        pValue = test.pValue
        method = test.method
        change = shift.shift / abs(median)
        lower = shift.lower / abs(median)
        upper = shift.upper / abs(median)
        baselineCount = baseline.count
        currentCount = current.count
    }
}
