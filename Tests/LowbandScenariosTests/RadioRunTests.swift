import LowbandRunReport
import LowbandScenarios
import Testing

/// Every run on a profile with radio states reports what the radio did and what it cost, and
/// its report draws the radio's state on the timeline.
@Suite struct RadioRunTests {
    @Test func aRunReportsRadioTimeAndEnergyAndDrawsTheRadioLane() async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.crowd, profile: "3g", clients: 3, seconds: 180))
        let record = output.record
        let dch = try #require(record.count("radio.state.CELL_DCH"))
        let fach = try #require(record.count("radio.state.CELL_FACH"))
        let idle = try #require(record.count("radio.state.IDLE"))
        let promoting = try #require(record.count("radio.promoting"))
        #expect(try #require(record.count("radio.promotions")) > 0)
        // The states and the promotions cover the run, and the energy is their time × power
        // (Qian et al.'s 800 and 460 mW; promotions at the top state's).
        let total = dch + fach + idle + promoting
        #expect(total > 180, "\(total) s")
        #expect(abs(try #require(record.count("radio.on_time")) - (dch + fach + promoting)) < 1e-9)
        let joules = try #require(record.count("energy.total"))
        #expect(abs(joules - ((dch + promoting) * 0.8 + fach * 0.46)) < 1e-6, "\(joules) J")
        // Per delivery (a message to each member that got it) and per message (each once): the
        // same energy over the breakdown's count and over the messages the server stored.
        let perDelivery = try #require(record.count("energy.per_delivery"))
        #expect(abs(perDelivery * Double(output.breakdowns.count) - joules) < 1e-6)
        let perMessage = try #require(record.count("energy.per_message"))
        let messages = Set(output.breakdowns.map(\.message)).count
        #expect(messages > 0 && abs(perMessage * Double(messages) - joules) < 1e-6, "\(perMessage) J × \(messages)")
        #expect(abs(try #require(record.count("energy.per_hour")) - joules / total * 3600) / joules < 0.05)
        // The timeline: the radio starts in CELL_DCH and is promoted back from lower states.
        let radio = record.timeline.filter { $0.kind == .radio }
        #expect(radio.first?.detail == "CELL_DCH" && radio.first?.seconds == 0)
        #expect(radio.contains { $0.detail == "promoting (from CELL_FACH)" || $0.detail == "promoting (from IDLE)" })
        let report = RunReportHTML.render(records: [record])
        #expect(report.contains("class=\"radio-lane\""))
        #expect(report.contains("<title>promoting (from"))
        #expect(report.contains("<dt id=\"metric-energy-per-message\">"))
    }

    @Test func aWakeUpWithoutPowerFiguresReportsTimeButNoEnergy() async throws {
        var options = try ScenarioFixtures.virtualOptions(.crowd, profile: "3g", clients: 2, seconds: 60)
        options.profile.radio = nil
        options.profile.wakeUp = .init(idle: .seconds(10), delay: .seconds(1) ... .seconds(2))
        let record = try await ScenarioFixtures.run(options).record
        #expect(record.count("radio.on_time") != nil)
        #expect(record.count("energy.total") == nil)
    }
}
