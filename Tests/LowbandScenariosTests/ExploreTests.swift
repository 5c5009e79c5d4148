import Foundation
import LowbandRunReport
@testable import LowbandScenarios
import Testing

/// `explore`'s library: seeds and shards, fault plans, sweeps that find a planted bug, print a
/// command that reproduces it, shrink it, and replay deterministically.
@Suite struct ExploreTests {
    @Test func shardsSplitTheSeedsWithoutGapsOrOverlaps() throws {
        let range = try SeedSelection.parse(seeds: "10..30")
        #expect(range == 10 ... 30)
        var all: [UInt64] = []
        for index in 1 ... 4 { all += SeedSelection(range: range, shard: (index, 4)).seeds }
        #expect(all.sorted() == Array(10 ... 30))
        #expect(SeedSelection(range: range, shard: (2, 4)).seeds == [11, 15, 19, 23, 27])
        #expect(try SeedSelection.parse(seeds: "7") == 7 ... 7)
    }

    @Test(arguments: ["5..1", "x", "1..", "..5", "1...5", "-3..4"])
    func aBadSeedRangeIsRefused(_ text: String) {
        #expect(throws: ScenarioError.self) { try SeedSelection.parse(seeds: text) }
    }

    @Test(arguments: ["3/2", "0/2", "1", "a/b", "1/0"])
    func aBadShardIsRefused(_ text: String) {
        #expect(throws: ScenarioError.self) { try SeedSelection.parse(shard: text) }
    }

    @Test func faultPlansParseAndSwarmsDependOnlyOnTheSeed() throws {
        #expect(try FaultPlan(parsing: "none").isNone)
        #expect(try FaultPlan(parsing: "app-kill, reset").description == "reset,app-kill")
        do {
            _ = try FaultPlan(parsing: "reset,earthquake")
            Issue.record("an unknown fault was accepted")
        } catch {
            #expect(error.message.contains("unknown fault 'earthquake'") && error.message.contains("app-suspend"))
        }
        let swarm = FaultPlan.swarm
        #expect(swarm.kinds(seed: 5) == swarm.kinds(seed: 5))
        let mixes = Set((1 ... 40).map { swarm.kinds(seed: $0) })
        #expect(mixes.count > 10)
        #expect((1 ... 40).allSatisfy { !swarm.kinds(seed: $0).isEmpty })
        #expect(swarm.resolved(seed: 5).kinds(seed: 99) == swarm.kinds(seed: 5))
    }

    @Test func droppingAKindLeavesTheOthersWhereTheyWere() throws {
        let both = FaultPlan(.kinds([.reset, .appKill])).schedule(seed: 8, duration: .seconds(600), clients: 4)
        let one = FaultPlan(.kinds([.appKill])).schedule(seed: 8, duration: .seconds(600), clients: 4)
        // The same faults at the same times; only their numbers in the schedule differ.
        let unnumbered = { (faults: [PlannedFault]) in faults.map { fault in var copy = fault; copy.number = 0; return copy } }
        #expect(unnumbered(both.filter { $0.kind == .appKill }) == unnumbered(one))
        #expect(both.map(\.number) == Array(1 ... both.count))
        #expect(both.allSatisfy { $0.at <= .seconds(480) })
    }

    @Test func aFailingSeedPrintsACommandThatReproducesIt() async throws {
        var options = ExploreOptions(
            scenario: .crowd, profile: try ScenarioFixtures.profile("edge"), seeds: SeedSelection(range: 1 ... 4),
            faults: .none, clients: 2, duration: .seconds(600), jobs: 2, shrink: true, checkDeterminism: true)
        options.implementation = StallsTheOutbox.self
        let outcomes = try await Explorer.run(options)
        #expect(outcomes.map(\.seed) == [1, 2, 3, 4])
        for outcome in outcomes {
            #expect(outcome.failed)
            #expect(outcome.broken.contains { $0.name == "liveness" })
            #expect(outcome.determinism == "same")
            #expect(outcome.command == "lowband run --scenario crowd --profile edge --seed \(outcome.seed) --clients 2 --duration 600s --virtual-time")
            // The printed command, read back, is the same run.
            let again = try VirtualRun.run(try ScenarioOptions(reproducing: outcome.command, searchPath: [ScenarioFixtures.profiles]), implementation: StallsTheOutbox.self)
            #expect(Fingerprint.of(again) == outcome.traceHash)
            // Shrinking keeps the failure in a run no longer than the original.
            let shrunk = try ScenarioOptions(reproducing: outcome.shrunk, searchPath: [ScenarioFixtures.profiles])
            #expect(shrunk.duration <= .seconds(600) && shrunk.clients == 2)
            let small = try VirtualRun.run(shrunk, implementation: StallsTheOutbox.self)
            #expect(small.record.invariants.contains { $0.name == "liveness" && $0.violations > 0 })
        }
    }

