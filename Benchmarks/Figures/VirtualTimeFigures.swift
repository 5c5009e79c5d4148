public import LowbandReports

/// The virtual-time suite's targets: how many seconds of a crowd's virtual time one second of
/// wall time runs (`scripts/bench.sh --suite virtual-time` measures `speedup_vs_real_time` for the
/// 100-client, 1-hour EDGE crowd), and how many seeds of `lowband explore` a second of wall time
/// sweeps (`seeds_per_second` of 1,000 seeds, 5 clients, 10 minutes of EDGE, swarm faults,
/// `--jobs 2`). Both rows are measured, not derived.
public enum VirtualTimeFigures {
    public static let declared = DerivedFigures(targets: targets)

    public static let targets: [BenchmarkTarget] = [
        BenchmarkTarget(
            name: "virtual-time-1000x", promise: "a 100-client EDGE crowd hour runs >= 1000x faster than real time (<= 3.6 s)",
            reason: "issue 13", suite: "virtual-time", benchmarkSuffix: "crowd-100-1h-edge", metric: "speedup_vs_real_time",
            comparison: .atLeast, goal: 1000
        ),
        BenchmarkTarget(
            name: "explore-1000-seeds-30s",
            promise: "lowband explore sweeps 1,000 seeds of a 5-client, 10-minute EDGE crowd with swarm faults (--jobs 2) in <= 30 s",
            reason: "issue 39", suite: "virtual-time", benchmarkSuffix: "explore-1000-crowd-5-10m-edge", metric: "seeds_per_second",
            comparison: .atLeast, goal: 1000.0 / 30
        ),
    ]
}
