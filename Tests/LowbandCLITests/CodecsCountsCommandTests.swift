import Foundation
import LowbandProcess
import LowbandReports
import LowbandTestSupport
import Testing

/// `lowband codecs compare`'s instruction and allocation counts, by the built binary under the
/// real valgrind: present for every file × format, the same in two runs, telling formats apart
/// where the code says they differ; and, without valgrind, the table with its columns empty and
/// one line saying how to install it. Small payloads: callgrind makes each call some 50 times
/// slower (these four files take about 10 s under it in a debug build).
@Suite struct CodecsCountsCommandTests {
    /// A chat message with attachments, a 30-entry contact list, a push, a 10-message history page.
    private static func payloads(in directory: TemporaryDirectory) throws -> [String] {
        func url(_ i: Int) -> String { "https://cdn.example.com/media/\(i)/photo_\(i * 7).jpg?size=large" }
        let attachments = (0 ..< 4).map { #"{"url": "\#(url($0))", "w": 1280, "h": 720, "size": \#(10_000 + $0 * 977)}"# }
        let contacts = (0 ..< 30).map { #"{"id": \#(1_000_000_000_000 + $0), "name": "Алиса \#($0)", "avatar": "\#(url($0))", "blocked": \#($0 % 7 == 0), "last_seen": \#($0 % 5 == 0 ? "null" : String(1_732_873_915 - $0 * 3600)), "score": \#(Double($0) * 0.25)}"# }
        let messages = (0 ..< 10).map { #"{"id": \#($0), "seq": [\#($0), [\#($0 * 2), [true, null, false]]], "text": "да 🙂 https://t.me/x/\#($0)", "sent": \#(1_732_870_000_000 + $0 * 61_000)}"# }
        let files = [
            ("chat.json", #"{"id": "m-1", "chat": 42, "text": "Привет! see https://example.org/a/b", "attachments": [\#(attachments.joined(separator: ", "))], "edited": null, "pinned": false}"#),
            ("contacts.json", "[" + contacts.joined(separator: ", ") + "]"),
            ("push.json", #"{"type": "message", "chat": -9223372036854775808, "from": "Zoë 🎉", "badge": 3, "big": 18446744073709551615, "silent": true, "tiny": 1e-7}"#),
            ("history.json", #"{"chat": 42, "messages": [\#(messages.joined(separator: ", "))]}"#),
        ]
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: directory.file(name))) }
        return files.map { directory.file($0.0) }
    }

    private static let counted = ["encode_instructions", "decode_instructions", "encode_allocations", "decode_allocations"]

    @Test func everyRowIsCountedTheSameInTwoRunsAndFormatsDifferWhereTheyMust() async throws {
        try #require(ExternalProcess.which("valgrind") != nil, "valgrind is needed (scripts/setup.sh installs it)")
        let directory = try TemporaryDirectory(prefix: "lowband-codecs-counts")
        let files = try Self.payloads(in: directory)
        var runs: [[BenchmarkRow]] = []
        for name in ["one.csv", "two.csv"] {
            let result = try await LowbandBinary.run(["codecs", "compare"] + files + ["--repeats", "1", "--profiles", "edge", "--out", directory.file(name)])
            #expect(result.status == 0, "\(result.stderrText)")
            #expect(result.stderrText.isEmpty, "\(result.stderrText)")
            #expect(result.stdoutText.contains("enc instr  enc allocs") && result.stdoutText.contains("counted by valgrind's callgrind in one run"), "\(result.stdoutText)")
            #expect(result.stdoutText.contains("fewest instructions in total (encode + decode): "), "\(result.stdoutText)")
            runs.append(try BenchmarkCSV.read(from: directory.file(name)))
        }
        func value(_ rows: [BenchmarkRow], _ benchmark: String, _ metric: String) -> [Double]? {
            rows.first { $0.benchmark == benchmark && $0.metric == metric }?.sampleValues
        }
        // Every file × format has all four counts, positive, and the same in both runs.
        let cells = runs[0].filter { $0.metric == "bytes" }.map(\.benchmark)
        #expect(cells.count == 4 * 18)
        for cell in cells {
            for metric in Self.counted {
                let first = value(runs[0], cell, metric)
                #expect(first.map { $0.count == 1 && $0[0] > 0 } == true, "\(cell) \(metric): \(String(describing: first))")
                #expect(first == value(runs[1], cell, metric), "\(cell) \(metric) moved: \(String(describing: first)) then \(String(describing: value(runs[1], cell, metric)))")
            }
        }
        for file in files {
            // zlib's deflateInit allocates its state, window and hash chains on every call.
            for wire in ["json", "msgpack", "cbor"] {
                let plain = try #require(value(runs[0], "\(wire)@\(file)", "encode_allocations")?.first)
                let zlib = try #require(value(runs[0], "\(wire)+zlib@\(file)", "encode_allocations")?.first)
                #expect(zlib >= plain + 4, "\(wire) on \(file): \(zlib) allocations with zlib, \(plain) without")
            }
            // Text is parsed and its numbers and strings built; MessagePack's are read as they are.
            let json = try #require(value(runs[0], "json@\(file)", "decode_instructions")?.first)
            let msgpack = try #require(value(runs[0], "msgpack@\(file)", "decode_instructions")?.first)
            #expect(json > msgpack, "\(file): json decoded in \(json) instructions, msgpack in \(msgpack)")
        }
        let contacts = files[1]
        let jsonAllocations = try #require(value(runs[0], "json@\(contacts)", "decode_allocations")?.first)
        let msgpackAllocations = try #require(value(runs[0], "msgpack@\(contacts)", "decode_allocations")?.first)
        #expect(jsonAllocations > 2 * msgpackAllocations, "contacts decoded: json \(jsonAllocations) allocations, msgpack \(msgpackAllocations)")
        // The totals sum the files; `compare` finds no change between the two runs' counts.
        let total = try #require(runs[0].first { $0.benchmark == "msgpack" && $0.metric == "total_encode_instructions" })
        #expect(total.p50 == files.compactMap { value(runs[0], "msgpack@\($0)", "encode_instructions")?.first }.reduce(0, +))
        let compared = try await LowbandBinary.run(["compare", directory.file("one.csv"), directory.file("two.csv")])
        #expect(compared.status == 0, "\(compared.stdoutText)")
    }

    /// The hidden count run, outside valgrind: its regions are plain calls, announced in order,
    /// and it is not offered to users.
    @Test func theCountRunAnnouncesEveryRegionAndIsHidden() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-codecs-counts")
        let files = Array(try Self.payloads(in: directory).prefix(2))
        let result = try await LowbandBinary.run(["codecs", "count"] + files)
        #expect(result.status == 0, "\(result.stderrText)")
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.count == 2 * 18 * 2)
        #expect(lines.first == "0\tjson\t0\tencode" && lines.last == "1\tcbor+zstd+dict\t0\tdecode", "\(result.stdoutText)")
        let help = try await LowbandBinary.run(["codecs", "--help"])
        let subcommands = help.stdoutText.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.compactMap { $0.split(separator: " ").first }
        #expect(subcommands.contains("compare") && !subcommands.contains("count"), "\(help.stdoutText)")
    }

    @Test func withoutValgrindTheColumnsAreEmptyAndOneLineSaysHowToInstallIt() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-codecs-counts")
        let files = Array(try Self.payloads(in: directory).prefix(2))
        let out = directory.file("c.csv")
        let result = try await LowbandBinary.run(
            ["codecs", "compare"] + files + ["--repeats", "1", "--profiles", "edge", "--out", out], environment: ["PATH": "/nonexistent"]
        )
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stderrText.isEmpty, "\(result.stderrText)")
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("payload") && $0.contains("enc instr  enc allocs") && $0.hasSuffix("dec instr  dec allocs") }, "\(result.stdoutText)")
        let row = try #require(lines.first { $0.hasPrefix("chat.json") && $0.contains(" msgpack ") })
        #expect(row.split(separator: " ").filter { $0 == "-" }.count == 4, "\(row)")
        #expect(lines.contains("instructions, allocations: not measured: valgrind is not installed; install it with: sudo apt-get install -y valgrind"), "\(result.stdoutText)")
        #expect(!result.stdoutText.contains("fewest instructions"))
        #expect(try !BenchmarkCSV.read(from: out).contains { Self.counted.contains($0.metric) })
    }
}
