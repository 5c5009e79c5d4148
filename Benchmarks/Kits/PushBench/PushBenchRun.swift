import Synchronization

/// One profile's harness for the life of its benchmark: started by the benchmark's setup,
/// used by every iteration, stopped by its teardown — so no iteration pays for setup.
public final class PushBenchRun: Sendable {
    public let plan: PushBenchPlan
    public let shaperSeed: UInt64
    private let harness = Mutex<PushToVisibleHarness?>(nil)

    public init(plan: PushBenchPlan, shaperSeed: UInt64 = 1) {
        self.plan = plan
        self.shaperSeed = shaperSeed
    }

    /// Starts the harness on the plan's profile.
    public func start() async throws {
        let started = try await PushToVisibleHarness.start(profileNamed: plan.profile, shaperSeed: shaperSeed)
        let previous = harness.withLock { current in
            defer { current = started }
            return current
        }
        if let previous { try await previous.stop() }
    }

    /// The running harness.
    ///
    /// - Throws: ``PushBenchError`` `.stopped` before ``start()`` or after ``stop()``.
    public func current() throws(PushBenchError) -> PushToVisibleHarness {
        guard let running = harness.withLock({ $0 }) else {
            throw PushBenchError(.stopped, "\(plan.benchmarkName): the harness is not running (setup failed or teardown ran)")
        }
        return running
    }

    /// Stops the harness and returns what it left behind (nil when none was running).
    @discardableResult
    public func stop() async throws -> PushHarnessTeardown? {
        let running = harness.withLock { current in
            defer { current = nil }
            return current
        }
        return try await running?.stop()
    }
}
