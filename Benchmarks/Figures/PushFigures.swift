public import LowbandReports

/// The push-to-visible suite's derived figures: the measured time over the median the profile
/// implies, the floor over the fastest sample, and the targets issue 13 sets.
///
/// Reads `<profile>/push-to-visible` with `push_to_visible_us`, `median_us` and `floor_us` (both
/// from `PhysicalFloor`, docs/BENCHMARKS.md); adds per profile `p50_vs_median` and
/// `p99_vs_median` (1 is the network's own median; lower is better) and `floor_vs_min` (the
/// floor over the fastest sample: at most 1, or a sample beat physics).
///
/// `push_to_visible_us` is the push itself: from the server's loop composing it to the row
/// entering the list on the client's loop, one monotonic clock. The row's `wall_clock` is the
/// benchmark task's view of the same push: it adds the task's two thread hops (waking the
/// server's loop to post, and being woken when the row is shown), about 0.3 ms on this 2-core
/// machine after the 250 ms of animation between pushes, which are the harness's, not the
/// messenger's.
public enum PushFigures {
    public static let declared = DerivedFigures(ratios: ratios, targets: targets)

    static let suite = "push-to-visible"
    /// The measured time every figure and target of the suite reads.
    static let measured = "push_to_visible_us"

    public static let ratios: [DerivedRatio] = [overMedian(.p50), overMedian(.p99), floorOverFastest]

    public static let targets: [BenchmarkTarget] = [
        BenchmarkTarget(
            name: "push-perfect-p99-0.5ms", promise: "push-to-visible on the perfect profile: p99 <= 0.5 ms", reason: "issue 13",
            suite: suite, benchmarkSuffix: "perfect/push-to-visible", metric: measured, statistic: .p99, comparison: .atMost, goal: 500
        ),
        BenchmarkTarget(
            name: "push-shaped-p50-1.05x-median", promise: "push-to-visible on a shaped profile: p50 <= 1.05x the median the profile implies",
            reason: "issue 13; the perfect profile has no median to speak of and its own target",
            suite: suite, benchmarkSuffix: "/push-to-visible", excludedPrefixes: ["perfect/"], metric: "p50_vs_median", comparison: .atMost, goal: 1.05
        ),
        BenchmarkTarget(
            name: "push-no-sample-below-floor", promise: "push-to-visible: no sample faster than the physical floor (floor / fastest <= 1)",
            reason: "issue 13; a sample below the floor means the measurement or the shaper is wrong",
            suite: suite, benchmarkSuffix: "/push-to-visible", excludedPrefixes: ["perfect/"], metric: "floor_vs_min", comparison: .atMost, goal: 1
        ),
    ]

    /// The `statistic` of each profile's push-to-visible time over the median its profile implies.
    static func overMedian(_ statistic: BenchmarkRow.Statistic) -> DerivedRatio {
        DerivedRatio(suite: suite, metric: "\(statistic.rawValue)_vs_median", direction: .lowerIsBetter, summary: "\(statistic.rawValue) push-to-visible time over the median the profile implies") { report in
            report.rows.filter { $0.suite == suite && $0.metric == measured }.map {
                .init(benchmark: $0.benchmark, numerator: $0.value(of: statistic), denominator: report.value(suite, $0.benchmark, "median_us"))
            }
        }
    }

    /// Each profile's physical floor over its fastest sample: above 1, some push beat physics.
    static let floorOverFastest = DerivedRatio(
        suite: suite, metric: "floor_vs_min", direction: .lowerIsBetter, summary: "the physical floor over the fastest push-to-visible sample (above 1: a sample below the floor)"
    ) { report in
        report.rows.filter { $0.suite == suite && $0.metric == measured }.map {
            .init(benchmark: $0.benchmark, numerator: report.value(suite, $0.benchmark, "floor_us"), denominator: $0.value(of: .min))
        }
    }
}
