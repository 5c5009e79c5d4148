import LowbandProxy
import LowbandProxyCore
import LowbandShaper
import LowbandTestSupport
import NIOCore
import Testing

/// An open connection meeting each event of docs/PROXY.md's "Connection states and events"
/// table, with real sockets: the documented outcome happens, and afterwards nothing of the
/// connection is left in the proxy (no connection, no buffered byte) or at the upstream.
/// Wall clock (scripts/test.sh runs it alone): one test awaits ~800 slices through a latency toxic; in the parallel pass each await waited for a cooperative thread that CPU-bound suites held (50 s of its 60 s limit, and 97 s, failed, once in CI).
@Suite(.timeLimit(.minutes(1)), .tags(.wallClock)) struct ConnectionLifecycleTests {
    static let link = ProxyLink.network(
        ProxyHarness.steadyProfile(downRate: 8_000_000, upRate: 8_000_000, downDelay: .milliseconds(5), upDelay: .milliseconds(5))
    )

    /// Nothing of any connection is left: the proxy holds none and no byte, the upstream has
    /// every socket closed.
    private func nothingLeft(_ proxy: ShapingProxy, _ upstream: RecordingServer) async -> Bool {
        await eventually {
            let statistics = await proxy.statistics
            return statistics.openConnections == 0 && statistics.bufferedBytes == 0 && upstream.openCount == 0
        }
    }

    @Test func theClientHalfClosingStillGetsTheUpstreamsReply() async throws {
        let echo = try await TestPeers.echoServer()
        try await echo.serving {
            try await ProxyHarness.withProxy(upstreamPort: echo.port, link: Self.link) { proxy, port in
                let client = try await TestPeers.connect(port: port)
                let reply = try await client.executeThenClose { inbound, outbound in
                    try await outbound.write(TestPeers.pattern(100_000))
                    outbound.finish()
                    var iterator = inbound.makeAsyncIterator()
                    return try await TestPeers.readToEnd(from: &iterator)
                }
                let expected = Array(TestPeers.pattern(100_000).readableBytesView)
                let got = Array(reply.readableBytesView)
                let firstDifference = zip(got, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                #expect(got == expected, "first difference at \(firstDifference.map(String.init) ?? "none")")
                #expect(await eventually { await proxy.statistics.openConnections == 0 })
            }
        }
    }

    @Test func theUpstreamHalfClosingStillTakesTheClientsBytes() async throws {
        // The upstream sends 50 kB, ends its side, and keeps reading until the client ends.
        let source = try await TestPeers.sourceServer(count: 50_000)
        try await source.serving {
            try await ProxyHarness.withProxy(upstreamPort: source.port, link: Self.link) { proxy, port in
                let client = try await TestPeers.connect(port: port)
                let received = try await client.executeThenClose { inbound, outbound in
                    var iterator = inbound.makeAsyncIterator()
                    let received = try await TestPeers.readToEnd(from: &iterator)
                    // Our side is still open after the upstream's end: a write gets through.
                    try await outbound.write(ByteBuffer(string: "after your end"))
                    outbound.finish()
                    return received
                }
                #expect(received == TestPeers.pattern(50_000))
                #expect(await eventually { await proxy.statistics.openConnections == 0 })
                #expect(await proxy.statistics.upstreamBytes == "after your end".utf8.count)
            }
        }
    }

    /// How the proxy is taken away from under an open connection.
    enum Removal: String, CaseIterable, CustomTestStringConvertible {
        case disabled, deleted
        var testDescription: String { rawValue }
    }

    @Test(arguments: Removal.allCases)
    func aProxyTakenAwayClosesItsConnections(_ removal: Removal) async throws {
        let upstream = try await RecordingServer.start(holdsAfterEnd: true)
        try await upstream.serving {
            let registry = ProxyRegistry()
            let created = try await registry.create(ProxySpecification(name: "phone", listen: "127.0.0.1:0", upstream: "127.0.0.1:\(upstream.port)"))
            let port = try #require(Int(created.listen.split(separator: ":").last ?? ""))
            let proxy = try await registry.proxy(named: "phone")
            let client = try await TestPeers.connect(port: port)
            let ended = try await client.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: "hello"))
                #expect(await eventually { upstream.connections.first?.received == Array("hello".utf8) })
                switch removal {
                case .disabled: try await registry.update(named: "phone", ProxySpecification(enabled: false))
                case .deleted: try await registry.delete(named: "phone")
                }
                var iterator = inbound.makeAsyncIterator()
                return (try? await TestPeers.readToEnd(from: &iterator)) != nil
            }
            #expect(ended, "the client's connection ended")
            // The upstream got FIN; holding its side open is its own business (TCP half-close).
            let settled = await eventually {
                let statistics = await proxy.statistics
                return statistics.openConnections == 0 && statistics.bufferedBytes == 0 && upstream.connections.allSatisfy(\.sawEnd)
            }
            #expect(settled, "\(upstream.connections)")
            await registry.stopAll()
        }
    }

    @Test func toxicsChangedMidStreamKeepEveryByteInOrder() async throws {
        let echo = try await TestPeers.echoServer()
        try await echo.serving {
            try await ProxyHarness.withProxy(upstreamPort: echo.port, link: Self.link) { proxy, port in
                let client = try await TestPeers.connect(port: port)
                let size = 400_000
                let reply = try await client.executeThenClose { inbound, outbound in
                    var iterator = inbound.makeAsyncIterator()
                    var received = ByteBuffer()
                    let message = TestPeers.pattern(size, seed: 9)
                    for (index, piece) in stride(from: 0, to: size, by: 100_000).enumerated() {
                        try await outbound.write(message.getSlice(at: piece, length: 100_000)!)
                        switch index {
                        case 0:
                            _ = try await proxy.addToxic(Toxic(name: "slow", type: .latency, stream: .downstream, attributes: ["latency": 20, "jitter": 10]))
                        case 1:
                            _ = try await proxy.addToxic(Toxic(name: "cut", type: .slicer, stream: .upstream, attributes: ["average_size": 500, "size_variation": 400]))
                        case 2:
                            _ = try await proxy.updateToxic(named: "slow", attributes: ["latency": 1])
                        default:
                            try await proxy.removeAllToxics()
                        }
                        var piece = try await TestPeers.read(100_000, from: &iterator)
                        received.writeBuffer(&piece)
                    }
                    return received
                }
                #expect(reply == TestPeers.pattern(size, seed: 9))
                #expect(await eventually { await proxy.statistics.openConnections == 0 })
                #expect(await proxy.statistics.bufferedBytes == 0)
            }
        }
    }

    @Test func aProxyStoppedDuringTheConnectDelayLeavesNothing() async throws {
        let upstream = try await RecordingServer.start()
        try await upstream.serving {
            let proxy = ShapingProxy(
                configuration: ShapingProxy.Configuration(
                    name: "test", upstream: ProxyEndpoint(host: "127.0.0.1", port: upstream.port),
                    link: EarlyCloseTests.delayedConnect(.seconds(30))
                )
            )
            let port = try #require(try await proxy.start().port)
            let client = try await TestPeers.connect(port: port)
            let ended = try await client.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: "hi"))
                #expect(await eventually { await proxy.statistics.acceptedConnections == 1 })
                await proxy.stop()
                // Closed, with RST since "hi" was never read from the proxy's socket.
                var iterator = inbound.makeAsyncIterator()
                do {
                    _ = try await TestPeers.readToEnd(from: &iterator)
                } catch {}
                return true
            }
            #expect(ended)
            #expect(await nothingLeft(proxy, upstream))
            #expect(upstream.connections.isEmpty, "never connected upstream")
        }
    }
}
