public import ArgumentParser
import Foundation
public import LowbandReports

/// `lowband bench`: turns package-benchmark's results into the one benchmark report schema.
///
/// The benchmarks themselves are package-benchmark targets under Benchmarks/ (run by
/// `make bench`, which calls `scripts/bench.sh`); package-benchmark has no CSV export, so
/// `lowband bench import` converts its Influx export, adds the ratios between benchmarks of the
/// same run and the targets, writes the CSV and prints the tables.
public struct BenchCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Convert package-benchmark results into a benchmark CSV report (run them with `make bench`).",
        subcommands: [BenchImportCommand.self, BenchSummaryCommand.self]
    )

    public init() {}
}

/// `lowband bench import INFLUX.csv|SAMPLES.tsv|DIRECTORY… --out REPORT.csv`.
public struct BenchImportCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert any package's package-benchmark results into a report: rows, samples, ratios and targets.",
        discussion: """
            Reads files written by `swift package benchmark --format influx` (percentiles) and by \
            `--format histogramSamples` (*.histogram.samples.tsv: every iteration's value), or \
            directories holding them, from any package's benchmarks. Maps every benchmark and metric \
            onto one row of the schema in docs/BENCHMARKS.md; the samples of timing rows are written \
            next to the report (REPORT.samples.csv) so `lowband compare` can test them. Adds the ratios \
            between benchmarks of the same run (speed-ups against JSON, hand wiring against the \
            container, time over the physical floor, …) and one `targets` row per promised figure \
            (attainment: 1 or more is met). Writes the CSV and prints the rows and the targets.
            """
    )

    @Argument(help: "package-benchmark exports: influx (*.influx.csv), histogramSamples (*.histogram.samples.tsv), or directories of them.")
    public var files: [String]

    @Option(help: "Where to write the report.")
    public var out = "reports/bench.csv"

    @Flag(help: "Leave out the targets rows and table.")
    public var noTargets = false

    public init() {}

    public func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one influx export, samples file or directory") }
    }

    public func run() throws {
        let name = "lowband bench import"
        let environment = RunEnvironment.current()
        do {
            let rows = try Self.report(files: files, environment: environment, targets: !noTargets)
            try BenchmarkCSV.write(rows: rows.all, to: out)
            var text = BenchmarkRow.table(rows.measured + rows.derived)
            if !rows.outcomes.isEmpty {
                text += "\n" + BenchmarkTarget.table(rows.outcomes)
                let missed = rows.outcomes.count { !$0.met }
                text += "\n\(rows.outcomes.count - missed) of \(rows.outcomes.count) targets met\n"
            }
            text += "\nwrote \(rows.all.count) rows to \(out)\n"
            try CommandIO.write(text)
        } catch {
            throw CommandIO.failure(error, command: name)
        }
    }

    /// The measured rows of every file, the derived ratios and the targets' outcomes.
    public struct Report: Sendable {
        public var measured: [BenchmarkRow]
        public var derived: [BenchmarkRow]
        public var outcomes: [BenchmarkTarget.Outcome]
        public var targetRows: [BenchmarkRow]
        public var all: [BenchmarkRow] { measured + derived + targetRows }
    }

    /// Reads `files` (influx exports, histogramSamples files, directories of either), refusing a
    /// benchmark and metric that two files both report.
    public static func report(files: [String], environment: RunEnvironment, targets: Bool = true) throws -> Report {
        var measured: [BenchmarkRow] = []
        var origin: [BenchmarkRow.Key: String] = [:]
        var influx: [String] = []
        var samples: [(path: String, file: PackageBenchmarkSamples.File)] = []
        for path in try expanded(files) {
            if path.hasSuffix(PackageBenchmarkSamples.fileSuffix) {
                samples.append((path, try PackageBenchmarkSamples.file(try CommandIO.readAll(from: path), path: path)))
            } else {
                influx.append(path)
            }
        }
        for file in influx {
            let bytes = try CommandIO.readAll(from: file)
            for row in try PackageBenchmarkImport.rows(fromInflux: bytes, file: file, environment: environment) {
                if let first = origin[row.key] {
                    throw BenchmarkCSVError(code: .duplicateRow, file: file, line: nil, message: "\(row.key) is also in \(first); import each run once")
                }
                origin[row.key] = file
                measured.append(row)
            }
        }
        if !samples.isEmpty {
            measured = try PackageBenchmarkSamples.joining(samples, to: measured, environment: environment)
        }
        let derived = DerivedFigures.rows(from: measured, environment: environment)
        let outcomes = targets ? BenchmarkTarget.evaluate(rows: measured + derived) : []
        return Report(measured: measured, derived: derived, outcomes: outcomes, targetRows: BenchmarkTarget.rows(outcomes, environment: environment))
    }

    /// `paths` with each directory replaced by its influx exports and samples files, sorted.
    static func expanded(_ paths: [String]) throws -> [String] {
        var result: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                result.append(path)
                continue
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            let chosen = names.filter { $0.hasSuffix(".influx.csv") || $0.hasSuffix(PackageBenchmarkSamples.fileSuffix) }
            guard !chosen.isEmpty else {
                throw BenchmarkCSVError(code: .unreadable, file: path, line: nil, message: "directory holds no *.influx.csv or *\(PackageBenchmarkSamples.fileSuffix) file")
            }
            result += chosen.map { (path as NSString).appendingPathComponent($0) }
        }
        return result
    }
}

/// `lowband bench summary REPORT.csv`: codec × fixture and compressor × input at a glance.
public struct BenchSummaryCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Print a benchmark report's codec × fixture and compressor × input tables.",
        discussion: """
            Reads a report written by `lowband bench import` (scripts/bench.sh prints this at its \
            end) and prints the ratios a reader compares: each codec's speed-up and size against \
            JSON per fixture, each compressor's size and throughput per input (p50).
            """
    )

    @Argument(help: "A benchmark report (CSV).")
    public var report: String

    public init() {}

    public func run() throws {
        let command = "lowband bench summary"
        do {
            try CommandIO.write(BenchSummary.render(try BenchmarkCSV.read(from: report)))
        } catch {
            throw CommandIO.failure(error, command: command)
        }
    }
}
