import Foundation

/// A compact view a kit declares for its derived rows: one table with a row per fixture (or
/// input) and a column per variant (codec, method), for the comparison a reader looks for,
/// instead of the hundreds of rows the CSV holds.
///
/// A table pivots the rows of its suite and metric named `FIXTURE/VARIANT` (p50); fixtures and
/// variants keep the order they first appear in, a missing cell is `-`, and a table with no
/// cells is left out.
public struct PivotTable: Sendable, Hashable {
    /// How a cell is written.
    public enum Format: String, Sendable, Hashable {
        /// Two decimals and an `x`: `22.65x`.
        case ratio
        /// A whole number: `362`.
        case whole
    }

    /// The line above the table, saying what it shows and which way is better.
    public var title: String
    /// The suite of the rows it pivots.
    public var suite: String
    /// The metric of the rows it pivots.
    public var metric: String
    /// What the rows are, e.g. `fixture` or `input`.
    public var rowLabel: String
    /// How its cells are written.
    public var format: Format

    /// A table; cells are ratios by default.
    public init(title: String, suite: String, metric: String, rowLabel: String, format: Format = .ratio) {
        self.title = title
        self.suite = suite
        self.metric = metric
        self.rowLabel = rowLabel
        self.format = format
    }

    /// The title and the table, or nil when `rows` give it no cell.
    public func render(_ rows: [BenchmarkRow]) -> String? {
        var fixtures: [String] = []
        var variants: [String] = []
        var cells: [String: Double] = [:]
        for row in rows where row.suite == suite && row.metric == metric {
            let parts = row.benchmark.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            if !fixtures.contains(parts[0]) { fixtures.append(parts[0]) }
            if !variants.contains(parts[1]) { variants.append(parts[1]) }
            cells["\(parts[0])/\(parts[1])"] = row.p50
        }
        guard !cells.isEmpty else { return nil }
        var table = TextTable(headers: [rowLabel] + variants, alignments: [.left] + variants.map { _ in .right })
        for fixture in fixtures {
            table.rows.append([fixture] + variants.map { cells["\(fixture)/\($0)"].map(cell) ?? "-" })
        }
        return "\(title)\n\(table.rendered())"
    }

    private func cell(_ value: Double) -> String {
        switch format {
        case .ratio: String(format: "%.2fx", value)
        case .whole: String(format: "%.0f", value)
        }
    }

    /// Every table of `tables` that has cells, one after the other, or a line saying there is none.
    public static func render(_ tables: [PivotTable], rows: [BenchmarkRow]) -> String {
        let parts = tables.compactMap { $0.render(rows) }
        return parts.isEmpty ? "nothing to summarise\n" : parts.joined(separator: "\n")
    }
}