    @Test func anHonestSweepPassesAndReplays() async throws {
        let options = ExploreOptions(
            scenario: .crowd, profile: try ScenarioFixtures.profile("edge"), seeds: SeedSelection(range: 1 ... 6),
            faults: .none, clients: 3, duration: .seconds(120), jobs: 2, checkDeterminism: true)
        let outcomes = try await Explorer.run(options)
        #expect(outcomes.count == 6)
        #expect(outcomes.allSatisfy { $0.determinism == "same" })
        #expect(Set(outcomes.map(\.traceHash)).count == 6)
    }

    @Test func theExploreTableReadsBackWhatWasWritten() throws {
        let outcomes = [
            SeedOutcome(seed: 3, faults: "reset,app-kill", clients: 5, durationSeconds: 600, broken: [("liveness", 2), ("order", 1)],
                        firstViolation: "liveness [t=1.0s client 0]: \"quoted\", with commas", wallMilliseconds: 123.4, traceHash: "00ff",
                        determinism: "same", command: "lowband run --seed 3", shrunk: ""),
            SeedOutcome(seed: 4, faults: "none", clients: 5, durationSeconds: 600, broken: [], firstViolation: "", wallMilliseconds: 99,
                        traceHash: "0100", determinism: "", command: "lowband run --seed 4", shrunk: ""),
        ]
        var proved = outcomes
        proved[0].proof = "proved: without fault 1 (reset) liveness of m-1 on bob held 3 of 3, with it alone liveness on bob broke 3 of 3"
        let parsed = try ExploreTable.parse(ExploreTable.render(proved), file: "explore.csv")
        #expect(parsed == proved)
        // A file written before the proof column reads back, with no proof.
        let older = ExploreTable.render(outcomes).split(separator: "\n").map { line in
            String(line.dropLast(line.hasSuffix(",proof") ? ",proof".count : 1))
        }.joined(separator: "\n") + "\n"
        #expect(try ExploreTable.parse(older, file: "explore.csv") == outcomes)
        do {
            _ = try ExploreTable.parse("seed,faults\n1,none\n", file: "x/explore.csv")
            Issue.record("a bad header was accepted")
        } catch {
            #expect(error.description.hasPrefix("x/explore.csv:1:"))
        }
    }

    @Test func commandWordsReadBackWhatWasQuoted() {
        let words = ["lowband", "run", "--profile", "/tmp/my phone's link.yaml", "--seed", "3", ""]
        let line = CommandWords.join(words)
        #expect(line == "lowband run --profile '/tmp/my phone'\\''s link.yaml' --seed 3 ''")
        #expect(CommandWords.split(line) == words)
    }

    @Test func aReproducingCommandReadsBack() throws {
        let options = try ScenarioOptions(reproducing: "lowband run --scenario subway --profile 3g --seed 12 --clients 3 --duration 90s --virtual-time --faults outage,reset", searchPath: [ScenarioFixtures.profiles])
        #expect(options.scenario == .subway && options.seed == 12 && options.clients == 3 && options.duration == .seconds(90) && options.virtualTime)
        #expect(options.faults.description == "outage,reset")
        #expect(throws: ScenarioError.self) { try ScenarioOptions(reproducing: "lowband run --bogus", searchPath: [ScenarioFixtures.profiles]) }
    }

    @Test(arguments: FaultKind.allCases)
    func everyFaultKindIsPlayedAndReplays(_ kind: FaultKind) throws {
        var options = try ScenarioFixtures.virtualOptions(.crowd, seed: 6, clients: 3, seconds: 300)
        options.faults = FaultPlan(.kinds([kind]))
        let first = try VirtualRun.run(options)
        let second = try VirtualRun.run(options)
        #expect(Fingerprint.of(first) == Fingerprint.of(second))
        // Outages and handovers are the shaper's own lines; every other kind leaves its notes.
        if kind == .outage || kind == .handover {
            #expect(first.trace.contains { $0.contains("\"event\":\"outage-start\"") && $0.contains(kind == .outage ? "blackout" : "handover") })
        } else {
            #expect(first.trace.contains { $0.contains("\"detail\":\"fault: ") })
        }
        #expect(first.record.invariants.count == InvariantChecker.promises.count)
    }

    @Test func aToxicSlowsTheMessagesUnderIt() throws {
        var options = try ScenarioFixtures.virtualOptions(.crowd, seed: 6, clients: 4, seconds: 600)
        let calm = try VirtualRun.run(options)
        options.faults = FaultPlan(.kinds([.toxicLatency]))
        let slowed = try VirtualRun.run(options)
        let added = FaultPlan(.kinds([.toxicLatency])).schedule(seed: 6, duration: .seconds(600), clients: 4)
        #expect(!added.isEmpty)
        func mean(_ output: ScenarioOutput) -> Double {
            output.breakdowns.map(\.totalMilliseconds).reduce(0, +) / Double(max(1, output.breakdowns.count))
        }
        // At least half a second more on every message under the toxic makes the mean longer.
        #expect(mean(slowed) > mean(calm))
    }
}
