/// The one way a sweep runs its seeds: `jobs` at a time, each outcome reported as it finishes
/// (with the progress), the result in seed order; a triggered `stop` ends it after the seeds
/// under way. `lowband explore`'s scenarios and `explore --exec` both sweep this way.
enum SeedSweep {
    static func run(
        _ seeds: [UInt64], jobs: Int, stop: StopSignal,
        progress: @escaping @Sendable (ExploreProgress) -> Void, onOutcome: @escaping @Sendable (SeedOutcome) -> Void,
        explore: @escaping @Sendable (UInt64) async throws -> SeedOutcome
    ) async throws -> [SeedOutcome] {
        let started = ContinuousClock.now
        var outcomes: [SeedOutcome] = []
        var failed = 0
        try await withThrowingTaskGroup(of: SeedOutcome.self) { group in
            var next = 0
            func launch() {
                guard next < seeds.count, !stop.isStopped else { return }
                let seed = seeds[next]
                next += 1
                group.addTask { try await explore(seed) }
            }
            for _ in 0 ..< min(jobs, seeds.count) { launch() }
            while let outcome = try await group.next() {
                outcomes.append(outcome)
                if outcome.failed { failed += 1 }
                onOutcome(outcome)
                progress(ExploreProgress(done: outcomes.count, failed: failed, total: seeds.count, elapsed: ContinuousClock.now - started))
                launch()
            }
        }
        return outcomes.sorted { $0.seed < $1.seed }
    }
}
