import Foundation
import LowbandReports
import LowbandRunReport
@testable import LowbandScenarios
import LowbandTestSupport
import Testing

/// `lowband explain` as a library: a run folder read back into where each message's time went.
@Suite struct RunExplanationTests {
    @Test func aRunFolderExplainsItsSlowestMessagesAndEachOnesWaterfall() async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.pushToVisible, seed: 2, seconds: 30))
        let temporary = try TemporaryDirectory(prefix: "lowband-explain")
        let directory = temporary.file("out")
        _ = try RunOutputs.write([output], to: directory, environment: RunEnvironment(commit: "abc1234", host: "test", timestamp: "2026-01-01T00:00:00Z"))

        let overview = try RunExplanation.report(directory: directory, message: nil, top: 3)
        #expect(overview.hasPrefix("push-to-visible on edge, seed 2"))
        #expect(overview.contains("slowest deliveries:"))
        let slowest = try #require(output.record.slowest.first)
        #expect(overview.contains(RunExplanation.oneLine(slowest)), "the slowest delivery is listed with what held it up")

        let one = try RunExplanation.report(directory: directory, message: slowest.message, top: 3)
        #expect(one.contains("message \(slowest.message) (chat \(slowest.chat))"))
        #expect(one.contains("mostly "), "the waterfall names the stage that dominated")
    }

    @Test func aFolderThatIsNotARunIsOneClearError() throws {
        let temporary = try TemporaryDirectory(prefix: "lowband-explain")
        #expect(throws: RunExplanation.Failure.self) { try RunExplanation.report(directory: temporary.file("missing"), message: nil, top: 3) }
        do {
            _ = try RunExplanation.report(directory: temporary.path, message: nil, top: 3)
            Issue.record("an empty folder was explained")
        } catch let failure as RunExplanation.Failure {
            #expect(failure.description.contains("has no record.json"))
        }
    }

    @Test func exploreRowsCountFailingSeedsPerPromise() {
        func outcome(_ seed: UInt64, _ broken: [(name: String, count: Int)], wall: Double) -> SeedOutcome {
            SeedOutcome(
                seed: seed, faults: "swarm", clients: 5, durationSeconds: 600, broken: broken, firstViolation: "", wallMilliseconds: wall,
                traceHash: "", determinism: "", command: "lowband run --seed \(seed)", shrunk: "")
        }
        let outcomes = [
            outcome(1, [], wall: 100), outcome(2, [("order", 2), ("liveness", 1)], wall: 120), outcome(3, [("order", 1)], wall: 90),
        ]
        let environment = RunEnvironment(commit: "abc1234", host: "test", timestamp: "2026-01-01T00:00:00Z")
        let rows = ExploreOutputs.rows(outcomes, suite: "explore.crowd", benchmark: "edge", environment: environment)
        func value(_ metric: String) -> Double? { rows.first { $0.metric == metric }?.p50 }
        #expect(value("seeds") == 3 && value("failing_seeds") == 2)
        #expect(value("invariant.order") == 2, "seeds, not violations: two seeds broke order")
        #expect(value("invariant.liveness") == 1)
        #expect(rows.first { $0.metric == "wall_per_seed" }?.samples == 3 && value("wall_per_seed") == 100)
        #expect(ExploreOutputs.summary(outcomes, total: 3).contains("3 of 3 seeds run, 2 failing: order in 2, liveness in 1"))
    }
}
