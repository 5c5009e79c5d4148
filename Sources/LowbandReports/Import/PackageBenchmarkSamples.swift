import Foundation
import LowbandBasics

/// Reads the per-iteration samples package-benchmark writes with `--format histogramSamples` and
/// joins them to the rows of its influx export, or makes rows of them alone.
///
/// package-benchmark's influx export holds percentiles only. Of its other formats, `jmh` rounds to
/// microseconds and needs a throughput metric, `histogramEncoded` is the serialised HDR histogram,
/// and `histogramSamples` writes one file per benchmark and metric,
/// `BASELINE.TARGET.NAME.METRIC.histogram.samples.tsv` (in NAME `/` and spaces become `_`), whose
/// first line is the metric and its unit (`Time (wall clock) (μs)`; counts have none) and every
/// further line one sample, rounded to a whole number of that unit. Those samples are what
/// ``BenchmarkComparison`` tests. Mapping:
/// - suite, metric and unit as ``PackageBenchmarkImport`` maps them; times are converted to the
///   row's unit (`us` for `wall_clock`), and per-operation metrics divided by the benchmark's
///   `iterations_per_sample` like the influx rows;
/// - joined to an influx row when one's benchmark name, written as in the file name, is NAME:
///   the row's `samples` becomes the file's count, and only timing metrics
///   (``MetricGate/timing``) keep their samples (the others are gated by threshold). The influx
///   export writes one count per benchmark, its last metric's (by name), on every metric's rows:
///   a metric recorded fewer or more times than that one had another metric's count. At least
///   one file of each joined benchmark must have the export's count, or the files are from
///   another run;
/// - without an influx row, the row is made from the samples (nearest-rank percentiles) with
///   NAME as its benchmark name.
public enum PackageBenchmarkSamples {
    /// The suffix of the files this reads.
    public static let fileSuffix = ".histogram.samples.tsv"

    /// One file's samples.
    public struct File: Sendable, Hashable {
        /// The schema's suite, e.g. `startup` for the target `StartupBenchmarks`.
        public var suite: String
        /// The benchmark's name as the file name writes it (`cold-start_engine`).
        public var benchmark: String
        /// The schema's metric, e.g. `wall_clock` for package-benchmark's `wallClock`.
        public var metric: String
        /// The unit of ``values``, e.g. `us`.
        public var unit: String
        /// The samples in `unit`, one per iteration, not yet divided by `iterations_per_sample`.
        public var values: [Double]
    }

    /// Reads `bytes`, the contents of the file at `path` (whose name says target and benchmark).
    public static func file(_ bytes: [UInt8], path: String) throws(BenchmarkCSVError) -> File {
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard name.hasSuffix(fileSuffix) else {
            throw BenchmarkCSVError(code: .badHeader, file: path, line: nil, message: "not a package-benchmark histogramSamples file: the name does not end in \(fileSuffix)")
        }
        let parts = name.dropLast(fileSuffix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 4 else {
            throw BenchmarkCSVError(code: .badHeader, file: path, line: nil, message: "expected a name like BASELINE.TARGET.BENCHMARK.METRIC\(fileSuffix)")
        }
        let benchmark = parts[2..<(parts.count - 1)].joined(separator: ".")
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw BenchmarkCSVError(code: .invalidUTF8, file: path, line: nil, message: "not UTF-8 text")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        guard let header = lines.first else {
            throw BenchmarkCSVError(code: .badHeader, file: path, line: 1, message: "file is empty; expected a metric line such as \"Time (wall clock) (μs)\"")
        }
        let (description, sourceUnit) = splitHeader(header)
        let mapping = MetricMapping(packageBenchmarkMetric: description.filter { $0 != " " })
        guard let scale = scale(from: sourceUnit, to: mapping) else {
            throw BenchmarkCSVError(code: .invalidValue, file: path, line: 1, message: "unknown unit '\(sourceUnit)' for \(description)")
        }
        var values: [Double] = []
        values.reserveCapacity(lines.count - 1)
        for (offset, line) in lines.dropFirst().enumerated() {
            guard let value = Double(line.trimmingCharacters(in: .whitespaces)), value.isFinite else {
                throw BenchmarkCSVError(code: .invalidValue, file: path, line: offset + 2, message: "not a number: \"\(line)\"")
            }
            values.append(value * scale)
        }
        guard !values.isEmpty else {
            throw BenchmarkCSVError(code: .malformed, file: path, line: nil, message: "no samples after the metric line")
        }
        return File(suite: PackageBenchmarkImport.suiteName(target: String(parts[1])), benchmark: benchmark, metric: mapping.name, unit: mapping.unit, values: values)
    }

    /// `Time (wall clock) (μs)` → (`Time (wall clock)`, `μs`); `Malloc (total) ` → (`Malloc (total)`, ``).
    static func splitHeader(_ line: String) -> (description: String, unit: String) {
        // The line is "\(description) \(unit)": a count's empty unit leaves a trailing space.
        if line.hasSuffix(")"), let open = line.range(of: " (", options: .backwards) {
            let unit = line[open.upperBound...].dropLast()
            return (String(line[..<open.lowerBound]), String(unit))
        }
        return (line.trimmingCharacters(in: .whitespaces), "")
    }

    /// The factor from the file's unit to the row's unit, or nil for a unit not known.
    static func scale(from unit: String, to mapping: MetricMapping) -> Double? {
        let nanoseconds: [String: Double] = ["ns": 1, "μs": 1_000, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000]
        let counts: [String: Double] = ["": 1, "#": 1, "K": 1_000, "M": 1_000_000, "G": 1_000_000_000]
        if let source = nanoseconds[unit] {
            // Rows keep package-benchmark's raw nanoseconds over `divisor` (1000 for `us`).
            guard MetricGate.timeUnits.contains(mapping.unit.lowercased()) else { return source }
            return source / mapping.divisor
        }
        return counts[unit]
    }

    /// `cold-start/engine` as package-benchmark writes it in a file name: `cold-start_engine`.
    public static func fileName(ofBenchmark name: String) -> String {
        name.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: " ", with: "_")
    }

