import LowbandRunReport
import LowbandScenarios
import Testing

/// Bad options are refused before anything starts; a stop ends the run with a partial record.
@Suite struct RunControlTests {
    @Test func impossibleCombinationsAreRejectedBeforeTheRun() throws {
        let edge = try ScenarioFixtures.profile("edge")
        func message(_ options: ScenarioOptions) -> String? {
            do {
                try options.validate()
                return nil
            } catch {
                #expect(error.code == .invalidOptions)
                return error.message
            }
        }
        #expect(message(ScenarioOptions(profile: edge, clients: 0))?.contains("--clients must be at least 1") == true)
        #expect(message(ScenarioOptions(scenario: .crowd, profile: edge, clients: 1))?.contains("needs at least 2 clients") == true)
        #expect(message(ScenarioOptions(profile: edge, duration: .zero))?.contains("--duration must be positive") == true)
        #expect(message(ScenarioOptions(profile: edge, duration: .seconds(-5))) != nil)
        #expect(message(ScenarioOptions(profile: edge, clients: 5_000))?.contains("at most 1000 on sockets") == true)
        // Virtual time has no sockets and one descriptor per cache: up to 10,000 engines.
        #expect(message(ScenarioOptions(scenario: .crowd, profile: edge, clients: 10_000, virtualTime: true)) == nil)
        #expect(message(ScenarioOptions(scenario: .crowd, profile: edge, clients: 10_001, virtualTime: true))?.contains("at most 10000 in virtual time") == true)
        #expect(message(ScenarioOptions(profile: edge, workDirectory: "/nonexistent/lowband")) != nil)
        #expect(message(ScenarioOptions(scenario: .crowd, profile: edge, clients: 2)) == nil)
    }

    @Test func theRunnerValidatesToo() async throws {
        let options = ScenarioOptions(profile: try ScenarioFixtures.profile("edge"), clients: 0, virtualTime: true)
        await #expect(throws: ScenarioError.self) { try await ScenarioRunner.run(options) }
    }

    @Test func anUnknownScenarioListsTheValidNames() throws {
        #expect(throws: ScenarioError.self) { try ScenarioName(parsing: "rush-hour") }
        do {
            _ = try ScenarioName(parsing: "rush-hour")
        } catch {
            #expect(error.code == .unknownScenario)
            for name in ScenarioName.allCases { #expect(error.message.contains(name.rawValue)) }
        }
        #expect(try ScenarioName(parsing: "offline-burst") == .offlineBurst)
        #expect(ScenarioName.allCases.map(\.rawValue) == ["push-to-visible", "launch-by-push", "offline-burst", "scroll-history", "subway", "crowd", "pocket"])
    }

    @Test func aStopEndsTheRunWithAPartialRecord() async throws {
        let stop = StopSignal()
        let options = try ScenarioFixtures.virtualOptions(.pushToVisible, seconds: 600)
        let output = try await ScenarioRunner.run(options, progress: { progress in
            if progress.elapsed >= .seconds(30) { stop.stop() }
        }, stop: stop)
        #expect(output.record.partial)
        #expect(output.record.durationSeconds >= 30 && output.record.durationSeconds < 40)
        #expect(!output.record.values("push_to_visible").isEmpty, "what was measured so far is kept")
        #expect(output.record.traffic.count <= 40)
    }

    @Test func aRunStartedWithATriggeredStopEndsAtOnce() async throws {
        let stop = StopSignal()
        stop.stop()
        let output = try await ScenarioRunner.run(try ScenarioFixtures.virtualOptions(.crowd, clients: 2, seconds: 600), stop: stop)
        #expect(output.record.partial)
        #expect(output.record.durationSeconds == 0)
    }
}
