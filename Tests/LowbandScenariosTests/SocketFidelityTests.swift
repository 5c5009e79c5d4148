import LowbandRunReport
import LowbandScenarios
import Testing

/// The same scenario code on loopback sockets, through the shaping proxy, on the wall clock.
@Suite struct SocketFidelityTests {
    @Test func pushToVisibleRunsOnSocketsThroughTheProxy() async throws {
        let options = ScenarioOptions(
            scenario: .pushToVisible, profile: try ScenarioFixtures.profile("perfect"), seed: 3, clients: 2,
            duration: .seconds(10), virtualTime: false, command: "lowband run --profile perfect --duration 10s")
        let output = try await ScenarioRunner.run(options)
        let record = output.record
        #expect(!record.partial)
        #expect(record.virtualTime == false)
        #expect(record.durationSeconds >= 9.9 && record.durationSeconds < 15)
        let samples = record.values("push_to_visible")
        #expect(samples.count >= 2, "a push every 1–5 s per client once the screens are up")
        #expect(samples.allSatisfy { $0 >= 0 && $0 < 1_000 }, "loopback without shaping: \(samples)")
        #expect(record.traffic.reduce(0) { $0 + $1.downBytes + $1.upBytes } > 1_000, "counted at the proxy's link")
        #expect(output.trace.contains { $0.contains("\"event\":\"deliver\"") })
        #expect(output.trace.contains { $0.contains("\"event\":\"visible\"") })
    }

    @Test func aStopEndsASocketRunWithAPartialRecord() async throws {
        let stop = StopSignal()
        let options = ScenarioOptions(
            scenario: .offlineBurst, profile: try ScenarioFixtures.profile("perfect"), seed: 3, clients: 1,
            duration: .seconds(600), virtualTime: false)
        let output = try await ScenarioRunner.run(options, progress: { progress in
            if progress.elapsed >= .seconds(2) { stop.stop() }
        }, stop: stop)
        #expect(output.record.partial)
        #expect(output.record.durationSeconds < 10)
        #expect(output.record.metric(named: "delivered") != nil)
    }

    /// On sockets the breakdown joins each client link to the proxy's connection by its port,
    /// so the network's share is split by the shaper's decisions there too.
    @Test func socketBreakdownsSplitTheNetworkByTheShapersDecisions() async throws {
        var options = try ScenarioFixtures.virtualOptions(.crowd, clients: 4, seconds: 30)
        options.virtualTime = false
        let output = try await ScenarioFixtures.run(options)
        let pushed = output.breakdowns.filter { $0.carrier == "push" }
        #expect(!pushed.isEmpty)
        // Pushes of one message to several members queue behind each other on the shared
        // downlink: without the join every queue would read zero.
        #expect(pushed.contains { $0.milliseconds(.downlinkQueue) > 0 })
        let profile = try ScenarioFixtures.profile("edge")
        let floor = (profile.downlink.delay - profile.downlink.jitter.amount) / .milliseconds(1)
        for row in pushed {
            #expect(row.milliseconds(.downlinkTransit) >= floor - 1, "message \(row.message) → client \(row.receiver): \(row.stages)")
        }
    }
}