    /// `rows` (from influx exports) with the samples of `files` attached, plus rows made from the
    /// files that match no row, sorted by suite, benchmark and metric.
    ///
    /// - Throws: ``BenchmarkCSVError`` when a file's sample count differs from its row's, or when
    ///   two rows or two files claim one benchmark and metric.
    public static func joining(_ files: [(path: String, file: File)], to rows: [BenchmarkRow], environment: RunEnvironment) throws(BenchmarkCSVError) -> [BenchmarkRow] {
        var result = rows
        var byFileName: [BenchmarkRow.Key: Int] = [:]
        for (index, row) in rows.enumerated() {
            let key = BenchmarkRow.Key(suite: row.suite, benchmark: fileName(ofBenchmark: row.benchmark), metric: row.metric)
            byFileName[key] = index
        }
        // Repeats per sample, by benchmark as the files name it, from the rows or from the files.
        var repeats: [String: Double] = [:]
        for row in rows where row.metric == "iterations_per_sample" {
            repeats[row.suite + "/" + fileName(ofBenchmark: row.benchmark)] = row.p50
        }
        for (_, file) in files where file.metric == "iterations_per_sample" && repeats[file.suite + "/" + file.benchmark] == nil {
            repeats[file.suite + "/" + file.benchmark] = Self.median(file.values)
        }
        var seen: [BenchmarkRow.Key: String] = [:]
        var made: [BenchmarkRow] = []
        // Per joined benchmark (suite/name as in file names): the export's count, whether a file
        // had it, and a file to name in the error.
        var exportCounts: [String: (count: Int, matched: Bool, path: String)] = [:]
        for (path, file) in files {
            let key = BenchmarkRow.Key(suite: file.suite, benchmark: file.benchmark, metric: file.metric)
            if let first = seen[key] {
                throw BenchmarkCSVError(code: .duplicateRow, file: path, line: nil, message: "samples of \(key) are also in \(first); import each run once")
            }
            seen[key] = path
            var values = file.values
            if MetricMapping.perOperation.contains(file.metric), let divisor = repeats[file.suite + "/" + file.benchmark], divisor >= 1 {
                values = values.map { $0 / divisor }
            }
            if let index = byFileName[key] {
                let benchmark = file.suite + "/" + file.benchmark
                var export = exportCounts[benchmark] ?? (result[index].samples, false, path)
                export.matched = export.matched || values.count == export.count
                exportCounts[benchmark] = export
                result[index].samples = values.count
                guard MetricGate(metric: file.metric, unit: result[index].unit) == .timing else { continue }
                result[index].sampleValues = values
            } else {
                var row = BenchmarkRow(suite: file.suite, benchmark: file.benchmark, metric: file.metric, unit: file.unit, samples: values, environment: environment)
                row.sampleValues = values
                made.append(row)
            }
        }
        for (benchmark, export) in exportCounts.sorted(by: { $0.key < $1.key }) where !export.matched {
            throw BenchmarkCSVError(code: .invalidValue, file: export.path, line: nil, message: "no samples file of \(benchmark) has the \(export.count) iterations its influx export has; are the files from two runs?")
        }
        return (result + made).sorted { $0.key < $1.key }
    }

    /// The nearest-rank median (LowbandBasics' `Percentile`), as the row's p50 is; 0 without samples.
    static func median(_ values: [Double]) -> Double {
        Percentile.median(values) ?? 0
    }
}
