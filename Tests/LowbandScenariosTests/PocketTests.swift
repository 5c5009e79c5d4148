import LowbandRunReport
import LowbandScenarios
import LowbandShaper
import Testing

/// The phone in a pocket: what the heartbeat costs and buys. A heartbeat shorter than the
/// NAT's timeout keeps every push on a live flow; a longer one saves nothing and loses pushes to
/// flows the NAT forgot, each found dead only by the next heartbeat's timeout.
@Suite struct PocketTests {
    private func run(heartbeat: Duration) async throws -> RunRecord {
        var options = try ScenarioFixtures.virtualOptions(.pocket, profile: "3g", seconds: 3600)
        options.profile.nat = NATProfile(idleTimeout: .seconds(60))
        options.heartbeat = heartbeat
        return try await ScenarioFixtures.run(options).record
    }

    @Test func aHeartbeatWithinTheNATsTimeoutKeepsEveryPushOnItsFlowAndCostsLessThanAFastOne() async throws {
        let fast = try await run(heartbeat: .seconds(20))
        let slow = try await run(heartbeat: .seconds(45))
        for record in [fast, slow] {
            let pushes = try #require(record.count("pushes"))
            #expect(pushes >= 4)
            #expect(record.count("pushes_by_push") == pushes)
            #expect(record.count("pushes_late") == 0)
            #expect(record.count("reconnects") == 0)
        }
        let fastEnergy = try #require(fast.count("energy.per_hour"))
        let slowEnergy = try #require(slow.count("energy.per_hour"))
        #expect(slowEnergy < fastEnergy * 0.6, "45 s: \(slowEnergy) J/h, 20 s: \(fastEnergy) J/h")
    }

    @Test func aHeartbeatLongerThanTheNATsTimeoutLosesPushesToForgottenFlows() async throws {
        let record = try await run(heartbeat: .seconds(90))
        #expect(try #require(record.count("pushes_late")) > 0)
        #expect(try #require(record.count("reconnects")) > 0)
        // Usually the heartbeat is what finds the binding gone (the expiry is when it crosses,
        // after the radio's 2 s promotion): the engine gives up 10 s after sending it, 8 s
        // later. A push the server sent first finds it earlier, and its wait is longer.
        let notices = record.values("dead_flow_notice").sorted()
        #expect(!notices.isEmpty && notices.allSatisfy { $0 > 0 && $0 <= 40 }, "\(notices)")
        #expect(abs(notices[notices.count / 2] - 8) < 0.5, "median \(notices[notices.count / 2]) s")
    }
}
