internal import BenchFigures
public import CodecBench
public import LowbandReports

/// The codec comparison without package-benchmark: every fixture × codec timed with a plain
/// clock, as rows of Lowband's CSV schema, with the codec suite's ratios and targets added.
///
/// The rows have the names and units `scripts/bench.sh --suite codec` writes
/// (`codec,<fixture>/<codec>/encode,wall_clock,us,…`, `encoded_bytes`, `lz4_bytes`), so
/// `lowband compare` gates them and `CodecFigures` derives `speedup_vs_json`, `bytes_vs_json`
/// and the rest from them. The times are rougher than package-benchmark's (no warm-up beyond
/// one round trip, no CPU counters): use them to see where a codec stands, and the benchmark
/// suite for figures to publish.
public enum CodecComparison {
    /// Measures `codecs` on `fixtures`, `samples` timed encodes and decodes each, and returns
    /// the measured rows followed by the derived ones.
    ///
    /// - Throws: ``CodecBenchError`` when two codecs share a name or a codec does not decode
    ///   its own bytes of a fixture to the same value (its figures would mean nothing).
    public static func run(
        codecs: [any BenchmarkCodec],
        fixtures: [CodecFixture] = CodecFixture.all(),
        samples: Int,
        environment: RunEnvironment
    ) throws -> DerivedReport {
        precondition(samples > 0, "samples must be positive")
        var rows: [BenchmarkRow] = []
        for workload in try CodecWorkload.all(fixtures: fixtures, codecs: codecs) {
            let bytes = try workload.verifiedEncoding()
            let encodeTimes = try timed(samples) { _ = try workload.encode() }
            let decodeTimes = try timed(samples) { try workload.decode(bytes) }
            let encode = workload.encodeBenchmarkName
            rows += [
                BenchmarkRow(suite: "codec", benchmark: encode, metric: "wall_clock", unit: "us", samples: encodeTimes, environment: environment),
                BenchmarkRow(suite: "codec", benchmark: encode, metric: "encoded_bytes", unit: "bytes", value: Double(bytes.count), environment: environment),
                BenchmarkRow(suite: "codec", benchmark: encode, metric: "lz4_bytes", unit: "bytes", value: Double(try CodecWorkload.lz4Size(of: bytes)), environment: environment),
                BenchmarkRow(suite: "codec", benchmark: workload.decodeBenchmarkName, metric: "wall_clock", unit: "us", samples: decodeTimes, environment: environment),
            ]
        }
        return CodecFigures.declared.apply(to: rows, environment: environment)
    }

    /// `count` durations of `body` in microseconds.
    static func timed(_ count: Int, _ body: () throws -> Void) throws -> [Double] {
        let clock = ContinuousClock()
        var times: [Double] = []
        times.reserveCapacity(count)
        for _ in 0 ..< count {
            let elapsed = try clock.measure(body)
            let (seconds, attoseconds) = elapsed.components
            times.append(Double(seconds) * 1e6 + Double(attoseconds) / 1e12)
        }
        return times
    }
}
