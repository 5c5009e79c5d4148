import LowbandTestSupport
import Testing

/// The helper the interop tests rely on: large pipes both ways, stderr, exit status.
@Suite struct ExternalProcessTests {
    @Test func largeInputAndOutputDoNotDeadlock() async throws {
        let input = TestData.random(count: 12 << 20)
        let result = try await ExternalProcess.run("cat", [], stdin: input)
        #expect(result.status == 0)
        expectSameBytes(result.stdout, input)
    }

    @Test func stderrAndStatusAreCollected() async throws {
        let result = try await ExternalProcess.run("sh", ["-c", "printf out; printf 'oops\\n' >&2; exit 3"])
        #expect(result.status == 3)
        #expect(result.stdoutText == "out")
        #expect(result.stderrText == "oops\n")
    }

    @Test func programThatStopsReadingEarlyDoesNotBreakTheRun() async throws {
        let result = try await ExternalProcess.run("head", ["-c", "10"], stdin: TestData.random(count: 8 << 20))
        #expect(result.status == 0)
        #expect(result.stdout.count == 10)
    }

    @Test func lookupAndMissingExecutables() async throws {
        #expect(ExternalProcess.which("sh") != nil)
        #expect(ExternalProcess.which("no-such-program-lowband") == nil)
        await #expect(throws: ExternalProcess.Failure.self) { try await ExternalProcess.run("no-such-program-lowband", []) }
        let environment = try await ExternalProcess.run("/bin/sh", ["-c", "printf %s \"$LOWBAND_PROBE\""], environment: ["LOWBAND_PROBE": "x1"])
        #expect(environment.stdoutText == "x1")
    }
}
