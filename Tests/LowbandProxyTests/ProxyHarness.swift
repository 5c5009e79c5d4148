import LowbandProxy
import LowbandShaper
import NIOCore

/// A started proxy in front of a test peer, stopped by `withProxy` when the body ends.
enum ProxyHarness {
    /// A profile with exact figures and nothing random, for fidelity checks.
    static func steadyProfile(
        name: String = "steady",
        downRate: Int64, upRate: Int64, downDelay: Duration = .zero, upDelay: Duration = .zero,
        queueBytes: Int = 64_000, outages: [OutageProfile] = []
    ) -> NetworkProfile {
        NetworkProfile(
            name: name,
            downlink: LinkProfile(rate: .bitsPerSecond(downRate), delay: downDelay, queueBytes: queueBytes),
            uplink: LinkProfile(rate: .bitsPerSecond(upRate), delay: upDelay, queueBytes: queueBytes),
            outages: outages
        )
    }

    /// The profile file `profiles/<name>.yaml` of the repository.
    static func profile(_ name: String) throws -> NetworkProfile {
        try NetworkProfile.load(named: name)
    }

    static func withProxy<Result: Sendable>(
        upstreamPort: Int,
        link: ProxyLink = .perfect(),
        limits: ShapingProxy.Limits = ShapingProxy.Limits(),
        _ body: (ShapingProxy, Int) async throws -> Result
    ) async throws -> Result {
        let proxy = ShapingProxy(
            configuration: ShapingProxy.Configuration(
                name: "test",
                upstream: ProxyEndpoint(host: "127.0.0.1", port: upstreamPort),
                link: link,
                limits: limits
            )
        )
        let address = try await proxy.start()
        do {
            let result = try await body(proxy, address.port ?? 0)
            await proxy.stop()
            return result
        } catch {
            await proxy.stop()
            throw error
        }
    }
}
