public import ServiceLifecycle

// The proxy's long-running parts are swift-service-lifecycle services: run them in a
// `ServiceGroup` beside your own, and the group's graceful shutdown (SIGTERM, say) stops them.

/// A proxy serves as a `Service`; see ``ShapingProxy/run()``.
extension ShapingProxy: Service {}

/// The control API serves as a `Service`; see ``ControlServer/run()``.
extension ControlServer: Service {}

/// A registry as a `Service`: the proxies it created serve on their own, and this stops them
/// all (``stopAll()``) when the group shuts down gracefully or the task is cancelled.
extension ProxyRegistry: Service {
    /// Waits for the group's graceful shutdown (or the task's cancellation), then stops every
    /// proxy and ends their event streams.
    public func run() async throws {
        // Throws only on cancellation, which asks for the same stop.
        try? await gracefulShutdown()
        await stopAll()
    }
}
