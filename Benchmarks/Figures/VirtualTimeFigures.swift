public import LowbandReports

/// The virtual-time suite's target: how many seconds of a crowd's virtual time one second of
/// wall time runs (`scripts/bench.sh --suite virtual-time` measures `speedup_vs_real_time` for the
/// 100-client, 1-hour EDGE crowd; the row is measured, not derived).
public enum VirtualTimeFigures {
    public static let declared = DerivedFigures(targets: targets)

    public static let targets: [BenchmarkTarget] = [
        BenchmarkTarget(
            name: "virtual-time-1000x", promise: "a 100-client EDGE crowd hour runs >= 1000x faster than real time (<= 3.6 s)",
            reason: "issue 13", suite: "virtual-time", benchmarkSuffix: "crowd-100-1h-edge", metric: "speedup_vs_real_time",
            comparison: .atLeast, goal: 1000
        ),
    ]
}
