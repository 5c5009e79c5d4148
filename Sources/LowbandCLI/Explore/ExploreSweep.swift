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
    /// `found`, when given, is a failing seed's lines the moment its first run fails (before
    /// its repeats, proof and shrinking); `failure` then prints what those added.
    static func run(
        command: String, shutdown: CommandShutdown, directory: String, title: String, suite: String, benchmark: String, total: Int,
        allowViolations: Bool, files: String, jobs: Int,
        found: (@Sendable (SeedOutcome) -> String)? = nil,
        failure: @escaping @Sendable (SeedOutcome) -> String,
        sweep: @escaping @Sendable (
            StopSignal, _ progress: @escaping @Sendable (ExploreProgress) -> Void, _ onOutcome: @escaping @Sendable (SeedOutcome) -> Void,
            _ onFound: @escaping @Sendable (SeedOutcome) -> Void
        ) async throws -> [SeedOutcome]
    ) async throws {
        let status = ExploreStatus()
        let started = ContinuousClock.now
        let work = StoppableWork { stop in
            try await sweep(stop, { status.update($0) }, { outcome in
                guard outcome.failed else { return }
                let lines = failure(outcome)
                guard !lines.isEmpty else { return }
                status.interrupt()
                try? CommandIO.write(lines)
            }, { outcome in
                guard let found else { return }
                status.interrupt()
                try? CommandIO.write(found(outcome))
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
        try CommandIO.write(ExploreOutputs.summary(outcomes, total: total)
            + ExploreOutputs.timeLine(outcomes, elapsed: elapsed, jobs: jobs) + "\n"
            + "results in \(directory)/: \(files)\n")
        if work.stop.isStopped { throw ExitCode(130) }
        if outcomes.contains(where: \.failed), !allowViolations { throw ExitCode(RunCommand.violationExitCode) }
    }
}
