import LowbandProxy
import Testing

/// A control server on an ephemeral loopback port for the length of a test body, then stopped.
enum ControlServerHarness {
    static func withServer(
        _ configuration: ControlServer.Configuration = .init(),
        registry: ProxyRegistry = ProxyRegistry(),
        _ body: (Int) async throws -> Void
    ) async throws {
        var configuration = configuration
        configuration.listen = ProxyEndpoint(host: "127.0.0.1", port: 0)
        let server = ControlServer(registry: registry, configuration: configuration)
        let port = try #require(try await server.start().port)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            do {
                try await body(port)
            } catch {
                group.cancelAll()
                throw error
            }
            group.cancelAll()
        }
    }
}
