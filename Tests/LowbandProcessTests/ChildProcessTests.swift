import Foundation
import LowbandProcess
import LowbandTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A long-running program: lines as they come, signals, exits with deadlines, output to a file.
@Suite struct ChildProcessTests {
    @Test func linesArriveWhileTheProgramRunsAndStderrIsKept() async throws {
        let child = try await ChildProcess("sh", ["-c", "echo oops >&2; echo first; exec sleep 30"])
        #expect(try await child.nextLine() == "first")
        #expect(child.status == nil, "the program is still running")
        child.send(SIGTERM)
        #expect(try await child.exitStatus() == 128 + SIGTERM)
        #expect(child.stderrText == "oops\n")
        #expect(try await child.nextLine() == nil, "stdout has ended")
    }

    @Test func linesUntilAMatchReturnThoseBeforeIt() async throws {
        let child = try await ChildProcess("sh", ["-c", "printf 'a\\nb\\nready 7\\nafter'"])
        let found = try await child.lines(until: { $0.hasPrefix("ready") })
        #expect(found.match == "ready 7")
        #expect(found.before == ["a", "b"])
        #expect(try await child.nextLine() == "after", "a last line without a newline still counts")
        #expect(try await child.exitStatus() == 0)
    }

    @Test func anExitWaitThatTimesOutKillsTheProgram() async throws {
        let child = try await ChildProcess("sleep", ["60"])
        await #expect(throws: ChildProcess.Failure.self) { try await child.exitStatus(timeout: .milliseconds(200)) }
        #expect(try await child.exitStatus(timeout: .seconds(10)) == 128 + SIGKILL)
        #expect(await child.waitForExit(within: .seconds(1)))
    }

    @Test func stderrKeepsItsNewestBytesUpToTheLimit() async throws {
        let child = try await ChildProcess("sh", ["-c", "head -c 5242880 /dev/zero | tr '\\0' x >&2; echo done >&2"])
        #expect(try await child.exitStatus() == 0)
        let kept = child.stderrText
        #expect(kept.utf8.count == ChildProcess.stderrLimit, "a program that floods stderr costs a bounded amount")
        #expect(kept.hasSuffix("xdone\n"), "the newest bytes, where a failing program says why, are the ones kept")
    }

    @Test func aMissingProgramIsAClearError() async throws {
        await #expect(throws: ChildProcess.Failure.self) { try await ChildProcess("no-such-program-lowband", []) }
    }

    @Test func outputAppendedToAFileSurvivesAKill() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-child")
        let log = directory.file("child.log")
        try Data("before\n".utf8).write(to: URL(fileURLWithPath: log))
        let child = try await ChildProcess("sh", ["-c", "echo out; echo err >&2; sleep 60"], output: .appending(toFile: log))
        var text = ""
        for _ in 0 ..< 500 where !(text.contains("out\n") && text.contains("err\n")) {
            try await Task.sleep(for: .milliseconds(10))
            text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        }
        child.send(SIGKILL)
        #expect(try await child.exitStatus() == 128 + SIGKILL)
        let kept = try String(contentsOfFile: log, encoding: .utf8)
        #expect(kept.hasPrefix("before\n"), "the file is appended to, not replaced: \(kept)")
        #expect(kept.contains("out\n") && kept.contains("err\n"), "stdout and stderr both go to the file: \(kept)")
    }

    @Test func theProgramIsKilledWhenTheHandleGoesAway() async throws {
        var child: ChildProcess? = try await ChildProcess("sleep", ["60"])
        let pid = try #require(child?.processIdentifier)
        child = nil
        var gone = false
        for _ in 0 ..< 500 where !gone {
            // Signal 0 probes: ESRCH once the process is gone and reaped.
            gone = kill(pid, 0) != 0
            if !gone { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(gone, "sleep \(pid) outlived its handle")
    }
}
