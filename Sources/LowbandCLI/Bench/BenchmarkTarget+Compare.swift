import LowbandReports
import LowbandScenarios

extension BenchmarkTarget {
    /// The targets `lowband compare` consults to tell which `targets` rows depend on a metric a
    /// machine may not measure (``UnmeasuredMetric``): `lowband explore`'s own, and a stand-in
    /// naming the one benchmark-kit target judged on `instructions` (the start-up kit's
    /// `hand-wiring-linear`), so the CI gate on a machine without CPU counters keeps passing.
    ///
    /// The kits declare their targets in Benchmarks/ (a package `lowband` does not depend on);
    /// once compare lives in LowbandReports it should take the kits' declarations instead, and
    /// this stand-in goes.
    static let all: [BenchmarkTarget] = ExploreTargets.all + [
        BenchmarkTarget(
            name: "hand-wiring-linear", promise: "declared by the start-up kit (Benchmarks/Kits/StartupBench)",
            suite: "startup", benchmarkSuffix: "synthetic/hand", metric: "instructions_growth_100_to_1000", comparison: .atMost, goal: 12
        )
    ]
}
