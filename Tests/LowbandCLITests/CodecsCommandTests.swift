import Foundation
import LowbandProcess
import LowbandReports
import LowbandTestSupport
import Testing

/// `lowband codecs compare` on a user's own payloads: every format's bytes against an outside
/// peer's (Python's `msgpack` and `json`), rows `compare` reads, and bad files named.
@Suite struct CodecsCommandTests {
    /// Chat messages as a user's app would log them, one JSON document per line, and the
    /// same documents' sizes as Python writes them: compact JSON and MessagePack.
    private static let script = """
        import json, random, sys, msgpack
        random.seed(7)
        words = "hello there are you coming tonight yes no maybe see you at the station bring the keys".split()
        json_total = msgpack_total = 0
        with open(sys.argv[1], "w") as out:
            for i in range(60):
                m = {"id": "m-%d" % i, "chat": "c-%d" % (i % 5), "sender": {"id": random.randint(1, 50), "name": random.choice(["alice", "bob"])},
                     "text": " ".join(random.choice(words) for _ in range(random.randint(2, 20))), "seq": i, "read": i % 3 == 0}
                out.write(json.dumps(m) + "\\n")
                json_total += len(json.dumps(m, separators=(",", ":")))
                msgpack_total += len(msgpack.packb(m))
        print(json_total, msgpack_total)
        """

    @Test func sizesMatchPythonsAndTheRowsAreComparable() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-codecs")
        let payloads = directory.file("messages.jsonl")
        let python = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", Self.script, payloads])
        try #require(python.status == 0, "\(python.stderrText)")
        let totals = python.stdoutText.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let out = directory.file("reports/codecs.csv")
        let result = try await LowbandBinary.run(["codecs", "compare", payloads, "--out", out])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.hasPrefix("codecs: 60 payloads from 1 file\n"))
        #expect(result.stdoutText.contains("msgpack+lz4+dict: measured on the 30 payloads the dictionary"))
        let rows = try BenchmarkCSV.read(from: out)
        func row(_ benchmark: String, _ metric: String) throws -> BenchmarkRow {
            try #require(rows.first { $0.benchmark == benchmark && $0.metric == metric }, "\(benchmark) \(metric)")
        }
        // Foundation's compact JSON and our MessagePack are byte for byte as long as Python's.
        #expect(try row("json", "bytes").samples == 60)
        let written = try String(contentsOfFile: directory.file("reports/codecs.samples.csv"), encoding: .utf8)
        func total(_ benchmark: String) -> Double {
            written.split(separator: "\n").filter { $0.hasPrefix("codecs,\(benchmark),bytes,") }.compactMap { Double($0.split(separator: ",").last ?? "") }.reduce(0, +)
        }
        #expect(totals.count == 2 && total("json") == totals[0] && total("msgpack") == totals[1], "python: \(totals), ours: \(total("json")), \(total("msgpack"))")
        #expect(try row("msgpack", "ratio_vs_json").p50 < 1)
        #expect(try row("msgpack+lz4+dict", "bytes").samples == 30)
        #expect(try row("msgpack", "encode_ns").min > 0 && row("json+zlib", "decode_ns").min > 0)
        // compare reads them back, and the same file against itself passes.
        let compared = try await LowbandBinary.run(["compare", out, out])
        #expect(compared.status == 0, "\(compared.stdoutText)\(compared.stderrText)")
    }

    @Test(arguments: [
        ([UInt8]([0xc1]), "value 1 is neither JSON nor MessagePack"), ([], "no payload in it"), (Array("{\"a\": 1}\n{\"a\": ".utf8), "document 2 is not JSON"),
    ])
    func aFileThatHoldsNoPayloadsIsNamed(bytes: [UInt8], message: String) async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-codecs")
        let path = directory.file("bad.bin")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try await LowbandBinary.run(["codecs", "compare", path, "--out", directory.file("c.csv")])
        #expect(result.status == 1)
        #expect(result.stderrText.hasPrefix("lowband codecs compare: error: \(path): \(message)"), "\(result.stderrText)")
        #expect(result.stderrText.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.file("c.csv")))
    }
}
