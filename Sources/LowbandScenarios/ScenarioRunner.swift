/// Runs a scenario: the entry point of `lowband run`.
///
/// ```swift
/// let options = ScenarioOptions(scenario: .pushToVisible, profile: try NetworkProfile.load(named: "edge"), seed: 1, virtualTime: true)
/// let output = try await ScenarioRunner.run(options, progress: { print($0.figure) }, stop: stop)
/// output.record     // the figures, traffic and timeline (RunRecord)
/// output.trace      // JSON lines: network decisions and client events
/// ```
package enum ScenarioRunner {
    /// Validates `options`, runs the scenario to its duration (or until `stop` is triggered,
    /// then the record is marked partial) and returns what was measured.
    ///
    /// - Parameters:
    ///   - options: the scenario, profile, seed, duration, clients and faults of the run.
    ///   - progress: called about once a second of run time (virtual or wall), from any thread.
    ///   - stop: trigger it (on Ctrl-C) to end the run early and cleanly.
    /// - Throws: ``ScenarioError`` for bad options or a failed set-up; socket errors when the
    ///   loopback server or proxy cannot start.
    package static func run(
        _ options: ScenarioOptions,
        progress: @escaping @Sendable (RunProgress) -> Void = { _ in },
        stop: StopSignal = StopSignal()
    ) async throws -> ScenarioOutput {
        try options.validate()
        if options.virtualTime {
            return try VirtualRun.run(options, progress: progress, stop: stop)
        }
        return try await SocketRun.run(options, progress: progress, stop: stop)
    }
}
