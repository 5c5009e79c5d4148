import LowbandProxy
import LowbandProxyCore
import LowbandShaper
import NIOCore
import Testing

/// Peers that reset mid-transfer and upstreams that refuse never bring the proxy down: the
/// affected connection is closed, the event is recorded, and other connections go on.
// Every test awaits real events; the limit only stops one that would wait for ever.
@Suite(.timeLimit(.minutes(5))) struct ResilienceTests {
    static let link = ProxyLink.network(
        ProxyHarness.steadyProfile(downRate: 8_000_000, upRate: 8_000_000, downDelay: .milliseconds(10), upDelay: .milliseconds(10))
    )

    /// Waits for the close event of connection `number`.
    private func closeEvent(_ number: Int, in events: AsyncStream<ProxyEvent>) async -> ProxyEvent? {
        for await event in events where event.kind == .close && event.connection == number {
            return event
        }
        return nil
    }

    /// An echo round trip of `size` bytes through a new connection.
    private func echoRoundTrip(port: Int, size: Int = 1000) async throws -> Bool {
        let client = try await TestPeers.connect(port: port)
        return try await client.executeThenClose { inbound, outbound in
            var iterator = inbound.makeAsyncIterator()
            let message = TestPeers.pattern(size, seed: 3)
            try await outbound.write(message)
            return try await TestPeers.read(size, from: &iterator) == message
        }
    }

    @Test func aClientResettingMidTransferOnlyEndsItsConnection() async throws {
        let echo = try await TestPeers.echoServer()
        try await echo.serving {
            try await ProxyHarness.withProxy(upstreamPort: echo.port, link: Self.link) { proxy, port in
                let events = proxy.events()
                let client = try await TestPeers.connect(port: port)
                try await client.executeThenClose { inbound, outbound in
                    var iterator = inbound.makeAsyncIterator()
                    try await outbound.write(TestPeers.pattern(1_000_000))
                    _ = try await TestPeers.read(64 * 1024, from: &iterator)
                    try await TestPeers.reset(client.channel)
                }
                let closed = await closeEvent(1, in: events)
                #expect(closed?.detail?.hasPrefix("client:") == true, "\(closed?.detail ?? "no close event")")
                #expect(try await echoRoundTrip(port: port))
                let statistics = await proxy.statistics
                #expect(statistics.acceptedConnections == 2)
                #expect(statistics.bufferedBytes == 0 || statistics.openConnections > 0)
            }
        }
    }

    @Test func anUpstreamResettingMidTransferClosesItsClient() async throws {
        let upstream = try await TestPeers.resettingEchoServer(after: 200_000)
        try await upstream.serving {
            try await ProxyHarness.withProxy(upstreamPort: upstream.port, link: Self.link) { proxy, port in
                let events = proxy.events()
                let client = try await TestPeers.connect(port: port)
                let outcome: String = try await client.executeThenClose { inbound, outbound in
                    async let written: Void = outbound.write(TestPeers.pattern(1_000_000))
                    var received = 0
                    var outcome = "end of stream"
                    do {
                        for try await buffer in inbound { received += buffer.readableBytes }
                    } catch {
                        outcome = "error"
                    }
                    _ = try? await written
                    return "\(outcome) after \(received) B"
                }
                let closed = await closeEvent(1, in: events)
                #expect(closed?.detail?.hasPrefix("upstream") == true, "\(closed?.detail ?? "no close event") (\(outcome))")
                #expect(try await echoRoundTrip(port: port))
            }
        }
    }

    @Test func anUpstreamThatRefusesClosesTheClientAndIsRecorded() async throws {
        try await TestPeers.withRefusedPort { port in
            try await ProxyHarness.withProxy(upstreamPort: port, link: Self.link) { proxy, proxyPort in
                let events = proxy.events()
                for _ in 0..<2 {
                    let client = try await TestPeers.connect(port: proxyPort)
                    let received = try await client.executeThenClose { inbound, _ in
                        var iterator = inbound.makeAsyncIterator()
                        return try await TestPeers.readToEnd(from: &iterator).readableBytes
                    }
                    #expect(received == 0)
                }
                var refused: [ProxyEvent] = []
                for await event in events where event.kind == .refused {
                    refused.append(event)
                    if refused.count == 2 { break }
                }
                #expect(refused.allSatisfy { $0.detail?.contains("127.0.0.1:\(port)") == true })
                let statistics = await proxy.statistics
                #expect(statistics.refusedConnections == 2)
                #expect(statistics.openConnections == 0)
            }
        }
    }

    @Test func manyConcurrentConnectionsShareOneDevice() async throws {
        let echo = try await TestPeers.echoServer()
        try await echo.serving {
            try await ProxyHarness.withProxy(upstreamPort: echo.port, link: Self.link) { proxy, port in
                let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for _ in 0..<40 {
                        group.addTask { try await echoRoundTrip(port: port, size: 20_000) }
                    }
                    var results: [Bool] = []
                    for try await result in group { results.append(result) }
                    return results
                }
                #expect(results.count == 40)
                #expect(results.allSatisfy { $0 })
                let statistics = await proxy.statistics
                #expect(statistics.acceptedConnections == 40)
                #expect(statistics.upstreamBytes == 40 * 20_000)
                #expect(statistics.downstreamBytes == 40 * 20_000)
            }
        }
    }
}
