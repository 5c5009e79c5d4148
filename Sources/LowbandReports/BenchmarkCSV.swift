import Foundation

/// Writes and strictly reads benchmark reports in the one CSV schema (docs/BENCHMARKS.md).
///
/// The format is RFC 4180: comma-separated, a field holding a comma, a quote, CR or LF is quoted
/// and its quotes doubled. The writer ends lines with LF; the reader accepts LF and CRLF. The reader
/// refuses anything else — a wrong header, a stray quote, a missing field, a number that is not
/// finite, percentiles out of order, two rows for one metric — with an error naming the file and line.
public enum BenchmarkCSV {
    /// The header line's columns, in order.
    public static let columns = [
        "suite", "benchmark", "metric", "unit", "p50", "p90", "p99", "min", "max", "samples",
        "commit", "swift_version", "host", "timestamp",
    ]
    /// Files larger than this are refused before they are parsed (64 MiB).
    public static let maximumFileBytes = 64 * 1024 * 1024
    /// Lines longer than this are refused (64 KiB).
    public static let maximumLineBytes = 64 * 1024

    // MARK: Writing

    /// The CSV text of `rows`, header first.
    ///
    /// - Throws: ``BenchmarkCSVError`` with code `invalidValue` for a statistic that is not finite;
    ///   `file` is "<rows>" and `line` the line the row would have had.
    public static func render(rows: [BenchmarkRow]) throws(BenchmarkCSVError) -> String {
        var text = columns.joined(separator: ",") + "\n"
        for (index, row) in rows.enumerated() {
            let numbers = [row.p50, row.p90, row.p99, row.min, row.max]
            guard numbers.allSatisfy(\.isFinite) else {
                throw BenchmarkCSVError(
                    code: .invalidValue, file: "<rows>", line: index + 2,
                    message: "\(row.key) has a statistic that is not a finite number: \(numbers)"
                )
            }
            let fields = [row.suite, row.benchmark, row.metric, row.unit].map(quoted)
                + numbers.map(formatted)
                + [String(row.samples)]
                + [row.commit, row.swiftVersion, row.host, row.timestamp].map(quoted)
            text += fields.joined(separator: ",") + "\n"
        }
        return text
    }

