import Foundation
import LowbandProcess
import LowbandTestSupport
import Synchronization
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

    /// Output is read, and the exit learnt, on a thread of the reader's own. Every thread of the
    /// Swift concurrency pool is held here, as a parallel test suite under load holds them, and only
    /// then does the program flood stderr: it still runs to its end and its status is known. (When
    /// the pipes were read on the pool, this program blocked on its full pipe until the pool freed.)
    @Test func aProgramRunsToItsEndWhileThePoolIsBusy() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-child")
        let go = directory.file("go")
        let child = try await ChildProcess("sh", ["-c", "while [ ! -e '\(go)' ]; do sleep 0.02; done; head -c 5242880 /dev/zero | tr '\\0' x >&2"])
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let pool = PoolHold()
        for _ in 0 ..< threads {
            Task.detached { pool.hold() }
        }
        let seen: (held: Bool, status: Int32?) = await withCheckedContinuation { continuation in
            let watcher = Thread {
                let held = pool.waitUntilHeld(by: threads, within: 30)
                _ = FileManager.default.createFile(atPath: go, contents: nil)
                var status: Int32?
                for _ in 0 ..< 3000 where status == nil {
                    status = child.status
                    if status == nil { usleep(10_000) }
                }
                pool.release()
                continuation.resume(returning: (held, status))
            }
            watcher.start()
        }
        #expect(seen.held, "the pool's \(threads) threads were not all held; the test proves nothing")
        #expect(seen.status == 0, "the program's end was not seen while the pool was busy")
        #expect(child.stderrText.utf8.count == ChildProcess.stderrLimit)
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

/// Holds threads of the Swift concurrency pool: each `hold` blocks its thread until `release`.
private final class PoolHold: Sendable {
    private let state = Mutex((holding: 0, released: false))

    func hold() {
        state.withLock { $0.holding += 1 }
        while !state.withLock({ $0.released }) { usleep(1000) }
    }

    /// Whether `count` threads are held within `seconds`.
    func waitUntilHeld(by count: Int, within seconds: Int) -> Bool {
        for _ in 0 ..< seconds * 100 {
            if state.withLock({ $0.holding >= count }) { return true }
            usleep(10_000)
        }
        return false
    }

    func release() {
        state.withLock { $0.released = true }
    }
}
