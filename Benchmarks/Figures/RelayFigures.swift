public import LowbandReports

/// The relay suite's derived figures: `lowband proxy` on the `perfect` profile against socat,
/// measured in the same run (`Benchmarks/relay/proxy_vs_socat.py`), and the target issue 13
/// sets for it.
///
/// Reads `<relay>/upload` `throughput` (MB/s, one sample per round) for `socat` and
/// `lowband-perfect`; adds `lowband-perfect` `throughput_vs_socat` (the proxy's p50 over socat's:
/// higher is better). The added round-trip times (`added_rtt_p50`, `added_rtt_p99` over the
/// direct connection) are measured rows of the script, not ratios.
public enum RelayFigures {
    public static let declared = DerivedFigures(ratios: ratios, targets: targets)

    static let suite = "relay"

    public static let ratios: [DerivedRatio] = [
        DerivedRatio(
            suite: suite, metric: "throughput_vs_socat", direction: .higherIsBetter,
            summary: "the proxy's upload throughput on the perfect profile over socat's (p50 of the rounds)"
        ) { report in
            [.init(
                benchmark: "lowband-perfect",
                numerator: report.value(suite, "lowband-perfect/upload", "throughput"),
                denominator: report.value(suite, "socat/upload", "throughput")
            )]
        },
    ]

    public static let targets: [BenchmarkTarget] = [
        BenchmarkTarget(
            name: "proxy-1.5x-socat", promise: "lowband proxy on the perfect profile moves bytes >= 1.5x socat's throughput",
            reason: "issue 13", suite: suite, benchmarkSuffix: "lowband-perfect", metric: "throughput_vs_socat", comparison: .atLeast, goal: 1.5
        ),
    ]
}
