import Foundation
import LowbandBasics

/// Writes and strictly reads benchmark reports in the one CSV schema (docs/BENCHMARKS.md).
///
/// The format is RFC 4180: comma-separated, a field holding a comma, a quote, CR or LF is quoted
/// and its quotes doubled. The writer ends lines with LF; the reader accepts LF and CRLF. The reader
/// refuses anything else — a wrong header, a stray quote, a missing field, a number that is not
/// finite, percentiles out of order, two rows for one metric — with an error naming the file and line;
/// ``reading(from:)`` lists every such error of a file, not only the first. Only the environment
/// columns (``environmentColumns``) may be empty, for reports written by other programs.
public enum BenchmarkCSV {
    /// The header line's columns, in order. `commit` is the measured code's (the program
    /// `lowband startup` timed, else Lowband itself); `lowband_commit` is Lowband's own.
    public static let columns = commandColumns + ["lowband_commit"]
    /// The columns of reports written before the `lowband_commit` column: still read, with
    /// Lowband's commit empty.
    public static let commandColumns = legacyColumns + ["command"]
    /// The columns of reports written before the `command` column: still read, with an empty
    /// command (the committed baselines are such files).
    public static let legacyColumns = [
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
                + [row.commit, row.swiftVersion, row.host, row.timestamp, row.command, row.lowbandCommit].map(quoted)
            text += fields.joined(separator: ",") + "\n"
        }
        return text
    }

    /// Writes `rows` to the file at `path`, creating its directory; the file is replaced atomically.
    ///
    /// The samples of rows that have them go to ``samplesPath(for:)``; a samples file of an earlier
    /// report at that path is removed when no row has samples, so it is never read with new rows.
    public static func write(rows: [BenchmarkRow], to path: String) throws {
        let text = try render(rows: rows)
        let samples = try renderSamples(rows: rows)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let samplesPath = samplesPath(for: path)
        if let samples {
            try samples.write(toFile: samplesPath, atomically: true, encoding: .utf8)
        } else if FileManager.default.fileExists(atPath: samplesPath) {
            try FileManager.default.removeItem(atPath: samplesPath)
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// `field` as RFC 4180 writes it (LowbandBasics' `CSVWriter`).
    static func quoted(_ field: String) -> String {
        CSVWriter.field(field)
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
    ///
    /// - Throws: the first problem of the file; ``reading(from:)`` has them all.
    package static func numberedRows(from path: String) throws(BenchmarkCSVError) -> [(line: Int, row: BenchmarkRow)] {
        let reading = reading(from: path)
        if let first = reading.errors.listed.first { throw first }
        return reading.rows
    }

    /// The rows of `bytes`, each with the line it starts on.
    ///
    /// - Throws: the first problem of the bytes; ``reading(_:file:)`` has them all.
    package static func numberedRows(_ bytes: [UInt8], file: String) throws(BenchmarkCSVError) -> [(line: Int, row: BenchmarkRow)] {
        let reading = reading(bytes, file: file)
        if let first = reading.errors.listed.first { throw first }
        return reading.rows
    }
}
