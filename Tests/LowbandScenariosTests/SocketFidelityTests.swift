import LowbandRunReport
import LowbandScenarios
import LowbandTestSupport
import Testing

/// The same scenario code on loopback sockets, through the shaping proxy, on the wall clock.
/// Wall clock (scripts/test.sh runs it alone): its figures are the proxy's configured delays.
@Suite(.tags(.wallClock)) struct SocketFidelityTests {
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
        // Every push is measured, whether its row or its post's completion reaches the run
        // first (a third of the samples were dropped when the row won: PostSightings).
        let sent = Self.messages(of: "push-sent", in: output.trace, before: 9_000_000_000)
        let visible = Set(Self.messages(of: "visible", in: output.trace, before: .max))
        #expect(!sent.isEmpty)
        #expect(sent.allSatisfy(visible.contains), "pushed \(sent), measured \(visible.sorted())")
    }

    /// The message ids of the trace's `event` lines before `limit` ns of run time.
    private static func messages(of event: String, in trace: [String], before limit: Int64) -> [Int64] {
        trace.compactMap { line in
            guard line.contains("\"event\":\"\(event)\""), let time = number("t_ns", in: line), time < limit else { return nil }
            return number("message", in: line)
        }
    }

    private static func number(_ key: String, in line: String) -> Int64? {
        guard let range = line.range(of: "\"\(key)\":") else { return nil }
        return Int64(line[range.upperBound...].prefix { $0.isNumber })
    }

    /// The radio lives in the proxy's shaper on sockets: the run reads it as it ends, so a
    /// socket run reports the radio's time and energy as a virtual one does.
    @Test func aSocketRunReportsTheProxysRadioTimeAndEnergy() async throws {
        let options = ScenarioOptions(
            scenario: .pushToVisible, profile: try ScenarioFixtures.profile("3g"), seed: 2, clients: 1,
            duration: .seconds(12), virtualTime: false)
        let record = try await ScenarioRunner.run(options).record
        let dch = try #require(record.count("radio.state.CELL_DCH"))
        let fach = try #require(record.count("radio.state.CELL_FACH"))
        let idle = try #require(record.count("radio.state.IDLE"))
        let promoting = try #require(record.count("radio.promoting"))
        // The states cover the proxy's life: the traffic and the drain, less the few
        // milliseconds the proxy started after the run's clock.
        let total = dch + fach + idle + promoting
        let ran = record.durationSeconds + (record.drain?.seconds ?? 0)
        #expect(total > ran - 1 && total < ran + 1, "radio \(total) s, run \(ran) s")
        #expect(dch > 0, "pushes every 1–5 s keep the radio in CELL_DCH")
        let joules = try #require(record.count("energy.total"))
        #expect(abs(joules - ((dch + promoting) * 0.8 + fach * 0.46)) < 1e-6, "\(joules) J")
        let radio = record.timeline.filter { $0.kind == .radio }
        #expect(radio.first?.detail == "CELL_DCH" && radio.first?.seconds == 0)
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
        var options = try ScenarioFixtures.virtualOptions(.crowd, clients: 4, seconds: 20)
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
        // On sockets too the run drains after its 20 s of traffic until nothing is in flight
        // (seconds of wall time, not the 147 s bound), and then judges every engine's outbox
        // and chat list.
        let drain = try #require(output.record.drain)
        #expect(drain.settled && drain.seconds >= 1 && drain.seconds < 30, "\(drain)")
        let cases = Dictionary(uniqueKeysWithValues: output.record.invariants.map { ($0.name, $0.checked) })
        #expect(cases["outbox_not_drained"] == 4)
        #expect((cases["chat_list_mismatch"] ?? 0) > 0)
        #expect(!output.record.hasViolations, "\(output.record.violations.map(\.detail))")
    }
}
