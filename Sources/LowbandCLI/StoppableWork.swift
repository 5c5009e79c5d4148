import LowbandScenarios
import ServiceLifecycle
import Synchronization

/// A command's finite work (a `lowband run`, an `explore` sweep) as a `Service`: it runs to its
/// end, and the group's graceful shutdown asks it to stop early through its ``stop`` signal, so
/// it returns what it has measured so far.
///
/// Configure it with `successTerminationBehavior: .gracefullyShutdownGroup`, so the group ends
/// when the work does.
final class StoppableWork<Output: Sendable>: Service {
    /// Triggered by the group's graceful shutdown (the command's SIGINT or SIGTERM) only, so
    /// `stop.isStopped` says whether the user stopped the work.
    let stop = StopSignal()
    private let work: @Sendable (StopSignal) async throws -> Output
    private let finished = Mutex<Output?>(nil)

    init(_ work: @escaping @Sendable (StopSignal) async throws -> Output) {
        self.work = work
    }

    /// What the work returned; nil until it has.
    var output: Output? {
        finished.withLock { $0 }
    }

    func run() async throws {
        let stop = self.stop
        let output = try await withGracefulShutdownHandler {
            try await work(stop)
        } onGracefulShutdown: {
            stop.stop()
        }
        finished.withLock { $0 = output }
    }
}
