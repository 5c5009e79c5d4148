import Foundation
import LowbandRunReport
@testable import LowbandScenarios
import LowbandShaper
import Testing

/// Every delivered message's time is split into stages that add up to what the scenario
/// measured on its own, and the network's share follows the shaper's decisions.
@Suite struct BreakdownTests {
    /// `(client, message) → delivery delay` from the crowd scenario's own `arrived` lines.
    private func arrivals(_ output: ScenarioOutput) throws -> [String: Double] {
        var result: [String: Double] = [:]
        for line in output.trace where line.contains("\"event\":\"arrived\"") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let client = try #require(object["client"] as? Int)
            let message = try #require(object["message"] as? Int)
            let value = try #require(object["value_ns"] as? Int)
            result["\(client)/\(message)"] = Double(value) / 1e6
        }
        return result
    }

    @Test func stagesAddUpToTheDelayTheScenarioMeasured() async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.crowd, clients: 6, seconds: 600))
        let measured = try arrivals(output)
        let pushed = output.breakdowns.filter { $0.carrier == "push" }
        #expect(pushed.count >= 50)
        var compared = 0
        for row in pushed {
            guard let delay = measured["\(row.receiver)/\(row.message)"] else { continue }
            compared += 1
            #expect(abs(row.totalMilliseconds - delay) < 0.001, "message \(row.message) → client \(row.receiver): \(row.stages) vs \(delay)")
            #expect(row.stages.allSatisfy { $0 >= 0 })
        }
        #expect(compared >= pushed.count * 9 / 10)
        // The stage metrics summarise exactly these rows.
        let total = try #require(output.record.stages.first { $0.name == "stage.total" })
        #expect(total.values.count == output.breakdowns.count)
        #expect(output.record.slowest.first?.totalMilliseconds == output.breakdowns.map(\.totalMilliseconds).max())
    }

    @Test func transitIsNeverShorterThanTheLinksDelay() async throws {
        let profile = try ScenarioFixtures.profile("edge")
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.crowd, clients: 4, seconds: 300))
        let upFloor = (profile.uplink.delay - profile.uplink.jitter.amount).milliseconds
        let downFloor = (profile.downlink.delay - profile.downlink.jitter.amount).milliseconds
        for row in output.breakdowns where row.carrier == "push" {
            #expect(row.milliseconds(.uplinkTransit) >= upFloor - 0.001)
            #expect(row.milliseconds(.downlinkTransit) >= downFloor - 0.001)
        }
    }

    @Test func lossesShowAsStallsOnALossyLink() async throws {
        var options = try ScenarioFixtures.virtualOptions(.crowd, profile: "very-bad-network", clients: 4, seconds: 900)
        options.profileName = "very-bad-network"
        let output = try await ScenarioFixtures.run(options)
        let stalled = output.breakdowns.filter { $0.milliseconds(.uplinkLossStalls) + $0.milliseconds(.downlinkLossStalls) > 0 }
        #expect(!stalled.isEmpty)
        let profile = try ScenarioFixtures.profile("very-bad-network")
        let longest = max(profile.uplink.loss.maximumRTO, profile.downlink.loss.maximumRTO).milliseconds
        let losses = output.trace.filter { $0.contains("\"event\":\"loss-stall\"") }.compactMap { TraceExcerpt.time(of: $0) }.map { Double($0) / 1e6 }
        for row in stalled {
            // The shaper stalled a flow on a loss while the message was on its way.
            let start = row.startSeconds * 1000
            #expect(losses.contains { $0 >= start - longest && $0 <= start + row.totalMilliseconds }, "message \(row.message)")
            #expect(row.milliseconds(.uplinkLossStalls) <= row.totalMilliseconds)
        }
    }

    @Test func aReceiverThatWasOfflineWaitsForItsNextLogin() async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.crowd, seed: 4, clients: 5, seconds: 600).with(faults: "app-kill"))
        let resynced = output.breakdowns.filter { $0.carrier == "login" }
        #expect(!resynced.isEmpty)
        for row in resynced {
            #expect(row.milliseconds(.resyncWait) > 0)
            #expect(row.milliseconds(.outboxWait) + row.milliseconds(.uplinkTransit) < row.totalMilliseconds)
        }
    }

    @Test func theBreakdownTableReadsBackWhatWasWritten() throws {
        let rows = [
            MessageBreakdown(message: 7, chat: 2, sender: nil, receiver: 1, startSeconds: 12.5, stages: LatencyStage.allCases.indices.map { Double($0) * 1.25 }, carrier: "push", attempts: 0),
            MessageBreakdown(message: 8, chat: 2, sender: 3, receiver: 0, startSeconds: 13, stages: LatencyStage.allCases.map { _ in 0.001 }, carrier: "login", attempts: 2),
        ]
        let text = BreakdownTable.render(rows)
        #expect(try BreakdownTable.parse(text) == rows)
        #expect(try BreakdownTable.parse(text, only: 8) == [rows[1]])
        #expect(throws: BreakdownTable.ReadError.self) { try BreakdownTable.parse("message,chat\n1,2\n") }
        let broken = text.replacingOccurrences(of: "12.500000", with: "x")
        do {
            _ = try BreakdownTable.parse(broken)
            Issue.record("a bad start_s was accepted")
        } catch {
            #expect(error.line == 2)
        }
    }
}

extension ScenarioOptions {
    func with(faults text: String) throws -> ScenarioOptions {
        var copy = self
        copy.faults = try FaultPlan(parsing: text)
        return copy
    }
}
