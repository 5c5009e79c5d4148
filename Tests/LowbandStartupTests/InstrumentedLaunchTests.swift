import Foundation
import LowbandProcess
import LowbandReports
import LowbandStartup
import Testing

/// Instruction counts of real starts under the real valgrind: exact from run to run for a
/// deterministic program, wrappers counted, more work seen by `compare`, and the launches that
/// cannot be counted said in words. Small shell programs: callgrind makes every start tens of
/// times slower, so nothing here is timed and every wait is generous.
@Suite struct InstrumentedLaunchTests {
    private static let tools = InstrumentedLaunch.Tools.locate()

    private func launch(_ script: String, until pattern: String?, timeout: Duration = .seconds(120), cycles: Bool = false) throws -> InstrumentedLaunch {
        let tools = try #require(Self.tools, "valgrind is needed (scripts/setup.sh installs it)")
        return InstrumentedLaunch(
            tools: tools, executable: "/bin/sh", arguments: ["-c", script], environment: ["PATH=/usr/bin:/bin", "LC_ALL=C"],
            marker: try pattern.map { try Regex($0) }, pattern: pattern ?? "", timeout: timeout, cacheSimulation: cycles
        )
    }

    @Test func aDeterministicStartCountsTheSameInstructionsEveryRun() throws {
        let launch = try launch("echo booting; echo ready; sleep 30", until: "^ready$", cycles: true)
        let samples = try (0 ..< 3).map { _ in try launch.run() }
        #expect(samples.map(\.line) == ["ready", "ready", "ready"])
        #expect(samples[0].instructions > 10_000)
        #expect(Set(samples.map(\.instructions)).count == 1, "counts moved: \(samples.map(\.instructions))")
        #expect(Set(samples.map(\.cycles)).count == 1 && samples[0].cycles.map { $0 > samples[0].instructions } == true)
        #expect(samples.allSatisfy { $0.notes.isEmpty }, "\(samples.map(\.notes))")
    }

    /// `exec env sh -c …`: the outer shell and env exec away; their work before the exec counts.
    @Test func wrappersThatExecAreCountedToo() throws {
        let inner = try launch("echo ready", until: "ready").run()
        let wrapped = try launch("exec /usr/bin/env X=1 /bin/sh -c 'echo ready'", until: "ready").run()
        #expect(wrapped.images >= 3, "sh, env and sh again: \(wrapped.images) images")
        #expect(wrapped.instructions > inner.instructions + 100_000, "\(wrapped.instructions) against \(inner.instructions) unwrapped")
        let again = try launch("exec /usr/bin/env X=1 /bin/sh -c 'echo ready'", until: "ready").run()
        #expect(again.instructions == wrapped.instructions)
    }

    /// 2 % more iterations of a shell loop: `compare` fails it at its default limit, and passes
    /// the same program against itself.
    @Test func moreWorkIsARegressionAndTheSameWorkIsNot() throws {
        func rows(_ iterations: Int) throws -> [BenchmarkRow] {
            let launch = try launch("i=0; while [ $i -lt \(iterations) ]; do i=$((i + 1)); done; echo ready", until: "ready")
            let samples = try (0 ..< 2).map { _ in try launch.run() }
            return StartupSummary.instructionRows(benchmark: "loop", samples: samples, environment: RunEnvironment(timestamp: "2026-01-01T00:00:00Z"))
        }
        let base = try rows(3000)
        let same = try rows(3000)
        let more = try rows(3060)
        #expect(base[0].sampleValues == same[0].sampleValues)
        let aa = BenchmarkComparison(baseline: base, current: same)
        #expect(!aa.fails && aa.entries[0].countLimit == InstructionGate.floor)
        let regression = BenchmarkComparison(baseline: base, current: more)
        #expect(regression.fails && regression.entries[0].verdict == .regression, "\(regression.entries[0])")
    }

