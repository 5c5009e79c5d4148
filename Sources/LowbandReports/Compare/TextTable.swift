import Foundation

/// A plain-text table with aligned columns, for terminals and CI logs.
package struct TextTable {
    package enum Alignment { case left, right }

    package var headers: [String]
    package var alignments: [Alignment]
    package var rows: [[String]] = []

    package init(headers: [String], alignments: [Alignment], rows: [[String]] = []) {
        self.headers = headers
        self.alignments = alignments
        self.rows = rows
    }

    /// The table, columns two spaces apart, a dashed line under the header, no trailing spaces.
    package func rendered() -> String {
        let all = [headers] + rows
        let widths = headers.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            let padded = headers.indices.map { column -> String in
                let cell = cells.indices.contains(column) ? cells[column] : ""
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return alignments[column] == .right ? padding + cell : cell + padding
            }
            var text = padded.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text + "\n"
        }
        return line(headers) + line(widths.map { String(repeating: "-", count: $0) }) + rows.map(line).joined()
    }

    /// `value` for reading: whole numbers without a fraction, others to six significant digits.
    package static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        if abs(value) >= 1e6, abs(value) < 1e15 { return String(Int64(value.rounded())) }
        return String(format: "%.6g", value)
    }
}

extension BenchmarkRow {
    /// The readable table a benchmark run prints next to its CSV: one line per row.
    public static func table(_ rows: [BenchmarkRow]) -> String {
        var table = TextTable(
            headers: ["benchmark", "metric", "unit", "p50", "p90", "p99", "min", "max", "samples"],
            alignments: [.left, .left, .left, .right, .right, .right, .right, .right, .right]
        )
        for row in rows {
            table.rows.append(
                ["\(row.suite)/\(row.benchmark)", row.metric, row.unit]
                    + [row.p50, row.p90, row.p99, row.min, row.max].map(TextTable.number)
                    + [String(row.samples)]
            )
        }
        return table.rendered()
    }
}
