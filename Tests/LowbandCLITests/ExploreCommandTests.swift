import Foundation
import LowbandTestSupport
import Testing

/// `lowband explore` and `lowband explain` as a user runs them: the built binary.
@Suite struct ExploreCommandTests {
    private let lowband = LowbandBinary.path

    /// Runs the binary to its end: its stdout lines and exit status.
    private func run(_ arguments: [String]) async throws -> (lines: [String], status: Int32, stderr: String) {
        let child = try await LowbandBinary.start(arguments)
        var lines: [String] = []
        while let line = try await child.nextLine(timeout: .seconds(300)) { lines.append(line) }
        let status = try await child.exitStatus(timeout: .seconds(60))
        return (lines, status, child.stderrText)
    }

    @Test(arguments: [
        (["explore", "--seeds", "5..1"], "--seeds 5..1 is empty"),
        (["explore", "--seeds", "x"], "--seeds 'x' is not a seed"),
        (["explore", "--shard", "3/2"], "--shard 3/2"),
        (["explore", "--faults", "earthquake"], "unknown fault 'earthquake'"),
        (["explore", "--scenario", "nope"], "nope"),
        (["run", "--faults", "reset"], "--faults needs --virtual-time"),
        (["run", "--faults", "reset,bogus", "--virtual-time"], "unknown fault 'bogus'"),
    ])
    func badInputIsOneLineAndWritesNothing(_ arguments: [String], _ expected: String) async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-explore-test")
        let out = directory.file("out")
        let result = try await run(arguments + ["--out", out])
        #expect(result.status == 1)
        let errorLines = result.stderr.split(separator: "\n")
        #expect(errorLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(": error: ") && result.stderr.contains(expected), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func shardsMergeIntoTheWholeSweep() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-explore-test")
        let common = ["explore", "--scenario", "crowd", "--clients", "3", "--duration", "90s", "--faults", "swarm", "--allow-violations", "--jobs", "2"]
        let whole = try await run(common + ["--seeds", "1..6", "--out", directory.file("whole")])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.lines.first?.hasPrefix("lowband explore: crowd on edge, seeds 1..6: 6 runs of 3 clients for 90s") == true)
        for shard in ["1/2", "2/2"] {
            let part = try await run(common + ["--seeds", "1..6", "--shard", shard, "--out", directory.file("shard\(shard.first!)")])
            #expect(part.status == 0)
        }
        let merged = try await run(["explore", "merge", directory.file("shard1"), directory.file("shard2"), "--out", directory.file("merged")])
        #expect(merged.status == 0, "\(merged.stderr)")
        // Everything but the wall time (the field before the 16-digit trace hash).
        func withoutWallTime(_ path: String) throws -> [String] {
            let pattern = try NSRegularExpression(pattern: ",[0-9]+\\.[0-9],([0-9a-f]{16}),")
            return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { row in
                let text = String(row)
                return pattern.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: ",$1,")
            }
        }
        let wholeRows = try withoutWallTime(directory.file("whole/explore.csv"))
        let mergedRows = try withoutWallTime(directory.file("merged/explore.csv"))
        // The same seeds with the same hashes and verdicts; only the wall time differs.
        #expect(wholeRows.count == 7)
        #expect(wholeRows == mergedRows)
        let html = try String(contentsOfFile: directory.file("merged/explore.html"), encoding: .utf8)
        #expect(html.contains("id=\"explore-verdict\""))
        let results = try String(contentsOfFile: directory.file("merged/results.csv"), encoding: .utf8)
        #expect(results.contains("explore.crowd,edge,seeds,count,6,"))
    }

    @Test func explainSaysWhereTheTimeWent() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-explore-test")
        let out = directory.file("run")
        let ran = try await run(["run", "--scenario", "crowd", "--clients", "4", "--duration", "5m", "--virtual-time", "--allow-violations", "--out", out])
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(ran.lines.contains { $0.hasPrefix("where the time went (") })
        let explained = try await run(["explain", out, "--top", "3"])
        #expect(explained.status == 0, "\(explained.stderr)")
        let slowest = explained.lines.filter { $0.hasPrefix("  msg ") }
        #expect(slowest.count == 3)
        let message = try #require(slowest.first?.split(separator: " ").dropFirst(1).first)
        let one = try await run(["explain", out, "--message", String(message)])
        #expect(one.status == 0)
        #expect(one.lines.contains { $0.hasPrefix("message \(message) ") })
        #expect(one.lines.contains { $0.hasPrefix("  mostly ") })
        let csv = try String(contentsOfFile: "\(out)/results.csv", encoding: .utf8)
        #expect(csv.contains(",invariant.acknowledged_lost,count,"))
        #expect(csv.contains(",stage.total,ms,"))
    }

    @Test func explainRefusesAFolderThatIsNotARun() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-explore-test")
        try Data("[]".utf8).write(to: URL(fileURLWithPath: directory.file("record.json")))
        let result = try await run(["explain", directory.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("has no trace.jsonl"), "\(result.stderr)")
        let missing = try await run(["explain", directory.file("nowhere")])
        #expect(missing.status == 1 && missing.stderr.contains("is not a folder"))
    }
}
