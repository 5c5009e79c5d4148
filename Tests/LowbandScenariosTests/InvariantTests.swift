import Foundation
import LowbandRunReport
@testable import LowbandScenarios
import Testing

/// Every run checks a messenger's promises; each check is shown to catch the bug it is for.
@Suite struct InvariantTests {
    private func broken(_ output: ScenarioOutput) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: output.record.invariants.filter { $0.violations > 0 }.map { ($0.name, $0.violations) })
    }

    @Test func anHonestRunKeepsEveryPromise() throws {
        let output = try HonestScenario.run(seconds: 400)
        #expect(broken(output).isEmpty, "\(output.record.violations.map(\.detail))")
        let checked = Dictionary(uniqueKeysWithValues: output.record.invariants.map { ($0.name, $0.checked) })
        #expect(checked.keys.sorted() == InvariantChecker.promises.map(\.name).sorted())
        #expect((checked["acknowledged_lost"] ?? 0) >= 20)
        #expect((checked["liveness"] ?? 0) >= 30)
        #expect((checked["chat_list_mismatch"] ?? 0) >= 1)
    }

    @Test func aMessageMissingFromAnOnlineCacheIsLost() throws {
        let output = try ForgetsAMessage.run(seconds: 400)
        #expect(broken(output) == ["acknowledged_lost": 1])
        let violation = try #require(output.record.violations.first)
        #expect(violation.client == 1)
        #expect(violation.message != nil && violation.chat != nil)
        // The shared judge's words, the same an app's events get (EventCheckerTests).
        #expect(violation.detail.hasPrefix("client 1 never got message \(violation.message!) of chat \(violation.chat!) (stored by the server at "))
        #expect(violation.detail.contains("though it was connected from"))
        #expect(violation.traceLines.contains { $0.contains("\"client\":1,") })
    }

    @Test func aMessageStoredTwiceIsADuplicate() throws {
        let output = try StoresAMessageTwice.run(seconds: 120)
        #expect(broken(output)["duplicated"] == 1)
    }

    @Test func aStalledOutboxBreaksLivenessAndIsNotDrained() throws {
        let output = try StallsTheOutbox.run(seconds: 600)
        let found = broken(output)
        #expect((found["liveness"] ?? 0) >= 1)
        #expect((found["outbox_not_drained"] ?? 0) >= 1)
        #expect(found["acknowledged_lost"] == nil)
        let late = try #require(output.record.violations.first { $0.invariant == "liveness" })
        // Found at the bound, not at the end of the run: the violation points at the moment.
        let bounds = InvariantBounds(profile: try ScenarioFixtures.profile("edge"))
        #expect(late.seconds < 600 && late.seconds > Double(bounds.liveness.components.seconds))
    }

    @Test func aChatListThatMiscountsDisagrees() throws {
        let output = try MiscountsUnread.run(seconds: 400)
        #expect((broken(output)["chat_list_mismatch"] ?? 0) >= 1)
        #expect(output.record.violations.contains { $0.detail.contains("says 99 unread") })
    }

    @Test func anAppKilledMustKeepItsCache() throws {
        let output = try WipesTheCacheOnKill.run(seconds: 200)
        #expect((broken(output)["cache_lost_after_kill"] ?? 0) >= 1)
        #expect(output.trace.contains { $0.contains("app killed") })
    }

    @Test func aBufferOverItsCapIsReported() throws {
        let output = try OverfillsABuffer.run(seconds: 30)
        #expect(broken(output)["resource_bounds"] == 1)
        #expect(output.record.violations.contains { $0.detail.contains("planted buffer reached") })
    }

    @Test(arguments: ScenarioName.allCases)
    func everyScenarioIsChecked(_ scenario: ScenarioName) async throws {
        let options = try ScenarioFixtures.virtualOptions(scenario, seed: 3, clients: max(scenario.minimumClients, 2), seconds: 120)
        let output = try await ScenarioFixtures.run(options)
        #expect(output.record.invariants.count == InvariantChecker.promises.count)
        #expect(output.record.invariants.reduce(0) { $0 + $1.checked } > 0)
    }
}
