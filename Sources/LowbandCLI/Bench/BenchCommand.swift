import ArgumentParser
import Foundation
import LowbandReports

/// `lowband bench`: turns package-benchmark's results into the one benchmark report schema.
///
/// The benchmarks themselves are package-benchmark targets of the nested package Benchmarks/
/// (run by `make bench`, which calls `scripts/bench.sh`); package-benchmark has no CSV export, so
/// `lowband bench import` converts its influx and histogramSamples exports into rows and their
/// samples and writes the CSV. The ratios and targets are each benchmark kit's own:
/// Benchmarks/' `lowband-bench-derive` adds them.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Convert package-benchmark results into a benchmark CSV report (run them with `make bench`).",
        subcommands: [BenchImportCommand.self]
    )

    init() {}
}

/// `lowband bench import INFLUX.csv|SAMPLES.tsv|DIRECTORY… --out REPORT.csv`.
struct BenchImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert any package's package-benchmark results into a report and its samples.",
        discussion: """
            Reads files written by `swift package benchmark --format influx` (percentiles) and by \
            `--format histogramSamples` (*.histogram.samples.tsv: every iteration's value), or \
            directories holding them, from any package's benchmarks. Maps every benchmark and metric \
            onto one row of the schema in docs/BENCHMARKS.md; the samples of timing rows are written \
            next to the report (REPORT.samples.csv) so `lowband compare` can test them. Writes the CSV \
            and prints the rows. Ratios between benchmarks and targets are declared by Lowband's \
            benchmark kits and added by Benchmarks/' `lowband-bench-derive` (scripts/bench.sh runs both).
            """
    )

    @Argument(help: "package-benchmark exports: influx (*.influx.csv), histogramSamples (*.histogram.samples.tsv), or directories of them.")
    var files: [String]

    @Option(help: "Where to write the report.")
    var out = "reports/bench.csv"

    init() {}

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one influx export, samples file or directory") }
    }

    func run() throws {
        let name = "lowband bench import"
        let environment = RunEnvironment.current()
        do {
            let rows = try Self.rows(files: files, environment: environment)
            try BenchmarkCSV.write(rows: rows, to: out)
            let text = BenchmarkRow.table(rows) + "\nwrote \(rows.count) rows to \(out)\n"
            try CommandIO.write(text)
        } catch {
            throw CommandIO.failure(error, command: name)
        }
    }

    /// Reads `files` (influx exports, histogramSamples files, directories of either), refusing a
    /// benchmark and metric that two files both report; timing rows carry their samples when a
    /// histogramSamples file has them.
    static func rows(files: [String], environment: RunEnvironment) throws -> [BenchmarkRow] {
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
        return measured
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
