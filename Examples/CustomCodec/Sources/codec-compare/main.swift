// codec-compare [--samples N] [--out FILE]
//
// Registers SortedKeysJSONCodec beside Lowband's six codecs, measures every fixture × codec and
// prints the rows in Lowband's CSV schema (or writes them to FILE), then the codec suite's
// tables against JSON. `lowband compare` reads the file like any benchmark report.
import BenchFigures
import CodecBench
import Foundation
import LowbandReports
import SortedJSON

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("codec-compare: \(message)\n".utf8))
    exit(2)
}

var samples = 50
var out: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--samples":
        guard let value = arguments.popFirst(), let count = Int(value), count > 0 else { fail("--samples needs a positive whole number") }
        samples = count
    case "--out":
        guard let value = arguments.popFirst() else { fail("--out needs a file") }
        out = value
    default:
        fail("unknown argument '\(argument)'; usage: codec-compare [--samples N] [--out FILE]")
    }
}

var environment = RunEnvironment.current()
environment.command = RunEnvironment.shellCommand(["codec-compare"] + CommandLine.arguments.dropFirst())
do {
    let report = try CodecComparison.run(
        codecs: CodecRegistry.builtIn + [SortedKeysJSONCodec()], samples: samples, environment: environment
    )
    if let out {
        try BenchmarkCSV.write(rows: report.all, to: out)
        print("wrote \(report.all.count) rows to \(out)")
    } else {
        print(try BenchmarkCSV.render(rows: report.all), terminator: "")
    }
    print("\n" + PivotTable.render(CodecFigures.summaries, rows: report.all), terminator: "")
} catch {
    fail("\(error)")
}
