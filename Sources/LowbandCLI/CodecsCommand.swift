import ArgumentParser
import Foundation
import LowbandCodecs
import LowbandReports

/// `lowband codecs compare FILE…`: a user's own payloads sized and timed in each format.
struct CodecsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codecs",
        abstract: "Compare wire formats on your own payloads.",
        subcommands: [Compare.self]
    )

    init() {}

    struct Compare: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compare",
            abstract: "Size and time your payloads as JSON, JSON+zlib, MessagePack, MessagePack+LZ4 and MessagePack+LZ4 with a dictionary.",
            discussion: """
                Each FILE holds JSON documents (one, or many separated by whitespace or line breaks) or \
                MessagePack values (a file that does not open with JSON). Every payload is written in each \
                format, read back and checked, and timed: bytes, bytes over its compact JSON, and the time to \
                encode and decode it. The dictionary is built from every other payload and measured on the \
                rest. Writes rows in the benchmark CSV schema (suite codecs, benchmark the format) with every \
                payload's value beside them, so `lowband compare` gates a format change.

                Example: lowband codecs compare messages/*.json --out reports/codecs.csv
                """
        )

        @Argument(help: "Files of JSON documents or MessagePack values.")
        var files: [String] = []

        @Option(help: "The CSV file to write.")
        var out: String = "reports/codecs.csv"

        init() {}

        static let name = "lowband codecs compare"

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one file of JSON documents or MessagePack values") }
        }

        func run() throws {
            var set = PayloadSet()
            do {
                for file in files { try set.add(file: file) }
                let comparison = try CodecComparison(set)
                let folder = (out as NSString).deletingLastPathComponent
                if !folder.isEmpty { try OutputDirectory.prepare(folder, option: "--out") }
                try BenchmarkCSV.write(rows: comparison.rows(environment: RunEnvironment.current()), to: out)
                try CommandIO.write(comparison.report(files: set.files) + "wrote \(out)\n")
            } catch {
                throw CommandIO.failure(error, command: Self.name)
            }
        }
    }
}
