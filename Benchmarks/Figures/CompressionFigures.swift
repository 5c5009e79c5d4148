public import LowbandReports

/// The compression suite's derived figures: size and speed per input and method, and our LZ4
/// against `lz4 -b`, with the targets issue 5 promises for it.
///
/// Reads `<input>/<method>/compress|decompress` with `input_bytes`, `compressed_bytes`,
/// `wall_clock` (µs), and `<input>/lz4-a1/vs-lz4-cli` with the same-method speeds
/// `ours_compress_mbps`, `lz4_cli_compress_mbps` (and decompress), one comparison, recorded
/// once (reports from before it had its own benchmark hold them on `<input>/lz4-a1/compress`,
/// which is read when the comparison is absent); adds per `<input>/<method>` `size_vs_input`,
/// `compress_throughput` and `decompress_throughput` (MB/s: bytes per microsecond), and
/// `compress_speedup_vs_lz4_cli` / `decompress_speedup_vs_lz4_cli` (ours over lz4's).
public enum CompressionFigures {
    public static let declared = DerivedFigures(ratios: ratios, targets: targets, summaries: summaries)

    static let suite = "compression"

    public static let ratios: [DerivedRatio] = [
        DerivedRatio(suite: suite, metric: "size_vs_input", direction: .lowerIsBetter, summary: "compressed bytes over input bytes") { report in
            pairs(report).map { .init(benchmark: $0, numerator: report.value(suite, "\($0)/compress", "compressed_bytes"), denominator: report.value(suite, "\($0)/compress", "input_bytes")) }
        },
        throughput("compress"),
        throughput("decompress"),
        againstCLI("compress"),
        againstCLI("decompress"),
    ]

    public static let targets: [BenchmarkTarget] = [
        BenchmarkTarget(
            name: "lz4-compress-within-5pct-of-cli", promise: "our LZ4 compresses within 5% of lz4 -b's speed", reason: "issue 5",
            suite: suite, benchmarkSuffix: "/lz4-a1", metric: "compress_speedup_vs_lz4_cli", comparison: .atLeast, goal: 0.95
        ),
        BenchmarkTarget(
            name: "lz4-decompress-within-5pct-of-cli", promise: "our LZ4 decompresses within 5% of lz4 -b's speed", reason: "issue 5",
            suite: suite, benchmarkSuffix: "/lz4-a1", metric: "decompress_speedup_vs_lz4_cli", comparison: .atLeast, goal: 0.95
        ),
    ]

    /// Compressor × input: size and throughput.
    public static let summaries: [PivotTable] = [
        PivotTable(title: "compressed size against the input (lower is better)", suite: suite, metric: "size_vs_input", rowLabel: "input"),
        PivotTable(title: "compression throughput, MB/s (higher is better)", suite: suite, metric: "compress_throughput", rowLabel: "input", format: .whole),
        PivotTable(title: "decompression throughput, MB/s (higher is better)", suite: suite, metric: "decompress_throughput", rowLabel: "input", format: .whole),
    ]

    /// Input bytes per microsecond of `operation` (= MB/s, 10^6 bytes per second).
    static func throughput(_ operation: String) -> DerivedRatio {
        DerivedRatio(suite: suite, metric: "\(operation)_throughput", unit: "MB/s", direction: .higherIsBetter, summary: "input bytes over \(operation) time (p50)") { report in
            pairs(report).map { .init(benchmark: $0, numerator: report.value(suite, "\($0)/compress", "input_bytes"), denominator: report.value(suite, "\($0)/\(operation)", "wall_clock")) }
        }
    }

    /// Our wrapper's speed over `lz4 -b`'s for `operation`, timed the same way in the same run.
    static func againstCLI(_ operation: String) -> DerivedRatio {
        DerivedRatio(suite: suite, metric: "\(operation)_speedup_vs_lz4_cli", direction: .higherIsBetter, summary: "our LZ4 \(operation) speed over lz4 -b's") { report in
            pairs(report).map {
                .init(benchmark: $0, numerator: comparisonValue(report, $0, "ours_\(operation)_mbps"), denominator: comparisonValue(report, $0, "lz4_cli_\(operation)_mbps"))
            }
        }
    }

    /// The last part of the name of the benchmark that compares our LZ4 with `lz4 -b`.
    static let comparison = "vs-lz4-cli"

    /// `metric` of the lz4 -b comparison of `pair`: from its own benchmark, or, in a report from
    /// before it had one, from the compress benchmark that carried it.
    static func comparisonValue(_ report: ReportRows, _ pair: String, _ metric: String) -> Double? {
        report.value(suite, "\(pair)/\(comparison)", metric) ?? report.value(suite, "\(pair)/compress", metric)
    }

    /// Every `<input>/<method>` with compress or decompress rows.
    static func pairs(_ report: ReportRows) -> [String] {
        report.groups(suite: suite, operations: ["compress", "decompress"])
    }
}
