import Foundation
import LowbandFindings
import LowbandReports
import LowbandRunReport
import LowbandScenarios
import LowbandTestSupport
import Testing

/// `lowband run`'s outputs as a library: the folder's files, the CSV rows and the printed lines,
/// tested without the binary.
@Suite struct RunOutputsTests {
    static let environment = RunEnvironment(commit: "abc1234", host: "test", timestamp: "2026-01-01T00:00:00Z")

    @Test func theFolderHoldsEveryFileAndTheRecordIsPrettyJSON() async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.pushToVisible, seed: 2, seconds: 30))
        let temporary = try TemporaryDirectory(prefix: "lowband-outputs")
        // Not made beforehand: the writing makes the folder.
        let directory = temporary.file("out")
        let written = try RunOutputs.write([output], to: directory, environment: Self.environment)
        #expect(written.map { ($0 as NSString).lastPathComponent } == ["results.csv", "trace.jsonl", "breakdown.csv", "record.json", "report.html"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/record.json")) == Data(try RunRecord.prettyJSON([output.record])))
        #expect(try String(contentsOfFile: "\(directory)/trace.jsonl", encoding: .utf8) == output.traceText)
        let rows = try BenchmarkCSV.read(from: "\(directory)/results.csv")
        #expect(rows.allSatisfy { $0.suite == "run.push-to-visible" && $0.benchmark == "edge" && $0.commit == "abc1234" })
        for check in output.record.invariants {
            #expect(rows.first { $0.metric == "invariant.\(check.name)" }?.p50 == Double(check.violations))
            #expect(rows.first { $0.metric == "invariant.\(check.name).cases" }?.p50 == Double(check.checked))
        }
    }

    /// A small figure (joules per message on a busy link) keeps its digits in the table.
    @Test func figuresUnderOneKeepTwoSignificantDigits() {
        #expect(RunOutputs.number(0.0437) == "0.044")
        #expect(RunOutputs.number(0.5) == "0.5")
        #expect(RunOutputs.number(-0.25) == "-0.25")
        #expect(RunOutputs.number(203.04) == "203.0")
        #expect(RunOutputs.number(23) == "23")
        #expect(RunOutputs.number(0) == "0")
    }

    @Test func brokenPromisesAreNamedWithTheirVerdicts() {
        let record = RunRecord(
            scenario: "crowd", profile: "edge", seed: 1, clients: 2, virtualTime: true, command: "", durationSeconds: 60, partial: false,
            floorMilliseconds: nil, metrics: [], traffic: [], timeline: [],
            invariants: [
                InvariantCheck(name: "order", promise: "", checked: 40, violations: 2),
                InvariantCheck(name: "duplicated", promise: "", checked: 1, violations: 0),
                InvariantCheck(name: "liveness", promise: "", checked: 0, violations: 0),
            ])
        let text = RunOutputs.invariants(record)
        #expect(text.hasPrefix("INVARIANTS BROKEN: order ×2 (1 of 3 broken, 1 held, 1 not checked (no case: liveness)) — order broken 2 times in 40 cases, duplicated held on 1 case, liveness not checked\n"), "\(text)")
    }

    @Test func profileNamesAndPathsBecomeSafeFileNames() {
        #expect(RunOutputs.fileSafe("edge") == "edge")
        #expect(RunOutputs.fileSafe("profiles/my net.yaml") == "my_net")
        #expect(RunOutputs.fileSafe("../x/3g.yml") == "3g")
    }
}
