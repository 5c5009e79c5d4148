import Foundation
import LowbandProcess
import LowbandReports
import LowbandTestSupport
import Testing

/// `lowband codecs compare` on a user's own payload files: every format's bytes per file against
/// outside peers' (Python's `json`, `msgpack` and `cbor2`), rows `compare` reads, and bad files
/// named while the others are still compared.
@Suite struct CodecsCommandTests {
    /// Four payload files as a messenger sends them — a chat message with attachments (URLs), a
    /// 200-entry contact list (non-ASCII names, large integers, nulls), a push (64-bit ends,
    /// booleans), a 50-message history page (nested arrays, floats) — and 20 logged messages,
    /// one per line; then each file's sizes as Python writes them.
    private static let script = """
        import json, random, sys, os, msgpack, cbor2
        random.seed(11)
        d = sys.argv[1]
        def url(i): return "https://cdn.example.com/media/%d/photo_%d.jpg?size=large&v=%d" % (i, i * 7, i % 3)
        names = ["Алиса", "Bob", "José", "李雷", "Zoë 🎉", "Ørjan"]
        words = ["hi", "ok", "🙂", "да", "https://t.me/x/1", "a/b\\\\c\\"d", "tab\\tnew\\nline"]
        files = {
          "chat.json": [{"id": "m-1", "chat": 42, "text": "Привет! see https://example.org/a/b — ok 👍",
                         "attachments": [{"url": url(i), "w": 1280, "h": 720, "thumb": url(i + 100), "size": random.randint(10000, 5000000)} for i in range(4)],
                         "sent": 1732873915123, "edited": None, "pinned": False}],
          "contacts.json": [[{"id": 10**12 + i, "name": random.choice(names) + " " + str(i), "avatar": url(i), "phone": "+7 900 %07d" % random.randint(0, 9999999),
                              "blocked": i % 17 == 0, "last_seen": None if i % 5 == 0 else 1732873915 - i * 3600, "score": i * 0.25} for i in range(200)]],
          "push.json": [{"type": "message", "chat": -9223372036854775808, "from": "Zoë 🎉", "preview": "Встретимся в 7? https://maps.example.com/?q=55.75,37.61",
                         "badge": 3, "big": 18446744073709551615, "silent": True, "tiny": 1e-7, "huge": 1e22}],
          "history.json": [{"chat": 42, "messages": [{"id": i, "seq": [i, [i * 2, [True, None, False]]], "text": " ".join(random.choice(words) for _ in range(random.randint(1, 12))),
                            "reactions": {"👍": random.randint(0, 5)}, "ratio": random.random(), "sent": 1732870000000 + i * 61000} for i in range(50)]}],
          "log.jsonl": [{"id": "m-%d" % i, "text": " ".join(random.choice(words) for _ in range(random.randint(2, 9))), "seq": i, "read": i % 3 == 0} for i in range(20)],
        }
        for name, docs in files.items():
            with open(os.path.join(d, name), "w", encoding="utf-8") as out:
                for doc in docs:
                    out.write(json.dumps(doc, ensure_ascii=False, indent=None if name.endswith("jsonl") else 2) + "\\n")
            j = sum(len(json.dumps(o, separators=(",", ":"), ensure_ascii=False).encode()) for o in docs)
            m = sum(len(msgpack.packb(o)) for o in docs)
            c = sum(len(cbor2.dumps(o)) for o in docs)
            print(name, j, m, c)
        """

    @Test func everyFilesSizesMatchPythonsAndTheRowsAreComparable() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-codecs")
        let python = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", Self.script, directory.path])
        try #require(python.status == 0, "\(python.stderrText)")
        let expected = python.stdoutText.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let files = expected.map { directory.file($0[0]) }
        let out = directory.file("reports/codecs.csv")
        // Sizes only: the counts are CodecsCountsCommandTests' (under callgrind this would take 30 s).
        let result = try await LowbandBinary.run(["codecs", "compare"] + files + ["--out", out, "--repeats", "3", "--no-counts"])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.hasPrefix("codecs: 24 payloads from 5 files"), "\(result.stdoutText)")
        let written = try String(contentsOfFile: directory.file("reports/codecs.samples.csv"), encoding: .utf8)
        func total(_ benchmark: String) -> Double {
            written.split(separator: "\n").filter { $0.hasPrefix("codecs,\(benchmark),bytes,") }.compactMap { Double($0.split(separator: ",").last ?? "") }.reduce(0, +)
        }
        for line in expected {
            let path = directory.file(line[0])
            for (format, size) in zip(["json", "msgpack", "cbor"], line.dropFirst()) {
                #expect(total("\(format)@\(path)") == Double(size), "\(line[0]) \(format): python \(size), ours \(total("\(format)@\(path)"))")
            }
        }
        let rows = try BenchmarkCSV.read(from: out)
        // Totals sum bytes over the files; the dictionaries were built from the other files.
        let jsonTotal = try #require(rows.first { $0.benchmark == "json" && $0.metric == "total_bytes" })
        #expect(jsonTotal.p50 == expected.compactMap { Double($0[1]) }.reduce(0, +))
        #expect(rows.contains { $0.benchmark == "msgpack+zstd+dict@\(files[1])" && $0.metric == "bytes" })
        #expect(rows.contains { $0.benchmark == "cbor+lz4@edge" && $0.metric == "largest_delivery_ms" && $0.p50 > 0 })
        #expect(result.stdoutText.contains("smallest in total: "))
        #expect(result.stdoutText.contains("on edge, the largest payload: "))
        let compared = try await LowbandBinary.run(["compare", out, out])
        #expect(compared.status == 0, "\(compared.stdoutText)\(compared.stderrText)")
    }

    @Test func aBadFileIsNamedByLineAndColumnAndTheOthersAreStillCompared() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-codecs")
        let good = directory.file("good.json")
        let bad = directory.file("bad.json")
        try Data("{\"a\": \"https://x.org/\", \"n\": 1}\n".utf8).write(to: URL(fileURLWithPath: good))
        try Data("{\"a\": 1,\n  \"b\": }\n".utf8).write(to: URL(fileURLWithPath: bad))
        let result = try await LowbandBinary.run(["codecs", "compare", good, bad, "--out", directory.file("c.csv"), "--repeats", "1", "--profiles", "edge"])
        #expect(result.status == 2)
        #expect(result.stderrText.hasPrefix("lowband codecs compare: error: \(bad):2:8: document 1 is not JSON"), "\(result.stderrText)")
        #expect(result.stderrText.split(separator: "\n").count == 1)
        #expect(result.stdoutText.contains("good.json"))
        #expect(result.stdoutText.contains("left out 1 bad file"))
        // The JSON row is Python's compact form: the URL's slashes are not escaped.
        let written = try String(contentsOfFile: directory.file("c.samples.csv"), encoding: .utf8)
        #expect(written.contains("codecs,json@\(good),bytes,28"), "\(written)")
    }

    @Test(arguments: [([UInt8]([0xc1]), "value 1 is neither JSON nor MessagePack"), ([], "no payload in it")])
    func aFileThatHoldsNoPayloadsIsNamed(bytes: [UInt8], message: String) async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-codecs")
        let path = directory.file("bad.bin")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try await LowbandBinary.run(["codecs", "compare", path, "--out", directory.file("c.csv")])
        #expect(result.status == 2)
        #expect(result.stderrText.hasPrefix("lowband codecs compare: error: \(path): \(message)"), "\(result.stderrText)")
        #expect(result.stderrText.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.file("c.csv")))
    }
}
