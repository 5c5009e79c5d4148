import LowbandRunReport
@testable import LowbandScenarios
import Testing

/// `lowband run`'s verdicts name one cause per broken case, as an app's do: the fault without
/// which it would not have broken, or that no fault touched the message (the app's own bug);
/// `explore --prove` shows it with one run each way, exact in virtual time.
@Suite struct RunCauseTests {
    /// The reader never fetches what it missed; fault 1 kills its app for 24.9 s on seed 2.
    static let killed = (seed: UInt64(2), seconds: Int64(300), faults: FaultPlan(.kinds([.appKill])))

    @Test func aMessageStoredWhileAFaultKeptTheReaderAwayNamesThatFault() throws {
        let output = try ClaimsItsHistoryComplete.run(seconds: Self.killed.seconds, seed: Self.killed.seed, faults: Self.killed.faults)
        let violation = try #require(output.record.violations.first)
        #expect(violation.invariant == "acknowledged_lost")
        #expect(violation.causeFault == "fault 1")
        let cause = try #require(violation.cause)
        #expect(cause.hasPrefix("client 1 had no session from "), "\(cause)")
        #expect(cause.contains("inside that gap"))
        #expect(cause.contains("its session ended after fault 1 (app kill of client 1 for "), "\(cause)")
        #expect(violation.subject == "message \(violation.message!)@client 1")
        #expect(violation.detail.contains("; cause: \(cause)"))
        // faults.txt names the same fault by the same number, with its real span.
        #expect(output.faults.first?.hasPrefix("fault 1: app kill of client 1 for ") == true, "\(output.faults)")
        #expect(output.faults.first?.contains("–") == true)
    }

    /// faults.txt says what was played, and the trace agrees: every outage, handover and address
    /// change it lists has the shaper's own outage-start at its start and outage-end at its end.
    @Test func theFaultsListAgreesWithTheTracesOutages() async throws {
        var options = try ScenarioFixtures.virtualOptions(.crowd, seed: 4, clients: 2, seconds: 300)
        options.faults = FaultPlan(.kinds([.outage, .handover, .addressChange]))
        let output = try await ScenarioFixtures.run(options)
        let spans = output.faults.compactMap { line -> (Double, Double)? in
            guard let range = line.split(separator: ", ").last?.dropLast(2).split(separator: "–"), range.count == 2,
                  let start = Double(range[0]), let end = Double(range[1]) else { return nil }
            return (start, end)
        }
        #expect(spans.count == output.faults.count && spans.count >= 3, "\(output.faults)")
        func times(_ event: String) -> [Double] {
            output.trace.filter { $0.contains("\"event\":\"\(event)\"") }.compactMap { TraceExcerpt.time(of: $0).map { Double($0) / 1e9 } }
        }
        let starts = times("outage-start"), ends = times("outage-end")
        for (start, end) in spans {
            #expect(starts.contains { abs($0 - start) < 0.001 } && ends.contains { abs($0 - end) < 0.001 }, "\(start)–\(end) s not in the trace's outages \(starts) / \(ends)")
        }
    }

    @Test func withoutTheFaultTheSameRunKeepsItsPromise() throws {
        var plan = Self.killed.faults
        plan.played = FaultSelection(without: [1])
        let output = try ClaimsItsHistoryComplete.run(seconds: Self.killed.seconds, seed: Self.killed.seed, faults: plan)
        #expect(output.record.violations.isEmpty, "\(output.record.violations.map(\.detail))")
        #expect(output.faults.first?.hasPrefix("fault 1: not played (left out by --without-faults 1)") == true, "\(output.faults)")
    }

