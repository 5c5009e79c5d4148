import LowbandReports
import Testing

/// The summary lowband-bench-derive ends with: the kits' codec × fixture and compressor × input
/// tables, from the report's derived rows.
@Suite struct SummaryTests {
    private func row(_ suite: String, _ benchmark: String, _ metric: String, _ value: Double, unit: String = "x") -> BenchmarkRow {
        BenchmarkRow(suite: suite, benchmark: benchmark, metric: metric, unit: unit, value: value, environment: environment)
    }

    @Test func pivotsCodecsByFixtureAndCompressorsByInput() {
        let text = PivotTable.render(allFigures.summaries, rows: [
            row("codec", "push-1/msgpack-fast", "speedup_vs_json", 22.65),
            row("codec", "push-1/protobuf", "speedup_vs_json", 14.17),
            row("codec", "contacts-500/msgpack-fast", "speedup_vs_json", 10.564),
            row("codec", "push-1/msgpack-fast/encode", "wall_clock", 3, unit: "us"),
            row("compression", "push-1/lz4-a1", "size_vs_input", 0.96),
            row("compression", "push-1/lz4-a1", "compress_throughput", 362.4, unit: "MB/s"),
        ])
        #expect(text.contains("""
            codec speed-up against JSON (encode + decode, p50 wall clock; higher is better)
            fixture       msgpack-fast  protobuf
            ------------  ------------  --------
            push-1              22.65x    14.17x
            contacts-500        10.56x         -
            """), "\(text)")
        #expect(text.contains("input   lz4-a1\n------  ------\npush-1   0.96x"), "\(text)")
        #expect(text.contains("compression throughput, MB/s (higher is better)\ninput   lz4-a1\n------  ------\npush-1     362\n"), "\(text)")
        #expect(!text.contains("wall_clock") && !text.contains("decompression throughput"), "only derived rows, only tables with cells")
    }

    @Test func aReportWithoutCodecOrCompressionRowsSaysSo() {
        let text = PivotTable.render(allFigures.summaries, rows: [row("startup", "cold-start", "engine_vs_raw_query", 3.9)])
        #expect(text == "nothing to summarise\n")
    }
}
