import Foundation
import LowbandTestSupport
import Testing

/// `lowband trace diff` as a user runs it: the built binary on the traces of real runs.
@Suite struct TraceDiffCommandTests {
    private let lowband = LowbandBinary.path

    /// Runs the binary to its end: stdout, stderr and the exit status.
    private func run(_ arguments: [String]) async throws -> (stdout: String, stderr: String, status: Int32) {
        let child = try await LowbandBinary.start(arguments)
        var lines: [String] = []
        while let line = try await child.nextLine(timeout: .seconds(120)) { lines.append(line) }
        let status = try await child.exitStatus(timeout: .seconds(60))
        return (lines.joined(separator: "\n"), child.stderrText, status)
    }

    /// The trace of a short virtual-time run with `seed`.
    private func trace(seed: Int, in directory: TemporaryDirectory) async throws -> String {
        let out = directory.file("seed\(seed)-\(UUID().uuidString)")
        let result = try await run(["run", "--scenario", "push-to-visible", "--profile", "edge", "--seed", String(seed), "--duration", "20s", "--virtual-time", "--out", out])
        try #require(result.status == 0, "\(result.stderr)")
        return "\(out)/trace.jsonl"
    }

    @Test func twoRunsOfOneSeedMakeTheSameDecisions() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-trace-diff")
        let a = try await trace(seed: 7, in: directory)
        let b = try await trace(seed: 7, in: directory)
        let lines = try String(contentsOfFile: a, encoding: .utf8).split(separator: "\n").count
        for options in [[], ["--time"]] {
            let result = try await run(["trace", "diff"] + options + [a, b])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "identical: \(lines) decisions")
        }
    }

    @Test func twoSeedsDivergeAndTheFirstDifferenceIsNamed() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-trace-diff")
        let a = try await trace(seed: 7, in: directory)
        let b = try await trace(seed: 8, in: directory)
        let result = try await run(["trace", "diff", a, b])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(result.stdout)")
        #expect(lines.first?.hasPrefix("first divergence at decision ") == true)
        #expect(lines.first?.contains("field '") == true)
        #expect(lines.dropFirst().first?.hasPrefix("\(a):") == true)
        #expect(lines.last?.hasPrefix("\(b):") == true)
    }

    @Test func timeIsIgnoredUnlessAsked() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-trace-diff")
        let a = directory.file("a.jsonl")
        let b = directory.file("b.jsonl")
        try "{\"t_ns\":1,\"event\":\"open\",\"conn\":1}\n{\"t_ns\":5,\"event\":\"deliver\",\"conn\":1,\"bytes\":10}\n".write(toFile: a, atomically: true, encoding: .utf8)
        try "{\"t_ns\":2,\"event\":\"open\",\"conn\":1}\n\n{\"t_ns\":6,\"event\":\"deliver\",\"conn\":1,\"bytes\":12}\n".write(toFile: b, atomically: true, encoding: .utf8)
        let decisions = try await run(["trace", "diff", a, b])
        #expect(decisions.status == 1)
        #expect(decisions.stdout.hasPrefix("first divergence at decision 2: \(a) line 2, \(b) line 3: field 'bytes' differs"))
        let timed = try await run(["trace", "diff", "--time", a, b])
        #expect(timed.stdout.hasPrefix("first divergence at decision 1: \(a) line 1, \(b) line 1: field 't_ns' differs"))
    }

    @Test(arguments: [
        ("missing", "cannot open"),
        ("notjson", "notjson.jsonl:2: not a JSON line"),
        ("array", "array.jsonl:1: not a JSON object"),
        ("long", "long.jsonl:1: a line longer than 64 KiB"),
    ])
    func badInputIsOneLineAndExitTwo(_ name: String, _ expected: String) async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-trace-diff")
        let good = directory.file("good.jsonl")
        try "{\"event\":\"open\"}\n".write(toFile: good, atomically: true, encoding: .utf8)
        let bad = directory.file("\(name).jsonl")
        switch name {
        case "notjson": try "{\"event\":\"open\"}\nnot json\n".write(toFile: bad, atomically: true, encoding: .utf8)
        case "array": try "[1,2]\n".write(toFile: bad, atomically: true, encoding: .utf8)
        case "long": try String(repeating: "x", count: 70_000).write(toFile: bad, atomically: true, encoding: .utf8)
        default: break
        }
        let result = try await run(["trace", "diff", good, bad])
        #expect(result.status == 2)
        let errors = result.stderr.split(separator: "\n")
        #expect(errors.count == 1, "\(result.stderr)")
        #expect(errors.first?.hasPrefix("lowband trace diff: error: ") == true)
        #expect(errors.first?.contains(expected) == true, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