    @Test func aProgramThatForksADaemonIsCountedToItsExitAndTheDaemonEnded() throws {
        let sample = try launch("sleep 60 & echo started", until: nil).run()
        #expect(sample.line == nil && sample.instructions > 0)
        let note = try #require(sample.notes.first { $0.contains("leaving 1 process running") }, "\(sample.notes)")
        #expect(note.contains("sleep 60") && note.contains("counted up to its exit") && note.hasSuffix("ended"), "\(note)")
        let pid = try #require(note.firstMatch(of: /pid (\d+)/).flatMap { Int32($0.1) })
        let state = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8))?.split(separator: "\n").first { $0.hasPrefix("State:") }
        #expect(state == nil || state?.contains("Z") == true, "the daemon \(pid) outlived the launch: \(state ?? "")")
    }

    @Test func aProgramThatNeverPrintsItsLineTimesOutSayingItWasInstrumented() throws {
        let launch = try launch("echo hi; sleep 60", until: "never", timeout: .seconds(2))
        #expect {
            try launch.run()
        } throws: { error in
            let text = (error as? ProgramLaunch.Failure)?.description ?? ""
            return text.contains("no line matching 'never' within 2 s (--timeout) under callgrind")
                && text.contains("the program ran") && text.contains("stdout: \"hi\"")
        }
    }

    @Test func aProgramThatExitsWithoutItsLineFails() throws {
        let launch = try launch("echo oops >&2; exit 3", until: "ready")
        #expect {
            try launch.run()
        } throws: { error in
            ((error as? ProgramLaunch.Failure)?.description ?? "").contains("/bin/sh exited with status 3 under callgrind before printing a line matching 'ready'")
        }
    }
}

/// The pure parts: callgrind's files, the cycle formula, the --measure names.
@Suite struct CallgrindFiguresTests {
    @Test func aCallgrindFileGivesItsTotalsByEvent() throws {
        let text = "version: 1\npid: 42\ncmd:  /bin/sh -c x\npart: 1\n\nevents: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nfl=(1) a\n0 5\n\nsummary: 100 40 20 3 2 1\ntotals: 100 40 20 3 2 1\n"
        let dump = try #require(CallgrindDumps.parse(text))
        #expect(dump.pid == 42 && dump.command == "/bin/sh -c x")
        #expect(dump.counts == ["Ir": 100, "Dr": 40, "Dw": 20, "I1mr": 3, "D1mr": 2, "D1mw": 1, "ILmr": 0, "DLmr": 0, "DLmw": 0])
        #expect(CallgrindDumps.parse("pid: 1\n") == nil)
    }

    /// iai's formula: L1 hits + 5 × L3 hits + 35 × RAM hits.
    @Test func cyclesFollowTheCacheSimulation() {
        let counts = ["Ir": 1000, "Dr": 300, "Dw": 200, "I1mr": 10, "D1mr": 20, "D1mw": 10, "ILmr": 2, "DLmr": 3, "DLmw": 1]
        // RAM 6, L3 40 − 6 = 34, L1 1500 − 34 − 6 = 1460: 1460 + 170 + 210.
        #expect(CycleEstimate.cycles(counts) == 1840)
        #expect(CycleEstimate.cycles(["Ir": 1000]) == nil)
    }

    @Test func measuresAreNamedOrRefusedWithTheKnownOnes() throws {
        #expect(try StartupMeasures.parse("time,instructions") == StartupMeasures(time: true, instructions: true))
        #expect(try StartupMeasures.parse("cycles") == StartupMeasures(instructions: true, cycles: true))
        #expect {
            try StartupMeasures.parse("time,wall")
        } throws: { error in
            "\(error)" == "--measure knows time, instructions, cycles (comma-separated), not 'wall'"
        }
    }

    @Test func theLimitFollowsTheSpread() {
        #expect(InstructionGate.limit(metric: "instructions", baseline: [100, 100], current: [100]) == InstructionGate.floor)
        #expect(InstructionGate.limit(metric: "instructions", baseline: [1000, 1010], current: [1000]) == 0.02)
        #expect(InstructionGate.limit(metric: "allocations", baseline: [1], current: [1]) == nil)
        #expect(InstructionGate.limit(metric: "instructions", baseline: nil, current: [1]) == nil)
    }
}
