import Foundation

/// A plain-text table with aligned columns, for the derived figures a benchmark run prints.
struct PlainTable {
    var headers: [String]
    /// Whether each column is right-aligned (numbers).
    var rightAligned: [Bool]
    var rows: [[String]] = []

    /// Columns two spaces apart, a dashed line under the header, no trailing spaces.
    func rendered() -> String {
        let all = [headers] + rows
        let widths = headers.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            var text = headers.indices.map { column -> String in
                let cell = cells.indices.contains(column) ? cells[column] : ""
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned[column] ? padding + cell : cell + padding
            }.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text + "\n"
        }
        return line(headers) + line(widths.map { String(repeating: "-", count: $0) }) + rows.map(line).joined()
    }

    /// `value` for reading: whole numbers without a fraction, others to six significant digits.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        if abs(value) >= 1e6, abs(value) < 1e15 { return String(Int64(value.rounded())) }
        return String(format: "%.6g", value)
    }
}
