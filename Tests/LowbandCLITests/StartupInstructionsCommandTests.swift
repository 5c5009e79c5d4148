import Foundation
import LowbandProcess
import LowbandReports
import LowbandTestSupport
import Testing

/// `lowband startup --measure instructions` and its help as a user runs them: the built binary
/// counting small shell starts under the real valgrind, and refusing what it cannot do.
@Suite struct StartupInstructionsCommandTests {
    @Test(arguments: ["--help", "-h"])
    func helpPrintsTheUsage(flag: String) async throws {
        let result = try await LowbandBinary.run(["startup", flag])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.contains("USAGE: lowband startup") && result.stdoutText.contains("--measure"), "\(result.stdoutText)")
        #expect(result.stderrText.isEmpty)
    }

    /// After `--`, `--help` is the program's: passed through, not taken as ours.
    @Test func theProgramsOwnHelpPassesThroughAfterTheSeparator() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-startup")
        let result = try await LowbandBinary.run([
            "startup", "--runs", "1", "--warmup", "0", "--until", "ready$", "--out", directory.file("e.csv"), "--", "/bin/echo", "--help", "ready",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.contains("marker line: --help ready"), "\(result.stdoutText)")
    }

    @Test func instructionRowsAreExactAndCompareGatesThem() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-startup")
        func count(_ iterations: Int, _ file: String) async throws -> ExternalProcess.Result {
            try await LowbandBinary.run([
                "startup", "--measure", "instructions", "--instrumented-runs", "2", "--warmup", "0", "--name", "loop", "--env", "LC_ALL=C",
                "--until", "ready", "--out", directory.file(file),
                "--", "/bin/sh", "-c", "i=0; while [ $i -lt \(iterations) ]; do i=$((i + 1)); done; echo ready",
            ])
        }
        let base = try await count(2000, "base.csv")
        #expect(base.status == 0, "\(base.stderrText)")
        #expect(base.stdoutText.contains("instructions") && base.stdoutText.contains("in every run"), "\(base.stdoutText)")
        #expect(!base.stderrText.contains("warning"), "\(base.stderrText)")
        let rows = try BenchmarkCSV.read(from: directory.file("base.csv"))
        #expect(rows.map(\.metric) == ["instructions"] && rows[0].unit == "count" && rows[0].samples == 2 && rows[0].min == rows[0].max)
        #expect(try await count(2000, "same.csv").status == 0)
        #expect(try await count(2040, "more.csv").status == 0)
        let same = try await LowbandBinary.run(["compare", directory.file("base.csv"), directory.file("same.csv")])
        #expect(same.status == 0, "\(same.stdoutText)")
        let more = try await LowbandBinary.run(["compare", directory.file("base.csv"), directory.file("more.csv")])
        #expect(more.status == 1 && more.stdoutText.contains("REGRESSION") && more.stdoutText.contains("(limit 0.1%)"), "\(more.stdoutText)")
    }

    /// --env sets a variable; --clear-env leaves the program nothing else (HOME is gone).
    @Test func theProgramGetsEnvAndWithClearEnvOnlyEnv() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-startup")
        let result = try await LowbandBinary.run([
            "startup", "--runs", "1", "--warmup", "0", "--clear-env", "--env", "LOWBAND_X=1", "--until", "^ready", "--out", directory.file("e.csv"),
            "--", "/bin/sh", "-c", #"echo "ready-$LOWBAND_X-${HOME:-none}""#,
        ], environment: ["HOME": "/root", "PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.contains("marker line: ready-1-none"), "\(result.stdoutText)")
    }

    @Test func checkDeterminismPrintsASpreadOfZero() async throws {
        let result = try await LowbandBinary.run([
            "startup", "--check-determinism", "2", "--until", "ready", "--", "/bin/sh", "-c", "echo ready",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.contains("deterministic: the same") && result.stdoutText.contains("(spread 0)"), "\(result.stdoutText)")
    }

    /// A start that reads randomness counts differently each run: said, with what moves counts.
    /// (Not `date +%N`: a leading 0 followed by an 8 or 9 is bad octal to sh, which then fails the run.)
    @Test func countsThatMoveAreSaid() async throws {
        let result = try await LowbandBinary.run([
            "startup", "--check-determinism", "3", "--", "/bin/sh", "-c",
            "i=0; n=$(( $(od -An -N2 -tu2 /dev/urandom) % 500 )); while [ $i -lt $n ]; do i=$((i + 1)); done",
        ])
        #expect(result.status == 1, "\(result.stdoutText)\(result.stderrText)")
        #expect(result.stdoutText.contains("not deterministic: spread") && result.stdoutText.contains("a hash seed"), "\(result.stdoutText)")
    }

    @Test func withoutValgrindOneLineSaysHowToInstallIt() async throws {
        let result = try await LowbandBinary.run(
            ["startup", "--measure", "instructions", "--until", "ready", "--", "/bin/echo", "ready"], environment: ["PATH": "/nonexistent"]
        )
        #expect(result.status == 2)
        #expect(result.stderrText == "lowband startup: error: valgrind is not installed; install it with: sudo apt-get install -y valgrind\n", "\(result.stderrText)")
    }

    @Test func anUnknownMeasureListsTheKnownOnes() async throws {
        let result = try await LowbandBinary.run(["startup", "--measure", "time,wall", "--until", "x", "--", "/bin/true"])
        #expect(result.status == 1)
        #expect(result.stderrText.hasPrefix("lowband startup: error: --measure knows time, instructions, cycles (comma-separated), not 'wall'"), "\(result.stderrText)")
    }
}
