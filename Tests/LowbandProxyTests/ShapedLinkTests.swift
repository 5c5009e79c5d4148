import LowbandProxy
import LowbandProxyCore
import LowbandShaper
import NIOCore
import NIOPosix
import Testing

/// The one-call shaped link: it starts on a free loopback port, forwards to its service, takes
/// a profile by name or by value, and gives its port back when stopped.
@Suite(.timeLimit(.minutes(5))) struct ShapedLinkTests {
    @Test func bytesCrossTheLinkToTheServiceAndBack() async throws {
        let echo = try await TestPeers.echoServer()
        let (reply, statistics) = try await echo.serving {
            try await withShapedLink(to: ProxyEndpoint(host: "127.0.0.1", port: echo.port), profile: .named("perfect")) { link in
                #expect(link.port != 0 && link.port != echo.port)
                let client = try await TestPeers.connect(port: link.port)
                let reply = try await client.executeThenClose { inbound, outbound in
                    try await outbound.write(TestPeers.pattern(1000))
                    var iterator = inbound.makeAsyncIterator()
                    return try await TestPeers.read(1000, from: &iterator)
                }
                return (reply, await link.statistics)
            }
        }
        #expect(reply == TestPeers.pattern(1000))
        #expect(statistics.acceptedConnections == 1)
        #expect(statistics.upstreamBytes == 1000 && statistics.downstreamBytes == 1000)
    }

    @Test func aProfileBuiltInCodeIsPlayedWithItsSeed() async throws {
        let echo = try await TestPeers.echoServer()
        let profile = ProxyHarness.steadyProfile(name: "mine", downRate: 1_000_000, upRate: 1_000_000)
        let link = try await ShapedLink.start(to: ProxyEndpoint(host: "127.0.0.1", port: echo.port), profile: .value(profile), seed: 42)
        #expect(link.profile == profile)
        #expect(link.seed == 42)
        #expect(try await link.proxy.link.description == "mine seed 42")
        await link.stop()
        await echo.close()
    }

    @Test func anUnknownProfileNameIsRefusedWithTheNamesThatExist() async throws {
        let error = try await #require(throws: ProxyError.self) {
            _ = try await ShapedLink.start(to: ProxyEndpoint(host: "127.0.0.1", port: 9), profile: .named("no-such-network"))
        }
        #expect(error.code == .unknownProfile)
        #expect(error.message.contains("no-such-network"))
        #expect(error.message.contains("edge"))
    }

    @Test func stopFreesThePort() async throws {
        let echo = try await TestPeers.echoServer()
        let link = try await ShapedLink.start(to: ProxyEndpoint(host: "127.0.0.1", port: echo.port), profile: .named("edge"))
        let port = link.port
        await link.stop()
        await echo.close()
        // Connecting is refused, and the port can be bound again at once.
        await #expect(throws: (any Error).self) { _ = try await TestPeers.connect(port: port) }
        let rebound = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: port).get()
        #expect(rebound.localAddress?.port == port)
        try await rebound.close()
    }
}
