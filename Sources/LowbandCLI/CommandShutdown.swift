import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one shutdown path of the long-running commands (`server`, `proxy`, `run`, `explore`):
/// their parts run as services in one `ServiceGroup` that shuts down gracefully on SIGTERM or
/// SIGINT.
///
/// ``watching(command:gracePeriod:announce:_:)`` wraps the whole command: from its start SIGINT
/// and SIGTERM no longer kill the process, so a signal sent as soon as a "listening" line
/// appears always gets the graceful stop. Inside, ``run(_:)`` runs the group; the first signal
/// is announced (the command's "stopping" line) before the group's stop has finished, so the
/// line always comes before what the command prints after ``run(_:)``.
///
/// Bounds, so a stop always ends the process: a second SIGINT or SIGTERM, until the command
/// returns, exits at once with status 128 + the signal's number (after one line on stderr); a
/// graceful shutdown still running after the grace period (``defaultGracePeriod`` unless the
/// command says otherwise) is escalated to cancellation, and one that ignores cancellation for
/// ``cancellationPeriod`` more ends in swift-service-lifecycle's `fatalError`.
struct CommandShutdown: Sendable {
    /// The signals that stop a command gracefully.
    static let signals: [UnixSignal] = [.sigterm, .sigint]
    /// How long the services may take to stop after the signal before they are cancelled.
    static let defaultGracePeriod: Duration = .seconds(10)
    /// How long cancelled services may take before the process is ended.
    static let cancellationPeriod: Duration = .seconds(5)

    private let gracePeriod: Duration
    private let shared = Shared()

    /// What the signal watcher and ``run(_:)`` share.
    private final class Shared: Sendable {
        struct State {
            var first: UnixSignal?
            var group: ServiceGroup?
            var waiters: [CheckedContinuation<Void, Never>] = []
        }

        let state = Mutex(State())
        /// Set when a service's `run()` returned without being asked to stop.
        let endedUnasked = Atomic(false)
    }

    private init(gracePeriod: Duration) {
        self.gracePeriod = gracePeriod
    }

    /// Runs `body` (the whole command) with SIGINT and SIGTERM trapped: the first is handed to
    /// `announce` and stops the group of ``run(_:)``; a second ends the process.
    static func watching(
        command: String,
        gracePeriod: Duration = defaultGracePeriod,
        announce: @escaping @Sendable (UnixSignal) -> Void,
        _ body: (CommandShutdown) async throws -> Void
    ) async throws {
        let signals = await UnixSignalsSequence(trapping: Self.signals)
        let shutdown = CommandShutdown(gracePeriod: gracePeriod)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { await shutdown.watch(signals, command: command, announce: announce) }
            try await body(shutdown)
            tasks.cancelAll()
        }
    }

    /// Runs `services` in one group until a signal stops them gracefully, or until one of them
    /// ends the group as its configuration says; rethrows the error of a service that failed.
    func run(_ services: [ServiceGroupConfiguration.ServiceConfiguration]) async throws {
        let shared = self.shared
        let watched = services.map { configuration in
            var configuration = configuration
            configuration.service = Watched(service: configuration.service, shared: shared)
            return configuration
        }
        var configuration = ServiceGroupConfiguration(
            services: watched,
            gracefulShutdownSignals: Self.signals,
            logger: Logger(label: "lowband", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        configuration.maximumGracefulShutdownDuration = gracePeriod
        configuration.maximumCancellationDuration = Self.cancellationPeriod
        let group = ServiceGroup(configuration: configuration)
        let signalled = shared.state.withLock { state in
            state.group = group
            return state.first != nil
        }
        // A signal before the group listened for its own: the request is kept until it runs.
        if signalled { await group.triggerGracefulShutdown() }
        try await group.run()
        guard !shared.endedUnasked.load(ordering: .relaxed) else { return }
        // Only a signal stops the group without a service ending on its own. The group may have
        // seen it first; the watcher, which received the same signal, announces it now.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let announced = shared.state.withLock { state in
                if state.first != nil { return true }
                state.waiters.append(continuation)
                return false
            }
            if announced { continuation.resume() }
        }
    }

    /// Announces the first signal and stops the group with it; ends the process on the second.
    private func watch(_ signals: UnixSignalsSequence, command: String, announce: @Sendable (UnixSignal) -> Void) async {
        var received = 0
        for await signal in signals {
            received += 1
            guard received == 1 else {
                Self.log("\(command): second \(signal): exiting at once")
                _exit(128 + signal.rawValue)
            }
            announce(signal)
            let (group, waiters) = shared.state.withLock { state in
                state.first = signal
                defer { state.waiters = [] }
                return (state.group, state.waiters)
            }
            for waiter in waiters { waiter.resume() }
            // The group traps the same signals; this covers one that came before it listened.
            await group?.triggerGracefulShutdown()
        }
    }

    /// One line on stderr.
    private static func log(_ line: String) {
        Array((line + "\n").utf8).withUnsafeBytes { _ = try? CommandIO.write($0, to: STDERR_FILENO) }
    }

    /// A command's service, noting whether it ended without being asked to (so the stop was
    /// not a signal's).
    private struct Watched: Service {
        let service: any Service
        let shared: Shared

        func run() async throws {
            try await service.run()
            if !Task.isShuttingDownGracefully { shared.endedUnasked.store(true, ordering: .relaxed) }
        }
    }
}
