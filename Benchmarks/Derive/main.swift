// lowband-bench-derive REPORT.csv [--out FILE]
//
// Adds every benchmark kit's ratios and targets to a report written by `lowband bench import`
// (scripts/bench.sh runs it after the import): the derived rows, one `targets` row per target
// matched, then prints them with the targets' table. Rows it derives that the report already
// holds are replaced, so running it twice gives the same report. The derived rows carry the
// environment columns of the report's first row. Exit 0 whatever the targets' verdicts (the
// gate is `lowband compare`), 2 on bad input.
import Foundation
import CodecBench
import CompressionBench
import LowbandReports
import PushBench
import StartupBench

/// Every kit's declarations, in the order their rows are written.
let figures = CodecFigures.declared + CompressionFigures.declared + StartupFigures.declared + PushFigures.declared

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("lowband-bench-derive: \(message)\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var out: String?
if let index = arguments.firstIndex(of: "--out") {
    guard index + 1 < arguments.count else { fail("--out needs a file") }
    out = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
}
guard arguments.count == 1, let input = arguments.first, !input.hasPrefix("-") else {
    fail("usage: lowband-bench-derive REPORT.csv [--out FILE] (FILE defaults to REPORT.csv)")
}
do {
    let measured = figures.measured(try BenchmarkCSV.read(from: input))
    let environment = measured.first.map(RunEnvironment.init(of:)) ?? RunEnvironment(timestamp: "")
    let report = figures.apply(to: measured, environment: environment)
    let destination = out ?? input
    try BenchmarkCSV.write(rows: report.all, to: destination)
    print(report.text() + "\nwrote \(report.all.count) rows to \(destination)", terminator: "\n")
} catch {
    fail("\(error)")
}
