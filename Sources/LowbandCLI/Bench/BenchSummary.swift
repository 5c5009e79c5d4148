import Foundation
import LowbandReports

/// The compact view of a benchmark report: one small table per comparison a reader looks for —
/// codec × fixture (speed and size against JSON) and compressor × input (size and throughput) —
/// instead of the hundreds of rows the CSV holds.
///
/// Tables are pivots of the report's derived rows: a benchmark named `FIXTURE/VARIANT` with the
/// given metric gives the cell at (FIXTURE, VARIANT); fixtures and variants keep the order they
/// first appear in. A table with no cells is left out.
enum BenchSummary {
    struct Table: Sendable {
        var title: String
        var suite: String
        var metric: String
        /// What the rows are: `fixture` for codecs, `input` for compressors.
        var rowLabel: String
        var format: @Sendable (Double) -> String
    }

    static let tables = [
        Table(title: "codec speed-up against JSON (encode + decode, p50 wall clock; higher is better)", suite: "codec", metric: "speedup_vs_json", rowLabel: "fixture", format: ratio),
        Table(title: "codec size against JSON (bytes; lower is better)", suite: "codec", metric: "bytes_vs_json", rowLabel: "fixture", format: ratio),
        Table(title: "codec size against JSON after LZ4 (lower is better)", suite: "codec", metric: "lz4_bytes_vs_json", rowLabel: "fixture", format: ratio),
        Table(title: "compressed size against the input (lower is better)", suite: "compression", metric: "size_vs_input", rowLabel: "input", format: ratio),
        Table(title: "compression throughput, MB/s (higher is better)", suite: "compression", metric: "compress_throughput", rowLabel: "input", format: throughput),
        Table(title: "decompression throughput, MB/s (higher is better)", suite: "compression", metric: "decompress_throughput", rowLabel: "input", format: throughput),
    ]

    /// Every table that has cells, each under its title, or a line saying there is none.
    static func render(_ rows: [BenchmarkRow]) -> String {
        let parts = tables.compactMap { table in pivot(rows, table).map { "\(table.title)\n\($0)" } }
        return parts.isEmpty ? "no codec or compression rows to summarise\n" : parts.joined(separator: "\n")
    }

    static func pivot(_ rows: [BenchmarkRow], _ table: Table) -> String? {
        var fixtures: [String] = []
        var variants: [String] = []
        var cells: [String: Double] = [:]
        for row in rows where row.suite == table.suite && row.metric == table.metric {
            let parts = row.benchmark.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            if !fixtures.contains(parts[0]) { fixtures.append(parts[0]) }
            if !variants.contains(parts[1]) { variants.append(parts[1]) }
            cells["\(parts[0])/\(parts[1])"] = row.p50
        }
        guard !cells.isEmpty else { return nil }
        var text = TextTable(headers: [table.rowLabel] + variants, alignments: [.left] + variants.map { _ in .right })
        for fixture in fixtures {
            text.rows.append([fixture] + variants.map { cells["\(fixture)/\($0)"].map(table.format) ?? "-" })
        }
        return text.rendered()
    }

    static func ratio(_ value: Double) -> String { String(format: "%.2fx", value) }
    static func throughput(_ value: Double) -> String { String(format: "%.0f", value) }
}
