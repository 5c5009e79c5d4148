public import LowbandReports

/// The push-to-visible suite's derived figures: the measured time over the profile's physical
/// floor, and the targets issue 5 promises.
///
/// Reads `<profile>/push-to-visible` with `wall_clock` and `floor_us`; adds `p50_vs_floor` and
/// `p99_vs_floor` per profile (1 is the floor itself; lower is better).
public enum PushFigures {
    public static let declared = DerivedFigures(ratios: ratios, targets: targets)

    static let suite = "push-to-visible"

    public static let ratios: [DerivedRatio] = [overFloor(.p50), overFloor(.p99)]

    public static let targets: [BenchmarkTarget] = [
        BenchmarkTarget(
            name: "push-perfect-p99-1ms", promise: "push-to-visible on the perfect profile: p99 < 1 ms", reason: "issue 5",
            suite: suite, benchmarkSuffix: "perfect/push-to-visible", metric: "wall_clock", statistic: .p99, comparison: .atMost, goal: 1000
        ),
        BenchmarkTarget(
            name: "push-shaped-p50-1.1x-floor", promise: "push-to-visible on a shaped profile: p50 <= 1.1x the physical floor",
            reason: "issue 5; the perfect profile has no floor to speak of and its own target",
            suite: suite, benchmarkSuffix: "/push-to-visible", excludedPrefixes: ["perfect/"], metric: "p50_vs_floor", comparison: .atMost, goal: 1.1
        ),
    ]

    /// The `statistic` of each profile's wall-clock time over its floor.
    static func overFloor(_ statistic: BenchmarkRow.Statistic) -> DerivedRatio {
        DerivedRatio(suite: suite, metric: "\(statistic.rawValue)_vs_floor", direction: .lowerIsBetter, summary: "\(statistic.rawValue) push-to-visible time over the profile's physical floor") { report in
            report.rows.filter { $0.suite == suite && $0.metric == "wall_clock" }.map {
                .init(benchmark: $0.benchmark, numerator: $0.value(of: statistic), denominator: report.value(suite, $0.benchmark, "floor_us"))
            }
        }
    }
}
