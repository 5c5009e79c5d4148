import LowbandProcess
import Testing

/// A program run to its end: large pipes both ways, stderr, exit status, lookup, environment.
@Suite struct ExternalProcessTests {
    @Test func largeInputAndOutputDoNotDeadlock() async throws {
        let input = Bytes.random(count: 12 << 20)
        let result = try await ExternalProcess.run("cat", [], stdin: input)
        #expect(result.status == 0)
        #expect(result.stdout.count == input.count)
        #expect(result.stdout == input, "cat gave back other bytes than it was given")
    }

    @Test func stderrAndStatusAreCollected() async throws {
        let result = try await ExternalProcess.run("sh", ["-c", "printf out; printf 'oops\\n' >&2; exit 3"])
        #expect(result.status == 3)
        #expect(result.stdoutText == "out")
        #expect(result.stderrText == "oops\n")
    }

    @Test func aSignalsDeathReadsAs128PlusTheSignal() async throws {
        let result = try await ExternalProcess.run("sh", ["-c", "kill -9 $$"])
        #expect(result.status == 128 + 9)
    }

    @Test func programThatStopsReadingEarlyDoesNotBreakTheRun() async throws {
        let result = try await ExternalProcess.run("head", ["-c", "10"], stdin: Bytes.random(count: 8 << 20))
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

extension ExternalProcessTests {
    @Test func aGivenEnvironmentIsExactlyWhatTheProgramSees() async throws {
        let given = ["A": "1", "LOWBAND_LONG": String(repeating: "x", count: 3000), "E": ""]
        for _ in 0 ..< 20 {
            let result = try await ExternalProcess.run("/usr/bin/env", [], environment: given)
            let seen = result.stdoutText.split(separator: "\n").map(String.init).sorted()
            #expect(seen == given.map { "\($0.key)=\($0.value)" }.sorted())
        }
    }
}

enum Bytes {
    static func random(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
    }
}
