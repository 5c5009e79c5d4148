import Foundation
import LowbandReports
import LowbandRunReport
import LowbandShaper
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

    /// Regression (issue 26): a push that waited on a connection that was up, behind downlink
    /// loss stalls, until the engine gave the link up, reached its receiver only by the next
    /// login: that is loss stalls, not "the receiver had no session". Edge's own fades (300 ms)
    /// no longer stall a link that long, so this run has fades of 20 s on average, 10 % of the time.
    @Test func aPushLostWithItsConnectionIsLossStallsThenResync() async throws {
        var options = try ScenarioFixtures.virtualOptions(.crowd, seed: 1, clients: 20, seconds: 600)
        for direction in [\NetworkProfile.downlink, \NetworkProfile.uplink] {
            options.profile[keyPath: direction].loss = LossProfile(rate: 0.1, burst: .seconds(20))
        }
        // A 20 s heartbeat gives a link up 30 s into such a fade; the default (270 s) rides
        // most of them out, and the push then arrives on its own connection.
        options.heartbeat = .seconds(20)
        let output = try await ScenarioFixtures.run(options)
        let stalled = output.breakdowns.filter { $0.carrier == "login" && RunExplanation.dominant($0).0 == .downlinkLossStalls }
        let row = try #require(stalled.first, "no delivery was held by downlink loss stalls until a login")
        let stage = { (stage: LatencyStage) in row.stages[LatencyStage.allCases.firstIndex(of: stage)!] }
        #expect(stage(.downlinkLossStalls) > 10_000, "\(row.stages)")
        #expect(stage(.resyncWait) < stage(.downlinkLossStalls), "only from the close to the login: \(row.stages)")
        let note = try #require(row.note)
        #expect(note.hasPrefix("its push waited on connection "), "\(note)")
        #expect(note.contains("s of it in loss stalls) until the session ended at"), "\(note)")
        #expect(RunExplanation.waterfall(row).contains("mostly downlink loss stalls: its push waited on connection"))
        // The headline counts the same deliveries as the breakdown, this one included.
        let delays = try #require(output.record.metrics.first { $0.name == "delivery_delay" })
        #expect(delays.values.count == output.breakdowns.count)
        // The lost sessions are counted as lost to loss stalls.
        #expect((output.record.count("reconnects.loss-stall") ?? 0) > 0)
        // The note travels with the row through breakdown.csv.
        let again = try BreakdownTable.parse(BreakdownTable.render([row]))
        #expect(again.first?.note == row.note)
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
        // What had no case is said when every seed's run told it (not for --exec seeds or merged rows).
        #expect(!ExploreOutputs.summary(outcomes, total: 3).contains("promises"))
        var judged = outcomes
        judged[0].unchecked = ["liveness", "cache_lost_after_kill"]
        judged[1].unchecked = ["cache_lost_after_kill"]
        judged[2].unchecked = []
        #expect(ExploreOutputs.summary(judged, total: 3).contains("\npromises with no case on some seeds: liveness on 1, cache_lost_after_kill on 2 of 3\n"))
        for index in judged.indices { judged[index].unchecked = [] }
        #expect(ExploreOutputs.summary(judged, total: 3).contains("\npromises: every one judged on every seed\n"))
    }
}
