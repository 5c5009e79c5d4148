/// How `lowband compare` gates instruction counts measured under instrumentation
/// (`lowband startup --measure instructions`): rows whose metric is `instructions` or
/// `estimated_cycles` with every run's count in both reports.
///
/// Such a count does not depend on the machine's load: a start with its hash seed fixed and
/// address randomisation off counts the same instructions every run, so the 10 % of
/// `--threshold` would let ten real 1 % regressions through one by one. The limit follows from
/// what the runs themselves show: twice the larger relative spread (max − min over min) of
/// either report's counts, and never under ``floor``, 0.1 %. A deterministic start (spread 0)
/// is gated at 0.1 %; one whose counts move by 0.05 % between runs at 0.1 %; by 1 %, at 2 %.
/// Rows without samples (package-benchmark's `instructions`) stay on `--threshold`.
public enum InstructionGate {
    /// The least limit, as a fraction: 0.1 %.
    public static let floor = 0.001
    /// The limit is this many times the larger spread of the two reports.
    public static let spreadFactor = 2.0
    /// The metrics gated this way.
    public static let metrics: Set<String> = ["instructions", "estimated_cycles"]

    /// The limit for `metric` given both reports' samples, or nil when the row is not an
    /// instrumented count with samples on both sides.
    public static func limit(metric: String, baseline: [Double]?, current: [Double]?) -> Double? {
        guard metrics.contains(metric), let baseline, let current, !baseline.isEmpty, !current.isEmpty else { return nil }
        return max(floor, spreadFactor * max(spread(baseline), spread(current)))
    }

    /// (max − min) / min of `values`; 0 for one value or a minimum of 0.
    public static func spread(_ values: [Double]) -> Double {
        guard let low = values.min(), let high = values.max(), low > 0 else { return 0 }
        return (high - low) / low
    }
}
