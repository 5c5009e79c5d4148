public import ArgumentParser
import Foundation
public import LowbandReports

/// `lowband bench`: turns package-benchmark's results into the one benchmark report schema.
///
/// The benchmarks themselves are package-benchmark targets of the nested package Benchmarks/
/// (run by `make bench`, which calls `scripts/bench.sh`); package-benchmark has no CSV export, so
/// `lowband bench import` converts its Influx export into rows and writes the CSV. The ratios and
/// targets are each benchmark kit's own: Benchmarks/' `lowband-bench-derive` adds them.
public struct BenchCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Convert package-benchmark results into a benchmark CSV report (run them with `make bench`).",
        subcommands: [BenchImportCommand.self]
    )

    public init() {}
}

/// `lowband bench import INFLUX.csv… --out REPORT.csv`.
public struct BenchImportCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert package-benchmark's influx export into a report.",
        discussion: """
            Reads one or more files written by `swift package benchmark --format influx`, maps every \
            benchmark and metric onto one row of the schema in docs/BENCHMARKS.md, writes the CSV and \
            prints the rows. Ratios between benchmarks and targets are declared by the benchmark kits \
            and added by Benchmarks/' `lowband-bench-derive` (scripts/bench.sh runs both).
            """
    )

    @Argument(help: "Influx exports of package-benchmark (Current_run.influx.csv).")
    public var files: [String]

    @Option(help: "Where to write the report.")
    public var out = "reports/bench.csv"

    public init() {}

    public func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one influx export") }
    }

    public func run() throws {
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

    /// Reads `files`, refusing a benchmark and metric that two files both report.
    public static func rows(files: [String], environment: RunEnvironment) throws -> [BenchmarkRow] {
        var measured: [BenchmarkRow] = []
        var origin: [BenchmarkRow.Key: String] = [:]
        for file in files {
            let bytes = try CommandIO.readAll(from: file)
            for row in try PackageBenchmarkImport.rows(fromInflux: bytes, file: file, environment: environment) {
                if let first = origin[row.key] {
                    throw BenchmarkCSVError(code: .duplicateRow, file: file, line: nil, message: "\(row.key) is also in \(first); import each run once")
                }
                origin[row.key] = file
                measured.append(row)
            }
        }
        return measured
    }
}
