import Logging
import ServiceLifecycle
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
/// Create it before anything is printed: from then on SIGINT and SIGTERM no longer kill the
/// process, so a signal sent as soon as a "listening" line appears always gets the graceful
/// stop. ``run(_:onSignal:)`` then runs the group; `onSignal` hears which signal started the
/// shutdown (for the command's "stopping" line).
///
/// Bounds, so a stop always ends the process: a second SIGINT or SIGTERM exits at once with
/// status 128 + the signal's number (after one line on stderr); a graceful shutdown still
/// running after the grace period (``defaultGracePeriod`` unless the command says otherwise) is
/// escalated to cancellation, and one that ignores cancellation for ``cancellationPeriod`` more
/// ends in swift-service-lifecycle's `fatalError`.
struct CommandShutdown: Sendable {
    /// The signals that stop a command gracefully.
    static let signals: [UnixSignal] = [.sigterm, .sigint]
    /// How long the services may take to stop after the signal before they are cancelled.
    static let defaultGracePeriod: Duration = .seconds(10)
    /// How long cancelled services may take before the process is ended.
    static let cancellationPeriod: Duration = .seconds(5)

    private let command: String
    private let gracePeriod: Duration
    private let watched: UnixSignalsSequence

    /// Traps SIGINT and SIGTERM for `command` (its name starts the second-signal line); the
    /// services get `gracePeriod` to stop.
    init(command: String, gracePeriod: Duration = Self.defaultGracePeriod) async {
        self.command = command
        self.gracePeriod = gracePeriod
        watched = await UnixSignalsSequence(trapping: Self.signals)
    }

    /// Runs `services` in one group until a signal stops them gracefully, or until one of them
    /// ends the group as its configuration says; rethrows the error of a service that failed.
    func run(
        _ services: [ServiceGroupConfiguration.ServiceConfiguration],
        onSignal: @escaping @Sendable (UnixSignal) -> Void
    ) async throws {
        var configuration = ServiceGroupConfiguration(
            services: services,
            gracefulShutdownSignals: Self.signals,
            logger: Logger(label: "lowband", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        configuration.maximumGracefulShutdownDuration = gracePeriod
        configuration.maximumCancellationDuration = Self.cancellationPeriod
        let group = ServiceGroup(configuration: configuration)
        let command = self.command
        let watched = self.watched
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                var received = 0
                for await signal in watched {
                    received += 1
                    if received == 1 {
                        onSignal(signal)
                        // The group traps the same signals; this also covers one that came
                        // before the group started listening (the request is kept until then).
                        await group.triggerGracefulShutdown()
                    } else {
                        Self.log("\(command): second \(signal): exiting at once")
                        _exit(128 + signal.rawValue)
                    }
                }
            }
            try await group.run()
            tasks.cancelAll()
        }
    }

    /// One line on stderr.
    private static func log(_ line: String) {
        Array((line + "\n").utf8).withUnsafeBytes { _ = try? CommandIO.write($0, to: STDERR_FILENO) }
    }
}
