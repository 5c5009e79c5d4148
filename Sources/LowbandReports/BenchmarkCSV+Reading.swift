import Foundation

/// What reading one benchmark CSV found: the rows that read, and every problem, in line order.
///
/// A file with problems is not to be used: ``rows`` then holds only the rows that read cleanly,
/// so that each problem is reported once and not echoed by a later check.
public struct BenchmarkCSVReading: Sendable {
    /// The rows that read, each with the line it starts on.
    public var rows: [(line: Int, row: BenchmarkRow)]
    /// Every problem of the file; empty when the file is a valid report.
    public var errors: BenchmarkCSVErrors
}

extension BenchmarkCSV {
    /// The columns a file from another program may leave empty: where and when it ran. The
    /// columns that identify and carry the measurement are never empty.
    public static let environmentColumns: Set<String> = ["commit", "swift_version", "host", "timestamp", "command", "lowband_commit"]

    /// Reads the file at `path` and collects every problem instead of stopping at the first; the
    /// rows carry their samples when a samples file lies next to it (``samplesPath(for:)``).
    public static func reading(from path: String) -> BenchmarkCSVReading {
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
        } catch {
            // The error's `file` names the path; a FileChunks error says what failed and why.
            let failure = error as? BenchmarkCSVError ?? BenchmarkCSVError(code: .unreadable, file: path, line: nil, message: "\(error)")
            var errors = BenchmarkCSVErrors()
            errors.append(failure)
            return BenchmarkCSVReading(rows: [], errors: errors)
        }
        return attachingSamples(to: reading(bytes, file: path), reportPath: path)
    }

    /// Reads `bytes`, the contents of the file named `file` (used in messages), and collects every
    /// problem: each malformed record, each wrong field of each row, each duplicate.
    ///
    /// A wrong header, an empty file, a file over 64 MiB or a line over 64 KiB is the only problem
    /// reported: without a trustworthy header nothing after it can be read.
    public static func reading(_ bytes: [UInt8], file: String) -> BenchmarkCSVReading {
        var errors = BenchmarkCSVErrors()
        guard bytes.count <= maximumFileBytes else {
            errors.append(BenchmarkCSVError(code: .tooLarge, file: file, line: nil, message: "file is larger than \(maximumFileBytes / (1024 * 1024)) MiB"))
            return BenchmarkCSVReading(rows: [], errors: errors)
        }
        var records = CSVRecords.split(bytes, file: file, errors: &errors)
        guard let header = records.first, header.line == 1 else {
            if errors.isEmpty {
                errors.append(BenchmarkCSVError(code: .badHeader, file: file, line: 1, message: "file is empty; expected the header \(columns.joined(separator: ","))"))
            }
            return BenchmarkCSVReading(rows: [], errors: errors)
        }
        records.removeFirst()
        let expected = [legacyColumns, commandColumns].first { $0 == header.fields } ?? columns
        if header.fields != expected {
            var headerOnly = BenchmarkCSVErrors()
            headerOnly.append(BenchmarkCSVError(
                code: .badHeader, file: file, line: header.line,
                message: Self.looksLikeCSVHeader(header.fields)
                    ? "header is \"\(header.fields.joined(separator: ","))\", expected \"\(columns.joined(separator: ","))\""
                    : "not a benchmark CSV: its first line is \"\(String(header.fields.joined(separator: ",").prefix(60)))\"; a benchmark CSV starts with the header \(columns.prefix(4).joined(separator: ",")),…"
            ))
            return BenchmarkCSVReading(rows: [], errors: headerOnly)
        }
        var rows: [(line: Int, row: BenchmarkRow)] = []
        var firstLine: [BenchmarkRow.Key: Int] = [:]
        // Record errors and row errors arrive separately; merged by line, they read top to bottom.
        var rowErrors = BenchmarkCSVErrors()
        for record in records {
            guard let row = makeRow(record, columns: expected, file: file, errors: &rowErrors) else { continue }
            if let previous = firstLine[row.key] {
                rowErrors.append(BenchmarkCSVError(
                    code: .duplicateRow, file: file, line: record.line,
                    message: "second row for \(row.key) (the first is on line \(previous)); a report has one row per benchmark and metric"
                ))
                continue
            }
            firstLine[row.key] = record.line
            rows.append((record.line, row))
        }
        return BenchmarkCSVReading(rows: rows, errors: .merged(errors, rowErrors))
    }

    /// The row of `record`, or nil after appending one error per wrong field to `errors`.
    private static func makeRow(_ record: CSVRecords.Record, columns: [String], file: String, errors: inout BenchmarkCSVErrors) -> BenchmarkRow? {
        let fields = record.fields
        guard fields.count == columns.count else {
            errors.append(BenchmarkCSVError(
                code: .wrongFieldCount, file: file, line: record.line,
                message: "row has \(fields.count) fields, expected \(columns.count) (\(columns.joined(separator: ",")))"
            ))
            return nil
        }
        let errorsBefore = errors.count
        func invalid(_ message: String) {
            errors.append(BenchmarkCSVError(code: .invalidValue, file: file, line: record.line, message: message))
        }
        func text(_ index: Int) -> String {
            if fields[index].isEmpty, !environmentColumns.contains(columns[index]) {
                invalid("column '\(columns[index])' is empty")
            }
            return fields[index]
        }
        func number(_ index: Int) -> Double? {
            let field = fields[index]
            let allowed = field.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || "+-.eE".utf8.contains($0) }
            guard allowed, let value = Double(field), value.isFinite else {
                invalid("column '\(columns[index])' is not a number: \"\(field)\"")
                return nil
            }
            return value
        }
        let suite = text(0), benchmark = text(1), metric = text(2), unit = text(3)
        let p50 = number(4), p90 = number(5), p99 = number(6), min = number(7), max = number(8)
        if let p50, let p90, let p99, let min, let max, !(min <= p50 && p50 <= p90 && p90 <= p99 && p99 <= max) {
            invalid("statistics out of order: expected min <= p50 <= p90 <= p99 <= max, got \(min), \(p50), \(p90), \(p99), \(max)")
        }
        let samples = Int(fields[9]).flatMap { $0 >= 1 ? $0 : nil }
        if samples == nil {
            invalid("column 'samples' is not a positive whole number: \"\(fields[9])\"")
        }
        let timestamp = text(13)
        if !timestamp.isEmpty, (try? Date(timestamp, strategy: .iso8601)) == nil {
            invalid("column 'timestamp' is not an ISO-8601 time like 2025-01-31T12:00:00Z (or empty): \"\(timestamp)\"")
        }
        guard errors.count == errorsBefore, let p50, let p90, let p99, let min, let max, let samples else { return nil }
        return BenchmarkRow(
            suite: suite, benchmark: benchmark, metric: metric, unit: unit,
            p50: p50, p90: p90, p99: p99, min: min, max: max, samples: samples,
            commit: text(10), swiftVersion: text(11), host: text(12), timestamp: timestamp,
            command: columns.count > 14 ? text(14) : "",
            lowbandCommit: columns.count > 15 ? text(15) : ""
        )
    }

    /// Whether a first line is a benchmark CSV header gone wrong (some of the columns, in
    /// another order or version) rather than some other file.
    static func looksLikeCSVHeader(_ fields: [String]) -> Bool {
        Set(fields).intersection(columns).count >= 2
    }
}
