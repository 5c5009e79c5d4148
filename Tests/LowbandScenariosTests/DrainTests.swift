import Foundation
import LowbandRunReport
@testable import LowbandScenarios
import LowbandShaper
import Testing

/// After its traffic a run drains (docs/RUN.md, "The drain"): nothing new is sent, the network
/// heals, and the run goes on until nothing is in flight or the settle bound passes, so a
/// one-minute run on edge (settle 147 s) judges every promise its traffic made.
@Suite struct DrainTests {
    private func checked(_ record: RunRecord) -> [String: (checked: Int, broken: Int)] {
        Dictionary(uniqueKeysWithValues: record.invariants.map { ($0.name, ($0.checked, $0.violations)) })
    }

    @Test func theDefaultRunJudgesEveryPromiseItsTrafficMade() async throws {
        let options = try ScenarioFixtures.virtualOptions(.pushToVisible, seed: 1, seconds: 60)
        let output = try await ScenarioFixtures.run(options)
        let drain = try #require(output.record.drain)
        #expect(drain.settled)
        #expect(drain.seconds >= 1 && drain.seconds < 30, "\(drain)")
        #expect(output.record.durationSeconds == 60)
        let settle = try #require(output.record.settleSeconds)
        // Settled: the state then is final, so the checks judge as if the settle time had passed.
        #expect(abs(drain.judgedUntilSeconds - (60 + drain.seconds + settle)) < 1e-6)
        let checks = checked(output.record)
        for name in ["acknowledged_lost", "duplicated", "order", "outbox_not_drained", "chat_list_mismatch", "resource_bounds"] {
            #expect((checks[name]?.checked ?? 0) > 0, "\(name) not checked")
        }
        // What is left unchecked has no case in this scenario: it kills no app and its clients send nothing.
        #expect(output.record.invariants.tally == "6 of 8 held, 2 not checked (no case: cache_lost_after_kill, liveness)")
        // No new push after the traffic's end; the one in flight still counts.
        let pushes = output.trace.filter { $0.contains("\"event\":\"push-sent\"") }
        #expect(!pushes.isEmpty)
        #expect(pushes.allSatisfy { Self.seconds(of: $0) < 60 })
        #expect(RunOutputs.invariants(output.record).contains("drain: after the traffic, drained "))
    }

    @Test func withoutTheDrainTheRunEndsWithItsTrafficAndTheTracesAgreeUntilThen() async throws {
        var options = try ScenarioFixtures.virtualOptions(.subway, seed: 1, seconds: 300)
        let drained = try await ScenarioFixtures.run(options)
        options.drain = false
        let ended = try await ScenarioFixtures.run(options)
        #expect(ended.record.drain == nil)
        #expect(checked(ended.record)["outbox_not_drained"]?.checked == 0)
        #expect((checked(drained.record)["outbox_not_drained"]?.checked ?? 0) > 0)
        // The drain changes nothing before the traffic's end except the network healing at it:
        // an outage in force then ends there (and a connection waiting on it opens sooner).
        let before = { (lines: [String]) in lines.filter { Self.seconds(of: $0) < 300 && !$0.contains("\"event\":\"outage-start\"") && !$0.contains("\"event\":\"open\"") } }
        #expect(before(drained.trace) == before(ended.trace))
        #expect(before(drained.trace).count > 100)
        // Healed: subway's blackouts come every 60–180 s, and none begins after the traffic.
        let outages = drained.trace.filter { $0.contains("\"event\":\"outage-start\"") }.map(Self.seconds)
        #expect(!outages.isEmpty && outages.allSatisfy { $0 < 300 })
        let ends = drained.trace.filter { $0.contains("\"event\":\"outage-end\"") }.map(Self.seconds)
        #expect(ends.allSatisfy { $0 <= 300 })
    }

    @Test func aShortRunNowFindsALostMessage() throws {
        let drained = try ForgetsAMessage.run(seconds: 60)
        #expect(drained.record.invariants.first { $0.name == "acknowledged_lost" }?.violations == 1)
        #expect(drained.record.drain?.settled == true)
        // Without the drain, a minute is too short for the settle time: the loss goes unseen.
        let ended = try ForgetsAMessage.run(seconds: 60, drain: false)
        #expect(ended.record.invariants.first { $0.name == "acknowledged_lost" }?.violations == 0)
    }

    @Test func aRunThatCannotSettleDrainsToTheBoundAndIsJudgedThere() throws {
        let output = try StallsTheOutbox.run(seconds: 60)
        let drain = try #require(output.record.drain)
        let settle = try #require(output.record.settleSeconds)
        #expect(!drain.settled)
        #expect(abs(drain.seconds - settle) < 1e-6, "\(drain)")
        #expect(drain.judgedUntilSeconds == 60 + drain.seconds)
        let found = checked(output.record)
        #expect((found["outbox_not_drained"]?.broken ?? 0) >= 1)
        #expect((found["liveness"]?.broken ?? 0) >= 1)
        #expect(RunOutputs.invariants(output.record).contains("to the bound without settling"))
    }

    @Test func theDrainWaitsForAnInjectedFaultToEnd() async throws {
        // Seed 5 kills client 0 at 41.9 s for 59.9 s: it starts again at 101.8 s, well into the
        // drain, and the run settles only once it is back and caught up.
        var options = try ScenarioFixtures.virtualOptions(.crowd, seed: 5, clients: 3, seconds: 60)
        options.faults = try FaultPlan(parsing: "app-kill,server-restart")
        let bounds = InvariantBounds(profile: options.profile)
        #expect(DrainPhase(options: options, bounds: bounds).bound > .seconds(60) + bounds.settle, "the bound starts from the kill's end")
        let output = try await ScenarioFixtures.run(options)
        let restarted = output.trace.filter { $0.contains("app started again") && $0.contains("\"client\":0,") }.map(Self.seconds)
        #expect(restarted.count == 1 && restarted[0] > 100, "\(restarted)")
        let drain = try #require(output.record.drain)
        #expect(drain.settled)
        #expect(60 + drain.seconds > restarted.first ?? .infinity, "settled after the restart, not before: \(drain)")
        #expect((output.record.invariants.first { $0.name == "cache_lost_after_kill" }?.checked ?? 0) >= 3)
        #expect(!output.record.hasViolations, "\(output.record.violations.map(\.detail))")
    }

    @Test func aRecordWithADrainReadsBackAndOlderRecordsHaveNone() throws {
        var record = RunRecord(
            scenario: "crowd", profile: "edge", seed: 1, clients: 2, virtualTime: true, command: "", durationSeconds: 60, partial: false,
            floorMilliseconds: nil, metrics: [], traffic: [], timeline: [])
        record.drain = RunDrain(seconds: 3, settled: true, judgedUntilSeconds: 210)
        let decoded = try JSONDecoder().decode([RunRecord].self, from: Data(try RunRecord.prettyJSON([record])))
        #expect(decoded.first?.drain == record.drain)
        #expect(decoded.first?.endSeconds == 63)
        record.drain = nil
        let old = try JSONDecoder().decode([RunRecord].self, from: Data(try RunRecord.prettyJSON([record])))
        #expect(old.first?.drain == nil && old.first?.endSeconds == 60)
    }

    private static func seconds(of line: String) -> Double {
        guard let range = line.range(of: "\"t_ns\":"), let end = line[range.upperBound...].firstIndex(of: ",") else { return -1 }
        return (Double(line[range.upperBound ..< end]) ?? -1) / 1e9
    }
}
