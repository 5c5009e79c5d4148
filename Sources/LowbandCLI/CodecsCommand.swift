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
        subcommands: [Compare.self]
    )

    init() {}

    struct Compare: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compare",
            abstract: "Size, time and price on the air your payloads as JSON, MessagePack, CBOR and protobuf by your .proto, each plain, zlib, LZ4 and zstd (with and without a dictionary).",
            discussion: """
                Each FILE holds JSON documents (one, or many separated by whitespace or line breaks) or \
                MessagePack values (a file that does not open with JSON and is not named .json, .jsonl or \
                .ndjson). Every payload is written in each format, read back and checked, and timed (the \
                median of --repeats calls after warm-up). A row per file and format, and totals that sum \
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
                let target = try proto.map { try ProtoTarget(schema: try Protoc.schema(of: $0), message: message ?? "") }
                let networks = try profiles.split(separator: ",").map { try NetworkProfile.load(named: $0.trimmingCharacters(in: .whitespaces)) }
                let comparison = try CodecComparison(set, repeats: repeats, proto: target)
                for failure in comparison.failures { CommandIO.reportError(Protoc.Failure(description: failure), command: Self.name) }
                bad += comparison.failures.count
                let report = CodecReport(comparison, air: AirCostTable(comparison, profiles: networks))
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
}
