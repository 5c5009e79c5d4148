import LowbandProxy
import LowbandShaper
import LowbandTestSupport
import NIOCore
import Testing

/// A client that ends before its upstream connection exists (health checks, port probes,
/// `connect()`-only liveness tests) still has its bytes and its end forwarded, and nothing of
/// the connection outlives both sides.
@Suite(.timeLimit(.minutes(5))) struct EarlyCloseTests {
    /// A perfect link whose connects wait `delay`, as a profile's `connect: {delay: …}` does.
    static func delayedConnect(_ delay: Duration) -> ProxyLink {
        var profile = ProxyHarness.steadyProfile(name: "slow-connect", downRate: 8_000_000, upRate: 8_000_000)
        profile.connectDelay = delay ... delay
        return .network(profile)
    }

    @Test(arguments: ["perfect", "connect delay"])
    func aClientClosingAtOnceEndsItsUpstream(link name: String) async throws {
        let link = name == "perfect" ? ProxyLink.perfect() : Self.delayedConnect(.milliseconds(200))
        let upstream = try await RecordingServer.start()
        try await upstream.serving {
            try await ProxyHarness.withProxy(upstreamPort: upstream.port, link: link) { proxy, port in
                for _ in 0..<20 {
                    let client = try await TestPeers.connect(port: port)
                    try await client.channel.close()
                }
                let settled = await eventually {
                    let connections = upstream.connections
                    return connections.count == 20 && connections.allSatisfy { $0.sawEnd && $0.closed }
                }
                #expect(settled, "upstream connections: \(upstream.connections)")
                #expect(await eventually { await proxy.statistics.openConnections == 0 })
            }
        }
    }

    @Test func bytesAndEndSentDuringTheConnectDelayAreForwarded() async throws {
        let upstream = try await RecordingServer.start()
        try await upstream.serving {
            try await ProxyHarness.withProxy(upstreamPort: upstream.port, link: Self.delayedConnect(.milliseconds(300))) { proxy, port in
                let client = try await TestPeers.connect(port: port)
                let echoed = try await client.executeThenClose { inbound, outbound in
                    try await outbound.write(ByteBuffer(string: "hi"))
                    outbound.finish()
                    var iterator = inbound.makeAsyncIterator()
                    return try await TestPeers.readToEnd(from: &iterator)
                }
                #expect(echoed.readableBytes == 0)
                // The upstream's socket is closed (its FIN is what ended the client's stream) a
                // moment before its channelInactive records it, on another thread: wait for that.
                let recorded = [RecordingServer.Connection(received: Array("hi".utf8), sawEnd: true, closed: true)]
                #expect(await eventually { upstream.connections == recorded }, "\(upstream.connections)")
                #expect(await eventually { await proxy.statistics.openConnections == 0 })
            }
        }
    }

    @Test func aClientResettingDuringTheConnectDelayLeavesNothing() async throws {
        let upstream = try await RecordingServer.start()
        try await upstream.serving {
            try await ProxyHarness.withProxy(upstreamPort: upstream.port, link: Self.delayedConnect(.milliseconds(200))) { proxy, port in
                let client = try await TestPeers.connect(port: port)
                try await client.channel.writeAndFlush(ByteBuffer(string: "hi"))
                try await TestPeers.reset(client.channel)
                #expect(await eventually { await proxy.statistics.openConnections == 0 })
                #expect(await eventually { upstream.openCount == 0 }, "\(upstream.connections)")
            }
        }
    }
}