    /// Writes `rows` to the file at `path`, creating its directory; the file is replaced atomically.
    public static func write(rows: [BenchmarkRow], to path: String) throws {
        let text = try render(rows: rows)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// `field`, quoted when it holds a comma, a quote, CR or LF.
    static func quoted(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The shortest text that reads back as `value`: integers without a fraction.
    static func formatted(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return value.description
    }

    // MARK: Reading

    /// The rows of the CSV file at `path`.
    ///
    /// - Throws: ``BenchmarkCSVError``; its description is one line naming `path` and the line.
    public static func read(from path: String) throws(BenchmarkCSVError) -> [BenchmarkRow] {
        try numberedRows(from: path).map(\.row)
    }

    /// The rows of `text`, the contents of the file named `file` (used in error messages).
    public static func parse(_ text: String, file: String) throws(BenchmarkCSVError) -> [BenchmarkRow] {
        try numberedRows(Array(text.utf8), file: file).map(\.row)
    }

    /// The rows of `bytes`, a file's contents as read; bytes that are not UTF-8 are an
    /// `invalidUTF8` error naming their line.
    public static func parse(_ bytes: [UInt8], file: String) throws(BenchmarkCSVError) -> [BenchmarkRow] {
        try numberedRows(bytes, file: file).map(\.row)
    }

    /// The rows of the file at `path`, each with the line it starts on.
    package static func numberedRows(from path: String) throws(BenchmarkCSVError) -> [(line: Int, row: BenchmarkRow)] {
        var bytes: [UInt8] = []
        do {
            try FileChunks.forEach(in: path) { chunk in
                guard bytes.count + chunk.count <= maximumFileBytes else {
                    throw BenchmarkCSVError(
                        code: .tooLarge, file: path, line: nil,
                        message: "file is larger than \(maximumFileBytes / (1024 * 1024)) MiB; is this a benchmark report?"
                    )
                }
                bytes.append(contentsOf: chunk)
            }
        } catch let error as BenchmarkCSVError {
            throw error
        } catch {
            // The error's description names the path already.
            throw BenchmarkCSVError(code: .unreadable, file: path, line: nil, message: "\(error)")
        }
        return try numberedRows(bytes, file: path)
    }

    /// The rows of `bytes`, each with the line it starts on.
    package static func numberedRows(_ bytes: [UInt8], file: String) throws(BenchmarkCSVError) -> [(line: Int, row: BenchmarkRow)] {
        guard bytes.count <= maximumFileBytes else {
            throw BenchmarkCSVError(code: .tooLarge, file: file, line: nil, message: "file is larger than \(maximumFileBytes / (1024 * 1024)) MiB")
        }
        var records = try CSVRecords.split(bytes, file: file)
        guard !records.isEmpty else {
            throw BenchmarkCSVError(code: .badHeader, file: file, line: 1, message: "file is empty; expected the header \(columns.joined(separator: ","))")
        }
        let header = records.removeFirst()
        if header.fields != columns {
            throw BenchmarkCSVError(
                code: .badHeader, file: file, line: header.line,
                message: "header is \"\(header.fields.joined(separator: ","))\", expected \"\(columns.joined(separator: ","))\""
            )
        }
        var rows: [(line: Int, row: BenchmarkRow)] = []
        var firstLine: [BenchmarkRow.Key: Int] = [:]
        for record in records {
            let row = try makeRow(record, file: file)
            if let previous = firstLine[row.key] {
                throw BenchmarkCSVError(
                    code: .duplicateRow, file: file, line: record.line,
                    message: "second row for \(row.key) (the first is on line \(previous)); a report has one row per benchmark and metric"
                )
            }
            firstLine[row.key] = record.line
            rows.append((record.line, row))
        }
        return rows
    }

    private static func makeRow(_ record: CSVRecords.Record, file: String) throws(BenchmarkCSVError) -> BenchmarkRow {
        let fields = record.fields
        guard fields.count == columns.count else {
            throw BenchmarkCSVError(
                code: .wrongFieldCount, file: file, line: record.line,
                message: "row has \(fields.count) fields, expected \(columns.count) (\(columns.joined(separator: ",")))"
            )
        }
        func invalid(_ message: String) -> BenchmarkCSVError {
            BenchmarkCSVError(code: .invalidValue, file: file, line: record.line, message: message)
        }
        func text(_ index: Int) throws(BenchmarkCSVError) -> String {
            guard !fields[index].isEmpty else { throw invalid("column '\(columns[index])' is empty") }
            return fields[index]
        }
        func number(_ index: Int) throws(BenchmarkCSVError) -> Double {
            let field = fields[index]
            let allowed = field.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || "+-.eE".utf8.contains($0) }
            guard allowed, let value = Double(field), value.isFinite else {
                throw invalid("column '\(columns[index])' is not a number: \"\(field)\"")
            }
            return value
        }
        let p50 = try number(4), p90 = try number(5), p99 = try number(6), min = try number(7), max = try number(8)
        guard min <= p50, p50 <= p90, p90 <= p99, p99 <= max else {
            throw invalid("statistics out of order: expected min <= p50 <= p90 <= p99 <= max, got \(min), \(p50), \(p90), \(p99), \(max)")
        }
        guard let samples = Int(fields[9]), samples >= 1 else {
            throw invalid("column 'samples' is not a positive whole number: \"\(fields[9])\"")
        }
        let timestamp = try text(13)
        guard (try? Date(timestamp, strategy: .iso8601)) != nil else {
            throw invalid("column 'timestamp' is not an ISO-8601 time like 2025-01-31T12:00:00Z: \"\(timestamp)\"")
        }
        return BenchmarkRow(
            suite: try text(0), benchmark: try text(1), metric: try text(2), unit: try text(3),
            p50: p50, p90: p90, p99: p99, min: min, max: max, samples: samples,
            commit: try text(10), swiftVersion: try text(11), host: try text(12), timestamp: timestamp
        )
    }
}