    @Test func exploreProvesTheCauseWithOneRunEachWay() async throws {
        var options = ExploreOptions(
            scenario: .crowd, profile: try ScenarioFixtures.profile("edge"), seeds: SeedSelection(range: Self.killed.seed ... Self.killed.seed),
            faults: Self.killed.faults, clients: 2, duration: .seconds(Self.killed.seconds), jobs: 1)
        options.implementation = ClaimsItsHistoryComplete.self
        options.prove = true
        let outcome = try #require(try await Explorer.run(options).first)
        #expect(outcome.failed)
        #expect(outcome.proof.hasPrefix("proved: without fault 1 (app kill of client 1 for "), "\(outcome.proof)")
        #expect(outcome.proof.contains("acknowledged_lost of message ") && outcome.proof.contains(" on client 1 held 1 of 1"))
        #expect(outcome.proof.contains("with it alone acknowledged_lost on client 1 broke 1 of 1 (virtual time: one run each way is exact)"))
        // The printed command with `--without-faults 1` reads back as that run, and it holds.
        let without = try ScenarioOptions(reproducing: outcome.command + " --without-faults 1", searchPath: [ScenarioFixtures.profiles])
        #expect(without.faults.played == FaultSelection(without: [1]))
        #expect(Explorer.command(
            scenario: .crowd, profile: "edge", seed: without.seed, clients: without.clients, duration: without.duration, faults: without.faults
        ) == outcome.command + " --without-faults 1")
        #expect(try VirtualRun.run(without, implementation: ClaimsItsHistoryComplete.self).record.violations.isEmpty)
    }

    /// A flow the NAT forgot stays open and silent: the pushes written into it later vanish, and
    /// a reset long after (fault 4, 5) only ends what was already dead. The cause is the
    /// forgetting (fault 6), before the bytes were written, and the proof agrees.
    @Test func pushesIntoAForgottenFlowNameTheForgettingNotALaterReset() async throws {
        let faults = FaultPlan(.kinds([.reset, .connectionReset, .natExpiry]))
        let output = try ClaimsItsHistoryComplete.run(seconds: 600, seed: 2, faults: faults)
        #expect(output.faults.last == "fault 6: NAT expiry of client 1, at 462.501 s", "\(output.faults)")
        let lost = output.record.violations.filter { $0.invariant == "acknowledged_lost" }
        #expect(lost.count >= 3)
        for violation in lost {
            #expect(violation.causeFault == "fault 6")
            #expect(violation.cause?.contains("never arrived: the network forgot connection 8 at 462.501 s by fault 6 (NAT expiry of client 1, at 462.501 s), before these bytes were written") == true, "\(violation.cause ?? "")")
        }
        var options = ExploreOptions(
            scenario: .crowd, profile: try ScenarioFixtures.profile("edge"), seeds: SeedSelection(range: 2 ... 2), faults: faults, clients: 2,
            duration: .seconds(600), jobs: 1)
        options.implementation = ClaimsItsHistoryComplete.self
        options.prove = true
        let outcome = try #require(try await Explorer.run(options).first)
        #expect(outcome.proof.hasPrefix("proved: without fault 6 (NAT expiry of client 1) acknowledged_lost of message 57 on client 1 held 1 of 1"), "\(outcome.proof)")
    }

    @Test func aMessageTheReaderDroppedItselfIsTouchedByNoFault() async throws {
        let output = try ForgetsAMessage.run(seconds: 400)
        let violation = try #require(output.record.violations.first)
        let cause = try #require(violation.cause)
        #expect(cause.hasPrefix("no fault touched message \(violation.message!) on client 1's link: its push arrived at "), "\(cause)")
        #expect(cause.contains("client 1's engine applied it at "))
        #expect(violation.causeFault == nil)
        // With no fault to leave out, the proof says so rather than claiming one.
        var options = ExploreOptions(
            scenario: .crowd, profile: try ScenarioFixtures.profile("edge"), seeds: SeedSelection(range: 1 ... 1), faults: .none, clients: 2,
            duration: .seconds(400), jobs: 1)
        options.implementation = ForgetsAMessage.self
        options.prove = true
        let outcome = try #require(try await Explorer.run(options).first)
        #expect(outcome.proof == "not proved: the cause names no planned fault; no fault was played, so the app decides it")
    }

    @Test func aSendTheEngineNeverHandedToItsLinkIsTouchedByNoFault() throws {
        let output = try StallsTheOutbox.run(seconds: 600)
        let late = try #require(output.record.violations.first { $0.invariant == "liveness" })
        #expect(late.cause?.hasPrefix("no fault touched client id \(late.clientID!) on client 0's link: client 0's engine never handed it to its link") == true, "\(late.cause ?? "")")
        let pending = try #require(output.record.violations.first { $0.invariant == "outbox_not_drained" })
        #expect(pending.cause?.hasPrefix("no fault touched client id ") == true)
    }

    @Test func aChatListItsEngineMiscountedIsTouchedByNoFault() throws {
        let output = try MiscountsUnread.run(seconds: 400)
        let wrong = try #require(output.record.violations.first { $0.invariant == "chat_list_mismatch" })
        #expect(wrong.cause == "no fault touched client 1's link in the run: its engine counted the list wrong itself")
        #expect(wrong.causeFault == nil)
    }

    @Test func aKillByTheScenarioIsNoFault() throws {
        let output = try WipesTheCacheOnKill.run(seconds: 200)
        let lost = try #require(output.record.violations.first { $0.invariant == "cache_lost_after_kill" })
        #expect(lost.cause == "no fault: client 1's app was killed at 60.000 s by its scenario; what it had stored before did not survive its restart")
        #expect(output.faults.isEmpty)
    }
}
