public import ServiceLifecycle

/// A started server is a swift-service-lifecycle `Service`: put it in a `ServiceGroup` and the
/// group's graceful shutdown closes its port and every connection.
///
/// ```swift
/// let server = try await MessengerSocketServer.start(world: MessengerWorld(seed: 7))   // LowbandFixtures
/// let group = ServiceGroup(services: [server], gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()   // serves until SIGTERM, then stops
/// ```
extension MessengerSocketServer: Service {
    /// Waits for the group's graceful shutdown (or the task's cancellation), then ``stop()``s:
    /// the port and the connections close, the data stays. The server serves from
    /// ``start(core:listener:eventLoop:onEvent:acceptor:)`` on, whether or not this runs.
    public func run() async throws {
        // Throws only on cancellation, which asks for the same stop.
        try? await gracefulShutdown()
        try await stop()
    }
}
