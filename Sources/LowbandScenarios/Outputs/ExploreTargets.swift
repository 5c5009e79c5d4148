package import LowbandReports

/// The targets `lowband explore` promises and writes into its results.csv; the benchmark kits
/// under Benchmarks/ declare their own.
package enum ExploreTargets {
    package static let all: [BenchmarkTarget] = [
        BenchmarkTarget(
            name: "explore-1000-seeds-10min",
            promise: "lowband explore: 1,000 seeds of a 5-client, 10-minute EDGE crowd with swarm faults in <= 10 minutes",
            reason: "issue 10: an explorer is only useful when a sweep of a thousand seeds fits a coffee break",
            suite: "explore.crowd", benchmarkSuffix: "edge", metric: "seconds_per_1000_seeds", comparison: .atMost, goal: 600
        )
    ]
}
