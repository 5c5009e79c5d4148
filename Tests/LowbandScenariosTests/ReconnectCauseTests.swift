import LowbandRunReport
import LowbandScenarios
import Testing

/// Why sessions were lost: every lost session counted under one cause, and on a lossy profile
/// none lost to loss alone now that fades are intervals of time.
@Suite struct ReconnectCauseTests {
    private static let causes = ["fault", "outage", "handover", "reset", "loss-stall", "other"]

    private func causes(_ record: RunRecord) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: Self.causes.map { ($0, record.count("reconnects.\($0)") ?? -1) })
    }

    @Test func subwaysSessionsAreLostToItsBlackouts() async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.subway, seconds: 300))
        let record = output.record
        let reconnects = try #require(record.count("reconnects"))
        let counted = causes(record)
        #expect(reconnects > 0)
        #expect(counted["outage"] == reconnects, "\(counted)")
        #expect(counted.values.reduce(0, +) == reconnects, "\(counted)")
    }

    @Test func anInjectedResetIsCountedAsAFault() async throws {
        var options = try ScenarioFixtures.virtualOptions(.crowd, seed: 1, clients: 5, seconds: 300)
        options.faults = try FaultPlan(parsing: "connection-reset,handover")
        let output = try await ScenarioFixtures.run(options)
        let reconnects = try #require(output.record.count("reconnects"))
        let counted = causes(output.record)
        #expect(reconnects > 0)
        #expect(counted["fault"] == reconnects, "\(counted)")
    }

    /// Crowd on edge, seed 8, 10 clients, 10 minutes, no faults: with bursts counted in pieces
    /// three links here went 30 s without a byte (a retransmission 1, 2, 4, 8, 16 s later still
    /// "in the burst") and were given up; with fades in time none is, and no delivery takes
    /// longer than a few seconds.
    @Test func edgesLossNoLongerKillsALink() async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.crowd, seed: 8, clients: 10, seconds: 600))
        #expect(output.record.count("reconnects") == 0)
        let slowest = try #require(output.record.values("delivery_delay").max())
        #expect(slowest < 10_000, "slowest delivery \(slowest) ms")
    }
}

/// The middlebox faults in the swarm: a NAT forgetting one client's flow, and a handover that
/// brings a new address. Nothing tells the engine; its heartbeat finds the link dead, it
/// reconnects, and every promise holds.
@Suite struct MiddleboxFaultTests {
    @Test(arguments: ["nat-expiry", "address-change"])
    func aFlowTheNetworkForgotIsFoundDeadAndReplaced(_ kind: String) async throws {
        var options = try ScenarioFixtures.virtualOptions(.crowd, seed: 3, clients: 5, seconds: 300)
        options.faults = try FaultPlan(parsing: kind)
        let output = try await ScenarioFixtures.run(options)
        let record = output.record
        let reconnects = try #require(record.count("reconnects"))
        #expect(reconnects > 0, "the forgotten flows were found dead and replaced")
        #expect(record.count("reconnects.fault") == reconnects)
        #expect(record.violations.isEmpty, "\(record.violations)")
        #expect(output.trace.contains { $0.contains("\"event\":\"nat-expired\"") })
    }
}
