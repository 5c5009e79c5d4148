import Foundation
import LowbandReports
import LowbandTestSupport
import Testing

/// `lowband startup` as a user runs it: the built binary timing real programs — `lowband server`
/// itself, and shell scripts whose timing and failures are known.
@Suite struct StartupCommandTests {
    private let lowband = LowbandBinary.path

    @Test func timesLowbandServerUntilItListensAndWritesRowsCompareReads() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-startup")
        let out = directory.file("reports/server.csv")
        let result = try await LowbandBinary.run([
            "startup", "--runs", "3", "--warmup", "1", "--out", out, "--until", "listening on",
            "--", lowband, "server", "--listen", "127.0.0.1:0",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.contains("marker line: listening on 127.0.0.1:"))
        #expect(result.stderrText.contains("run 3/3"))
        let rows = try BenchmarkCSV.read(from: out)
        #expect(rows.map(\.metric) == ["time_to_marker", "peak_rss_at_marker"])
        for row in rows {
            #expect(row.suite == "startup" && row.benchmark == "lowband" && row.samples == 3)
            #expect(row.min > 0 && row.min <= row.p50 && row.p50 <= row.max)
        }
        // lowband compare reads them: the same file against itself is no regression.
        let compared = try await LowbandBinary.run(["compare", out, out])
        #expect(compared.status == 0, "\(compared.stdoutText)\(compared.stderrText)")
    }

    /// An option the command does not know is refused as an option, with the one meant, whether
    /// or not `--` follows — never run as the program to time.
    @Test(arguments: [
        ["--run", "3", "--until", "ready", "--", "/bin/true"], ["--until", "ready", "--run", "3", "/bin/true"], ["--run=3", "--until", "ready", "/bin/true"],
    ])
    func anUnknownOptionIsNamedWithTheOneMeant(arguments: [String]) async throws {
        let result = try await LowbandBinary.run(["startup"] + arguments)
        #expect(result.status != 0)
        #expect(result.stderrText.hasPrefix("lowband startup: error: unknown option '--run'; did you mean '--runs'?"), "\(result.stderrText)")
        #expect(result.stderrText.split(separator: "\n").count == 1)
    }

    /// The clock runs from launch to the marker: a program that sleeps 300 ms before it is ready
    /// is never measured under 300 ms; the stop takes its whole process group.
    @Test func theTimeIncludesTheWaitAndTheStopTakesTheWholeGroup() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-startup")
        let script = "sleep 60 & echo $! > \(directory.file("child.pid")); sleep 0.3; echo ready; wait"
        let result = try await LowbandBinary.run([
            "startup", "--runs", "2", "--warmup", "0", "--name", "sleeper", "--out", directory.file("s.csv"), "--until", "^ready$",
            "--", "/bin/sh", "-c", script,
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let time = try #require(try BenchmarkCSV.read(from: directory.file("s.csv")).first { $0.metric == "time_to_marker" })
        #expect(time.benchmark == "sleeper")
        #expect(time.min >= 300, "a 300 ms sleep measured as \(time.min) ms")
        let child = try #require(Int32(try String(contentsOfFile: directory.file("child.pid"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Dead: gone, or a zombie its new parent has not reaped (an init that never reaps, as
        // in some containers, keeps it listed).
        let state = (try? String(contentsOfFile: "/proc/\(child)/status", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("State:") }
        #expect(state == nil || state?.contains("Z") == true, "the script's own child \(child) outlived the stop: \(state ?? "")")
    }

    @Test(arguments: [
        (["--timeout", "1s", "--until", "never", "--", "/bin/sh", "-c", "echo hi; echo there >&2; sleep 30"],
         "no line matching 'never' within 1 s (--timeout); its last output: stdout: \"hi\" | stderr: \"there\""),
        (["--until", "never", "--", "/bin/sh", "-c", "echo oops >&2; exit 7"],
         "/bin/sh exited with status 7 before printing a line matching 'never'; its last output: stderr: \"oops\""),
        (["--until", "x", "--", "/no/such/program"], "cannot start /no/such/program: no such file"),
        (["--until", "x", "--", "no-such-program-on-path"], "cannot start no-such-program-on-path: not found on PATH"),
        (["--until", "(", "--", "/bin/true"], "--until '(' is not a regular expression"),
        (["--until", "x"], "give the program to time after --"),
        (["--runs", "0", "--until", "x", "--", "/bin/true"], "--runs must be 1...10000, not 0"),
    ])
    func aRunThatCannotBeTimedIsOneLineAndExit1(arguments: [String], message: String) async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-startup")
        let result = try await LowbandBinary.run(["startup", "--warmup", "0", "--out", directory.file("x.csv")] + arguments)
        #expect(result.status == 1)
        let lines = result.stderrText.split(separator: "\n").filter { !$0.hasPrefix("run ") && !$0.hasPrefix("warm-up ") }
        #expect(lines.count == 1, "\(result.stderrText)")
        #expect(lines.first?.hasPrefix("lowband startup: error: ") == true)
        #expect(lines.first?.contains(message) == true, "\(lines)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("x.csv")), "no report from a failed run")
    }
}
