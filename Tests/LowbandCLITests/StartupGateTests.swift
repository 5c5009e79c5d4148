import Foundation
import LowbandProcess
import LowbandTestSupport
import Testing

/// The start-up gate as CI runs it: `lowband startup` times the base and the head build of a
/// real program in one job, their runs alternating, writes every run's value, and `lowband
/// compare` applies its statistical test by default — a +25 % regression over 10 runs fails, an
/// unchanged program passes.
// Real programs on the wall clock: the serial pass keeps other tests' load off the timings.
@Suite(.serialized, .tags(.wallClock), .timeLimit(.minutes(2))) struct StartupGateTests {
    /// A program ready after `seconds`, then idle until it is stopped.
    private func program(readyAfter seconds: String) -> String {
        "sleep \(seconds); echo ready; sleep 30"
    }

    private func gate(base: String, head: String) async throws -> (compare: ExternalProcess.Result, startup: ExternalProcess.Result) {
        let directory = try TemporaryDirectory(prefix: "lowband-startup-gate")
        let (baseCSV, headCSV) = (directory.file("base.csv"), directory.file("head.csv"))
        let startup = try await LowbandBinary.run([
            "startup", "--runs", "10", "--warmup", "1", "--until", "^ready$", "--name", "app",
            "--baseline-command", "/bin/sh -c '\(base)'", "--baseline-out", baseCSV, "--out", headCSV,
            "--", "/bin/sh", "-c", head,
        ])
        #expect(startup.status == 0, "\(startup.stderrText)")
        #expect(FileManager.default.fileExists(atPath: directory.file("base.samples.csv")))
        #expect(try String(contentsOfFile: directory.file("head.samples.csv"), encoding: .utf8).split(separator: "\n").count == 1 + 2 * 10)
        return (try await LowbandBinary.run(["compare", baseCSV, headCSV]), startup)
    }

    @Test func aQuarterSlowerStartFailsTheGate() async throws {
        let (compare, _) = try await gate(base: program(readyAfter: "0.1"), head: program(readyAfter: "0.1275"))
        #expect(compare.status == 1, "\(compare.stdoutText)")
        #expect(compare.stdoutText.contains("time_to_marker"))
        #expect(compare.stdoutText.contains("REGRESSION"), "\(compare.stdoutText)")
        #expect(compare.stdoutText.contains("times by Mann-Whitney U"))
    }

    @Test func anUnchangedProgramPassesTheGate() async throws {
        let (compare, startup) = try await gate(base: program(readyAfter: "0.1"), head: program(readyAfter: "0.1"))
        #expect(compare.status == 0, "\(compare.stdoutText)\(startup.stderrText)")
        #expect(!compare.stdoutText.contains("REGRESSION"))
    }
}
