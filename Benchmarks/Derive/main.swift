// lowband-bench-derive REPORT.csv [--out FILE]
// lowband-bench-derive --summary REPORT.csv
//
// Adds every suite's ratios and targets (Figures/) to a report written by `lowband bench import`
// (scripts/bench.sh runs it after the import): the derived rows, one `targets` row per target
// matched; prints them with the targets' table, then the suites' summary tables (codec × fixture,
// compressor × input). Rows it derives that the report already holds are replaced, so running it
// twice gives the same report. The derived rows carry the environment columns of the report's
// first row. `--summary` prints the summary tables of a finished report and writes nothing.
// Exit 0 whatever the targets' verdicts (the gate is `lowband compare`), 2 on bad input.
import BenchFigures
import Foundation
import LowbandReports

let figures = BenchFigures.all

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("lowband-bench-derive: \(message)\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let summaryOnly = arguments.contains("--summary")
arguments.removeAll { $0 == "--summary" }
var out: String?
if let index = arguments.firstIndex(of: "--out") {
    guard index + 1 < arguments.count else { fail("--out needs a file") }
    out = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
}
guard arguments.count == 1, let input = arguments.first, !input.hasPrefix("-") else {
    fail("usage: lowband-bench-derive REPORT.csv [--out FILE] (FILE defaults to REPORT.csv), or --summary REPORT.csv")
}
do {
    let rows = try BenchmarkCSV.read(from: input)
    if summaryOnly {
        print(PivotTable.render(figures.summaries, rows: rows), terminator: "")
        exit(0)
    }
    let measured = figures.measured(rows)
    let environment = measured.first.map(RunEnvironment.init(of:)) ?? RunEnvironment(timestamp: "")
    let report = figures.apply(to: measured, environment: environment)
    let destination = out ?? input
    try BenchmarkCSV.write(rows: report.all, to: destination)
    print(report.text() + "\nwrote \(report.all.count) rows to \(destination)")
    let summary = figures.summaries.compactMap { $0.render(report.all) }
    if !summary.isEmpty { print("\n" + summary.joined(separator: "\n"), terminator: "") }
} catch {
    fail("\(error)")
}
