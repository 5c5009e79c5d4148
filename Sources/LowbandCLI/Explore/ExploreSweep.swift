import ArgumentParser
import Foundation
import LowbandScenarios

/// What both `lowband explore` sweeps (the scenarios, and `--exec` on an app) do around their
/// seeds: run them as the shutdown group's one service with the live status line, print each
/// failing seed as it finishes, write the folder, print the summary, and exit 130 when stopped,
/// 3 when a seed failed.
enum ExploreSweep {
    /// Runs `sweep`, then writes and summarises what it explored; `failure` is a failing seed's
    /// lines, `files` what the folder holds.
    static func run(
        command: String, shutdown: CommandShutdown, directory: String, title: String, suite: String, benchmark: String, total: Int,
        allowViolations: Bool, files: String, summaryFormat: String = "%.1f s of wall time, %.2f s per seed, %.0f s per 1,000 seeds\n",
        failure: @escaping @Sendable (SeedOutcome) -> String,
        sweep: @escaping @Sendable (StopSignal, _ progress: @escaping @Sendable (ExploreProgress) -> Void, _ onOutcome: @escaping @Sendable (SeedOutcome) -> Void) async throws -> [SeedOutcome]
    ) async throws {
        let status = ExploreStatus()
        let started = ContinuousClock.now
        let work = StoppableWork { stop in
            try await sweep(stop, { status.update($0) }, { outcome in
                guard outcome.failed else { return }
                status.interrupt()
                try? CommandIO.write(failure(outcome))
            })
        }
        do {
            try await shutdown.run([.init(service: work, successTerminationBehavior: .gracefullyShutdownGroup)])
        } catch {
            status.finish()
            throw CommandIO.failure(error, command: command)
        }
        status.finish()
        let outcomes = work.output ?? []
        do {
            try ExploreOutputs.write(outcomes, to: directory, title: title, suite: suite, benchmark: benchmark, elapsed: ContinuousClock.now - started)
        } catch {
            throw CommandIO.failure("cannot write the results into \(directory): \(SystemErrorText.describe(error))", command: command)
        }
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        let perSeed = elapsed / Double(max(1, outcomes.count))
        try CommandIO.write(ExploreOutputs.summary(outcomes, total: total)
            + String(format: summaryFormat, elapsed, perSeed, perSeed * 1000)
            + "results in \(directory)/: \(files)\n")
        if work.stop.isStopped { throw ExitCode(130) }
        if outcomes.contains(where: \.failed), !allowViolations { throw ExitCode(RunCommand.violationExitCode) }
    }
}
