import Foundation

/// The raw samples of a report, kept in a file of their own next to it.
///
/// `REPORT.csv` keeps its one line per metric (and its 64 KiB line limit); the samples of the rows
/// that have them go to `REPORT.samples.csv`, one line per sample:
///
/// ```
/// suite,benchmark,metric,value
/// startup,cold-start/engine,wall_clock,1834.2
/// ```
///
/// values in the row's unit, in any order. A report without that file is read as before, its rows
/// without samples. Reading checks that every sample belongs to a row of the report and that a
/// row's samples are exactly as many as its `samples` column says, so a samples file left over
/// from another run is refused rather than compared.
extension BenchmarkCSV {
    /// The header of a samples file.
    public static let sampleColumns = ["suite", "benchmark", "metric", "value"]

    /// The samples file that belongs to the report at `path`: `x.csv` → `x.samples.csv`.
    public static func samplesPath(for path: String) -> String {
        (path.hasSuffix(".csv") ? String(path.dropLast(4)) : path) + ".samples.csv"
    }

    /// The samples file's text for the rows of `rows` that have samples, header first; nil when
    /// none has.
    public static func renderSamples(rows: [BenchmarkRow]) throws(BenchmarkCSVError) -> String? {
        guard rows.contains(where: { $0.sampleValues != nil }) else { return nil }
        var text = sampleColumns.joined(separator: ",") + "\n"
        for (index, row) in rows.enumerated() {
            guard let values = row.sampleValues else { continue }
            guard values.allSatisfy(\.isFinite) else {
                throw BenchmarkCSVError(code: .invalidValue, file: "<rows>", line: index + 2, message: "\(row.key) has a sample that is not a finite number")
            }
            let prefix = [row.suite, row.benchmark, row.metric].map(quoted).joined(separator: ",") + ","
            for value in values {
                text += prefix + formatted(value) + "\n"
            }
        }
        return text
    }

    /// Attaches the samples of the file next to `reportPath`, if there is one, to `reading`'s rows,
    /// adding every problem of that file to its errors.
    static func attachingSamples(to reading: BenchmarkCSVReading, reportPath: String) -> BenchmarkCSVReading {
        let path = samplesPath(for: reportPath)
        guard reading.errors.isEmpty, FileManager.default.fileExists(atPath: path) else { return reading }
        var result = reading
        var bytes: [UInt8] = []
        do {
            try FileChunks.forEach(in: path) { chunk in
                guard bytes.count + chunk.count <= maximumFileBytes else {
                    throw BenchmarkCSVError(code: .tooLarge, file: path, line: nil, message: "file is larger than \(maximumFileBytes / (1024 * 1024)) MiB")
                }
                bytes.append(contentsOf: chunk)
            }
        } catch {
            result.errors.append(error as? BenchmarkCSVError ?? BenchmarkCSVError(code: .unreadable, file: path, line: nil, message: "\(error)"))
            return result
        }
        var errors = BenchmarkCSVErrors()
        let samples = parseSamples(bytes, file: path, errors: &errors)
        for (key, values) in samples.values {
            guard let index = result.rows.firstIndex(where: { $0.row.key == key }) else {
                errors.append(BenchmarkCSVError(code: .invalidValue, file: path, line: samples.firstLine[key], message: "samples for \(key), which \(reportPath) has no row for; is this samples file from another run?"))
                continue
            }
            let row = result.rows[index].row
            guard values.count == row.samples else {
                errors.append(BenchmarkCSVError(code: .invalidValue, file: path, line: samples.firstLine[key], message: "\(values.count) samples for \(key) but \(reportPath):\(result.rows[index].line) says \(row.samples); is this samples file from another run?"))
                continue
            }
            result.rows[index].row.sampleValues = values
        }
        result.errors = .merged(result.errors, errors)
        return result
    }

    /// The samples of `bytes` by key, with the line each key first appears on.
    static func parseSamples(_ bytes: [UInt8], file: String, errors: inout BenchmarkCSVErrors) -> (values: [(BenchmarkRow.Key, [Double])], firstLine: [BenchmarkRow.Key: Int]) {
        var records = CSVRecords.split(bytes, file: file, errors: &errors)
        guard let header = records.first, header.line == 1, header.fields == sampleColumns else {
            if errors.isEmpty {
                errors.append(BenchmarkCSVError(code: .badHeader, file: file, line: 1, message: "expected the header \(sampleColumns.joined(separator: ","))"))
            }
            return ([], [:])
        }
        records.removeFirst()
        var order: [BenchmarkRow.Key] = []
        var values: [BenchmarkRow.Key: [Double]] = [:]
        var firstLine: [BenchmarkRow.Key: Int] = [:]
        for record in records {
            guard record.fields.count == sampleColumns.count else {
                errors.append(BenchmarkCSVError(code: .wrongFieldCount, file: file, line: record.line, message: "row has \(record.fields.count) fields, expected 4 (\(sampleColumns.joined(separator: ",")))"))
                continue
            }
            guard let value = Double(record.fields[3]), value.isFinite else {
                errors.append(BenchmarkCSVError(code: .invalidValue, file: file, line: record.line, message: "column 'value' is not a number: \"\(record.fields[3])\""))
                continue
            }
            let key = BenchmarkRow.Key(suite: record.fields[0], benchmark: record.fields[1], metric: record.fields[2])
            if values[key] == nil {
                order.append(key)
                firstLine[key] = record.line
            }
            values[key, default: []].append(value)
        }
        return (order.map { ($0, values[$0] ?? []) }, firstLine)
    }
}
