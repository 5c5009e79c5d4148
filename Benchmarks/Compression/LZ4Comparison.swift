import Benchmark
import CompressionBench

/// `lz4 -b` next to our wrapper, reported as custom metrics of `<input>/lz4-a1/vs-lz4-cli`.
enum LZ4Comparison {
    /// The last part of the comparison's benchmark name; `CompressionFigures.comparison` reads it.
    static let operation = "vs-lz4-cli"

    /// `lz4 -b1 -i1`, three times per side (lz4, ours, ours, lz4, lz4, ours), each keeping its
    /// best speeds: on a shared machine one run per side differs by ±5 % from the next.
    static let configuration = LZ4CLIComparison.Configuration(level: 1, seconds: 1, rounds: 3)

    static let metrics: [BenchmarkMetric] = [
        .custom("lz4_cli_compress_mbps", polarity: .prefersLarger),
        .custom("lz4_cli_decompress_mbps", polarity: .prefersLarger),
        .custom("ours_compress_mbps", polarity: .prefersLarger),
        .custom("ours_decompress_mbps", polarity: .prefersLarger),
        .custom("lz4_cli_compressed_bytes"),
    ]

    static func run(_ input: CompressionInput) throws -> LZ4CLIComparison.Result {
        let result = try LZ4CLIComparison.run(input.concatenated, configuration: configuration)
        guard result.cli.compressedBytes == result.ours.compressedBytes else {
            throw CompressionBenchError(
                .roundTripMismatch,
                "\(input.id): lz4 -b\(result.level) compressed \(result.inputBytes) bytes to \(result.cli.compressedBytes), "
                    + "our wrapper at the same level to \(result.ours.compressedBytes)"
            )
        }
        return result
    }

    /// Records the comparison; MB/s (10^6 bytes/s) rounded to integers.
    static func record(_ result: LZ4CLIComparison.Result, in benchmark: Benchmark) {
        benchmark.measurement(.custom("lz4_cli_compress_mbps"), Int(result.cli.compressMBps.rounded()))
        benchmark.measurement(.custom("lz4_cli_decompress_mbps"), Int(result.cli.decompressMBps.rounded()))
        benchmark.measurement(.custom("ours_compress_mbps"), Int(result.ours.compressMBps.rounded()))
        benchmark.measurement(.custom("ours_decompress_mbps"), Int(result.ours.decompressMBps.rounded()))
        benchmark.measurement(.custom("lz4_cli_compressed_bytes"), result.cli.compressedBytes)
    }
}
