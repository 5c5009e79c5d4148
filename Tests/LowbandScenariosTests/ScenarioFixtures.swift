import Foundation
import LowbandRunReport
import LowbandScenarios
import LowbandShaper

/// Profiles and options shared by the scenario tests.
enum ScenarioFixtures {
    static let profiles: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("profiles").path

    static func profile(_ name: String) throws -> NetworkProfile {
        try NetworkProfile.load(named: name, searchPath: [profiles])
    }

    static func virtualOptions(_ scenario: ScenarioName, profile: String = "edge", seed: UInt64 = 1, clients: Int = 1, seconds: Int64) throws -> ScenarioOptions {
        ScenarioOptions(
            scenario: scenario, profile: try Self.profile(profile), seed: seed, clients: clients,
            duration: .seconds(seconds), virtualTime: true,
            command: "lowband run --scenario \(scenario) --profile \(profile) --seed \(seed) --virtual-time")
    }

    static func run(_ options: ScenarioOptions, stop: StopSignal = StopSignal()) async throws -> ScenarioOutput {
        try await ScenarioRunner.run(options, stop: stop)
    }
}

extension RunRecord {
    /// The single value of a count metric.
    func count(_ name: String) -> Double? {
        metric(named: name)?.values.first
    }

    func values(_ name: String) -> [Double] {
        metric(named: name)?.values ?? []
    }
}
