import LowbandProxy
import LowbandProxyCore
import LowbandShaper
import LowbandTestSupport
import NIOCore
import NIOPosix
import Testing

/// Memory stays bounded whatever the peers do: a client pushing 50 MB at an upstream that never
/// reads fills the kernel buffers, then the proxy stops reading and TCP pushes back on the client.
// Every test awaits real events; the limit only stops one that would wait for ever.
@Suite(.timeLimit(.minutes(5))) struct BackPressureTests {
    static let total = 50 * 1024 * 1024

    @Test(arguments: ["perfect", "shaped"])
    func clientFloodingASilentUpstreamIsHeldBack(link name: String) async throws {
        let (silent, accepted) = try await TestPeers.silentServer()
        let limits = ShapingProxy.Limits()
        let link: ProxyLink =
            name == "perfect"
            ? .perfect()
            : .network(ProxyHarness.steadyProfile(downRate: 100_000_000, upRate: 100_000_000, downDelay: .milliseconds(20), upDelay: .milliseconds(20)))
        try await silent.serving {
            try await ProxyHarness.withProxy(upstreamPort: silent.port, link: link, limits: limits) { proxy, port in
                let events = proxy.events()
                let client = try await TestPeers.connect(port: port)
                try await client.executeThenClose { _, outbound in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            let chunk = TestPeers.pattern(64 * 1024)
                            var written = 0
                            while written < Self.total {
                                try await outbound.write(chunk)
                                written += chunk.readableBytes
                            }
                        }
                        var iterator = accepted.makeAsyncIterator()
                        _ = await iterator.next()
                        // The proxy stops reading the client because the upstream does not read
                        // (a shaped link may pause it earlier, while its queue is full).
                        var pause: ProxyEvent?
                        for await event in events where event.kind == .pause && event.detail == "upstream not reading" {
                            pause = event
                            break
                        }
                        let statistics = await proxy.statistics
                        group.cancelAll()
                        do {
                            try await group.waitForAll()
                        } catch is CancellationError {
                            // The writer was stopped mid-flood, as intended.
                        }
                        #expect(pause?.direction == .upstream)
                        #expect(statistics.peakBufferedBytes <= limits.perDirectionBound)
                        if name == "perfect" {
                            // Nothing waits in a perfect link: only the socket buffer and one read burst.
                            #expect(statistics.peakBufferedBytes <= limits.writeBufferHigh + limits.readSize * limits.readsPerWakeup + 64_000)
                        }
                        #expect(statistics.upstreamBytes < Self.total / 2, "the client was held back, not drained into memory")
                        print("back-pressure (\(name)): paused after \(statistics.upstreamBytes) B delivered upstream, peak buffered \(statistics.peakBufferedBytes) B (bound \(limits.perDirectionBound) B)")
                    }
                }
            }
        }
    }

    @Test(arguments: ["perfect", "shaped"])
    func aClientThatNeverReadsHoldsBackAFloodingUpstream(link name: String) async throws {
        let source = try await TestPeers.sourceServer(count: Self.total)
        let limits = ShapingProxy.Limits()
        let link: ProxyLink =
            name == "perfect"
            ? .perfect()
            : .network(ProxyHarness.steadyProfile(downRate: 100_000_000, upRate: 100_000_000, downDelay: .milliseconds(20), upDelay: .milliseconds(20)))
        try await source.serving {
            try await ProxyHarness.withProxy(upstreamPort: source.port, link: link, limits: limits) { proxy, port in
                let events = proxy.events()
                // A client that never reads: its kernel buffer fills, then the proxy's.
                let client = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .channelOption(.autoRead, value: false)
                    .connect(host: "127.0.0.1", port: port)
                    .get()
                var pause: ProxyEvent?
                for await event in events where event.kind == .pause && event.detail == "client not reading" {
                    pause = event
                    break
                }
                let statistics = await proxy.statistics
                try await TestPeers.reset(client)
                #expect(pause?.direction == .downstream)
                #expect(statistics.peakBufferedBytes <= limits.perDirectionBound)
                #expect(statistics.downstreamBytes < Self.total / 2, "the upstream was held back, not drained into memory")
                #expect(await eventually { await proxy.statistics.openConnections == 0 })
                #expect(await proxy.statistics.bufferedBytes == 0)
                print("back-pressure (\(name), client not reading): paused after \(statistics.downstreamBytes) B delivered to the client, peak buffered \(statistics.peakBufferedBytes) B (bound \(limits.perDirectionBound) B)")
            }
        }
    }
}
