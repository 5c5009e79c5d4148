import Logging
import LowbandProxy
import NIOCore
import NIOPosix
import ServiceLifecycle
import Testing

/// The proxy's parts as swift-service-lifecycle `Service`s in the user's own group: the group's
/// graceful shutdown closes every listener, the registry's proxies included.
@Suite(.timeLimit(.minutes(5))) struct ProxyServiceGroupTests {
    private static func accepts(_ port: Int) async -> Bool {
        do {
            let client = try await TestPeers.connect(port: port)
            try await client.executeThenClose { _, _ in }
            return true
        } catch {
            return false
        }
    }

    @Test func aGracefulShutdownClosesTheProxyTheAPIAndTheRegistrysProxies() async throws {
        let registry = ProxyRegistry()
        let control = ControlServer(registry: registry, configuration: .init(listen: ProxyEndpoint(host: "127.0.0.1", port: 0)))
        let apiPort = try #require(try await control.start().port)
        let created = try await registry.create(ProxySpecification(name: "made", listen: "127.0.0.1:0", upstream: "127.0.0.1:9"))
        let createdPort = try #require(Int(created.listen.split(separator: ":").last ?? ""))
        let proxy = ShapingProxy(configuration: .init(
            listen: ProxyEndpoint(host: "127.0.0.1", port: 0), upstream: ProxyEndpoint(host: "127.0.0.1", port: 9)))
        let proxyPort = try #require(try await proxy.start().port)
        for port in [apiPort, createdPort, proxyPort] { #expect(await Self.accepts(port), "port \(port) serves before the stop") }
        let group = ServiceGroup(configuration: .init(
            services: [registry, control, proxy], logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })))

        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await group.triggerGracefulShutdown()
            try await tasks.next()
        }
        for port in [apiPort, createdPort, proxyPort] { #expect(await !Self.accepts(port), "port \(port) is closed after the stop") }
        #expect(await registry.list().isEmpty)
    }
}
