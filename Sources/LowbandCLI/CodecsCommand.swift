import ArgumentParser
import Foundation
import LowbandCodecs
import LowbandProfiles
import LowbandReports
import LowbandShaper

/// `lowband codecs compare FILE…`: a user's own payloads sized, timed and priced on the air in
/// each format.
struct CodecsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codecs",
        abstract: "Compare wire formats on your own payloads.",
        subcommands: [Compare.self, Count.self]
    )

    init() {}

    struct Compare: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compare",
            abstract: "Size, time, count and price on the air your payloads as JSON, MessagePack, CBOR and protobuf by your .proto, each plain, zlib, LZ4 and zstd (with and without a dictionary).",
            discussion: """
                Each FILE holds JSON documents (one, or many separated by whitespace or line breaks) or \
                MessagePack values (a file that does not open with JSON and is not named .json, .jsonl or \
                .ndjson). Every payload is written in each format, read back and checked, and timed (the \
                median of --repeats calls after warm-up) and, where valgrind is installed, counted: the \
                instructions and allocations of one call after warm-up, exact run to run (one run under \
                callgrind; --no-counts leaves it out). A row per file and format, and totals that sum \
                bytes. A file's dictionary is built from the other files only. For each profile, the time \
                to deliver the median and the largest payload and the radio's energy, played out by the \
                shaper. With --proto and --message, each payload is also encoded by your schema (protoc \
                compiles it). A bad file, or a payload the schema cannot encode, is named on stderr (exit 2) \
                and the other files are still compared.

                Example: lowband codecs compare chat.json contacts.json push.json history.json --out reports/codecs.csv
                """
        )

        @Argument(help: "Files of JSON documents or MessagePack values.")
        var files: [String] = []

        @Option(help: "A .proto schema: each payload is also encoded by it as protobuf (proto3's JSON mapping; needs protoc).")
        var proto: String?

        @Option(help: "The message of --proto each payload is (its name, or package.Name).")
        var message: String?

        @Option(help: "The network profiles to price each format on, comma-separated.")
        var profiles: String = "gprs,edge,3g"

        @Option(help: "Timed calls per payload and format (after warm-up).")
        var repeats: Int = 15

        @Option(help: "The CSV file to write.")
        var out: String = "reports/codecs.csv"

        @Flag(inversion: .prefixedNo, help: "Count each encode's and decode's instructions and allocations under valgrind's callgrind (one run of this program under it).")
        var counts = true

        init() {}

        static let name = "lowband codecs compare"

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one file of JSON documents or MessagePack values") }
            guard repeats >= 1 else { throw ValidationError("--repeats must be at least 1") }
            guard (proto == nil) == (message == nil) else { throw ValidationError("--proto and --message go together: the schema and the message each payload is") }
        }

        func run() throws {
            var set = PayloadSet()
            var bad = 0
            for file in files {
                do {
                    try set.add(file: file)
                } catch {
                    CommandIO.reportError(error, command: Self.name)
                    bad += 1
                }
            }
            guard set.files > 0 else { throw ExitCode(2) }
            do {
                let descriptorSet = try proto.map { try Protoc.descriptorSet(of: $0) }
                let target = try descriptorSet.map { try ProtoTarget(schema: try ProtoSchema(descriptorSet: $0), message: message ?? "") }
                let networks = try profiles.split(separator: ",").map { try NetworkProfile.load(named: $0.trimmingCharacters(in: .whitespaces)) }
                let comparison = try CodecComparison(set, repeats: repeats, proto: target)
                for failure in comparison.failures { CommandIO.reportError(Protoc.Failure(description: failure), command: Self.name) }
                bad += comparison.failures.count
                let counted = counts ? CodecCounting.counts(comparison, descriptorSet: descriptorSet, message: message) : CodecCounts(unmeasured: "--no-counts")
                let report = CodecReport(comparison, air: AirCostTable(comparison, profiles: networks), counts: counted)
                let folder = (out as NSString).deletingLastPathComponent
                if !folder.isEmpty { try OutputDirectory.prepare(folder, option: "--out") }
                try BenchmarkCSV.write(rows: report.rows(environment: RunEnvironment.current()), to: out)
                let skipped = bad > 0 ? "left out \(bad) bad file\(bad == 1 ? "" : "s") (named above)\n" : ""
                try CommandIO.write(report.text() + skipped + "wrote \(out)\n")
            } catch {
                throw CommandIO.failure(error, command: Self.name, status: 2)
            }
            if bad > 0 { throw ExitCode(2) }
        }
    }

    /// `lowband codecs count FILE…`: what `compare` runs under callgrind to count instructions
    /// and allocations; not for users (its output is the regions' order, its counts are
    /// callgrind's dumps).
    struct Count: ParsableCommand, RunsWithoutConcurrency {
        static let configuration = CommandConfiguration(
            commandName: "count",
            abstract: "Run every encode and decode once inside the region callgrind counts (for codecs compare).",
            shouldDisplay: false
        )

        @Argument(help: "The files codecs compare compares.")
        var files: [String] = []

        @Option(help: "The descriptor set codecs compare's --proto compiled to (protoc, run under valgrind, cannot start protoc).")
        var descriptorSet: String?

        @Option(help: "As codecs compare's --message.")
        var message: String?

        init() {}

        static let name = "lowband codecs count"

        func run() throws {
            do {
                var set = PayloadSet()
                for file in files { try set.add(file: file) }
                let target = try descriptorSet.map { path in
                    try ProtoTarget(schema: try ProtoSchema(descriptorSet: Array(try Data(contentsOf: URL(fileURLWithPath: path)))), message: message ?? "")
                }
                var text = ""
                try CodecCountRun.run(set, proto: target) { text += $0 + "\n" }
                try CommandIO.write(text)
            } catch {
                throw CommandIO.failure(error, command: Self.name, status: 2)
            }
        }
    }
}
