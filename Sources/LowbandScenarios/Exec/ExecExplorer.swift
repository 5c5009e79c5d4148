import Foundation
import LowbandBasics

/// `lowband explore --exec`: the user's command once per seed against fresh proxies, `jobs` at
/// a time; every failing seed keeps its session folder, is run again `repeats` times to tell a
/// failure every run shows from one the app's timing decides, and with `shrink` is reduced to a
/// smaller fault plan and window that still fail the same way.
package enum ExecExplorer {
    /// Runs every seed; `onOutcome` is called as each finishes, the result is in seed order. A
    /// triggered `stop` ends it after the seeds under way.
    package static func run(
        _ options: ExecOptions,
        progress: @escaping @Sendable (ExploreProgress) -> Void = { _ in },
        onOutcome: @escaping @Sendable (SeedOutcome) -> Void = { _ in },
        onFound: @escaping @Sendable (SeedOutcome) -> Void = { _ in },
        stop: StopSignal = StopSignal()
    ) async throws -> [SeedOutcome] {
        return try await SeedSweep.run(options.seeds.seeds, jobs: options.jobs, stop: stop, progress: progress, onOutcome: onOutcome) { seed in
            try await explore(seed: seed, options, onFound: onFound)
        }
    }

    /// The session folder of `seed` (kept when it fails).
    package static func folder(_ options: ExecOptions, seed: UInt64) -> String {
        "\(options.directory)/sessions/seed-\(seed)"
    }

    /// `onFound` hears of a failure as soon as the seed's own run shows it, before its repeats,
    /// proof and shrinking run.
    static func explore(seed: UInt64, _ options: ExecOptions, onFound: @Sendable (SeedOutcome) -> Void = { _ in }) async throws -> SeedOutcome {
        let plan = options.faults.resolved(seed: seed, within: options.faultKinds)
        let folder = folder(options, seed: seed)
        try? FileManager.default.removeItem(atPath: folder)
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await ExecSession.run(options, seed: seed, faults: plan, window: options.window, folder: folder)
        // The seed's own run is its time; what runs it again comes after.
        let wall = (clock.now - start).milliseconds
        let command = options.command(seed: seed, faults: plan, window: options.window)
        var hash = FNV1a()
        for line in result.plan { hash.add(line + "\n") }
        var outcome = SeedOutcome(
            seed: seed, faults: plan.description, clients: result.devices, durationSeconds: result.elapsed.seconds, broken: result.broken,
            firstViolation: result.firstFailure, wallMilliseconds: wall, traceHash: hash.value.hexDigits, determinism: "", command: command, shrunk: "")
        if !result.broken.isEmpty || options.keepSessions { outcome.session = "sessions/seed-\(seed)" }
        var repeatText = ""
        var shrunk = ""
        var proof = ""
        if result.broken.isEmpty {
            if !options.keepSessions { try? FileManager.default.removeItem(atPath: folder) }
        } else {
            onFound(outcome)
            if options.repeats > 0 {
                var same = 1
                for run in 1 ... options.repeats {
                    let again = try await ExecSession.run(options, seed: seed, faults: plan, window: options.window, folder: "\(folder)/repeat-\(run)")
                    if again.signature == result.signature { same += 1 }
                }
                let runs = options.repeats + 1
                repeatText = same == runs
                    ? "fails every time (\(same) of \(runs) runs): the network's decisions decide it"
                    : "fails \(same) of \(runs) runs: the network's decisions were the same each time, so the app's timing decides it"
            }
            if options.proveRuns > 0, let signature = result.signature {
                let outcome = try await ExecProof(options: options, seed: seed, plan: plan, window: options.window, folder: folder)
                    .prove(signature: signature, subject: result.causeSubject, fault: result.causeFault, asked: result.asked, words: result.faultWords)
                proof = outcome.line + (outcome.command.map { "  (alone: \($0))" } ?? "")
                do {
                    try SessionDocument.amend(folder: folder, proof: proof)
                } catch {
                    proof += " (not written into the session: \(error))"
                }
            }
            if options.shrink, let signature = result.signature {
                shrunk = try await shrink(seed: seed, plan: plan, signature: signature, options)
            }
        }
        outcome.determinism = repeatText
        outcome.shrunk = shrunk
        outcome.proof = proof
        return outcome
    }

    /// The smallest plan found that still fails with `signature`: fewer fault kinds, fewer aimed
    /// faults, then a shorter window (which shortens every fault too), at most 12 runs. The last
    /// candidate is run once more alone: the line says whether it failed again.
    static func shrink(seed: UInt64, plan: ExecFaultPlan, signature: String, _ options: ExecOptions) async throws -> String {
        var current = plan
        var window = options.window
        var budget = 12
        var attempt = 0
        func fails(_ candidate: ExecFaultPlan, _ window: Duration) async throws -> Bool {
            budget -= 1
            attempt += 1
            let folder = "\(folder(options, seed: seed))/shrink-\(attempt)"
            let result = try await ExecSession.run(options, seed: seed, faults: candidate, window: window, folder: folder)
            try? FileManager.default.removeItem(atPath: folder)
            return result.signature == signature
        }
        var improved = true
        while improved, budget > 0 {
            improved = false
            for kind in current.kinds where budget > 0 {
                let fewer = ExecFaultPlan(kinds: current.kinds.filter { $0 != kind }, aimed: current.aimed)
                if try await fails(fewer, window) {
                    current = fewer
                    improved = true
                    break
                }
            }
            if improved { continue }
            for index in current.aimed.indices where budget > 0 && (current.aimed.count > 1 || !current.kinds.isEmpty) {
                var aimed = current.aimed
                aimed.remove(at: index)
                let fewer = ExecFaultPlan(kinds: current.kinds, aimed: aimed)
                if try await fails(fewer, window) {
                    current = fewer
                    improved = true
                    break
                }
            }
            if improved { continue }
            let shorter = window / 2
            if shorter >= .seconds(2), budget > 0, try await fails(current, shorter) {
                window = shorter
                improved = true
            }
        }
        let command = options.command(seed: seed, faults: current, window: window)
        guard current != plan || window != options.window else { return command + "  (nothing smaller failed the same way)" }
        let confirmed = try await fails(current, window)
        return command + (confirmed ? "  (failed again when run alone)" : "  (did not fail again when run alone: the app's timing decides it)")
    }
}
