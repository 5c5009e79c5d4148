import Foundation
import LowbandReports
import LowbandTestSupport
import Testing

/// `lowband bench summary` (the end of scripts/bench.sh): the report's codec × fixture and
/// compressor × input tables, from the CSV rows themselves.
@Suite struct BenchSummaryCommandTests {
    private let lowband = BuiltProducts.path(of: "lowband")

    private func row(_ suite: String, _ benchmark: String, _ metric: String, _ value: Double, unit: String = "x") -> BenchmarkRow {
        BenchmarkRow(
            suite: suite, benchmark: benchmark, metric: metric, unit: unit, p50: value, p90: value, p99: value, min: value, max: value,
            samples: 1, commit: "abc1234", swiftVersion: "6.3", host: "test", timestamp: "2026-11-24T00:00:00Z"
        )
    }

    @Test func pivotsCodecsByFixtureAndCompressorsByInput() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lowband-summary-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try BenchmarkCSV.write(rows: [
            row("codec", "push-1/msgpack-fast", "speedup_vs_json", 22.65),
            row("codec", "push-1/protobuf", "speedup_vs_json", 14.17),
            row("codec", "contacts-500/msgpack-fast", "speedup_vs_json", 10.564),
            row("codec", "push-1/msgpack-fast/encode", "wall_clock", 3, unit: "us"),
            row("compression", "push-1/lz4-a1", "size_vs_input", 0.96),
            row("compression", "push-1/lz4-a1", "compress_throughput", 362.4, unit: "MB/s"),
        ], to: path)
        let result = try ExternalProcess.run(lowband, ["bench", "summary", path])
        #expect(result.status == 0, "\(result.stderrText)")
        let text = result.stdoutText
        #expect(text.contains("""
            codec speed-up against JSON (encode + decode, p50 wall clock; higher is better)
            fixture       msgpack-fast  protobuf
            ------------  ------------  --------
            push-1              22.65x    14.17x
            contacts-500        10.56x         -
            """), "\(text)")
        #expect(text.contains("input   lz4-a1\n------  ------\npush-1   0.96x"), "\(text)")
        #expect(text.contains("compression throughput, MB/s"))
        #expect(!text.contains("wall_clock") && !text.contains("decompression throughput"), "only derived rows, only tables with cells")
    }

    @Test func aReportWithoutCodecRowsSaysSoAndABadFileIsOneLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lowband-summary-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try BenchmarkCSV.write(rows: [row("startup", "cold-start", "engine_vs_raw_query", 3.9)], to: path)
        #expect(try ExternalProcess.run(lowband, ["bench", "summary", path]).stdoutText == "no codec or compression rows to summarise\n")
        let missing = try ExternalProcess.run(lowband, ["bench", "summary", "/no/such.csv"])
        #expect(missing.status == 1)
        #expect(missing.stderrText.hasPrefix("lowband bench summary: error: ") && missing.stderrText.split(separator: "\n").count == 1)
    }
}
