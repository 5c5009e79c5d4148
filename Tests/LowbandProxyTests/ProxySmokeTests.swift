import LowbandProxy
import LowbandProxyCore
import LowbandShaper
import LowbandTransport
import NIOCore
import NIOPosix
import Testing

// Every test awaits real events; the limit only stops one that would wait for ever.
@Suite(.timeLimit(.minutes(5))) struct ProxySmokeTests {
    @Test func echoThroughThePerfectProfile() async throws {
        let echo = try await TestPeers.echoServer()
        try await echo.serving {
            try await ProxyHarness.withProxy(upstreamPort: echo.port, link: .network(try ProxyHarness.profile("perfect"))) { proxy, port in
                let client = try await TestPeers.connect(port: port)
                try await client.executeThenClose { inbound, outbound in
                    var iterator = inbound.makeAsyncIterator()
                    let message = TestPeers.pattern(100_000)
                    try await outbound.write(message)
                    #expect(try await TestPeers.read(100_000, from: &iterator) == message)
                    // Half close: the end travels to the echo server and back.
                    try await outbound.write(TestPeers.pattern(10))
                    outbound.finish()
                    #expect(try await TestPeers.readToEnd(from: &iterator).readableBytes == 10)
                }
                let statistics = await proxy.statistics
                #expect(statistics.upstreamBytes == 100_010)
                #expect(statistics.downstreamBytes == 100_010)
            }
        }
    }

    /// NIO takes no watermark under 1 byte (it stops the process); `Limits` allows 0.
    @Test func zeroWriteBufferLimitsAreRaisedToTheSmallestNIOTakes() async throws {
        let echo = try await TestPeers.echoServer()
        try await echo.serving {
            let limits = ShapingProxy.Limits(writeBufferHigh: 0, writeBufferLow: 0)
            try await ProxyHarness.withProxy(upstreamPort: echo.port, limits: limits) { _, port in
                let client = try await TestPeers.connect(port: port)
                try await client.executeThenClose { inbound, outbound in
                    var iterator = inbound.makeAsyncIterator()
                    try await outbound.write(TestPeers.pattern(10_000))
                    #expect(try await TestPeers.read(10_000, from: &iterator) == TestPeers.pattern(10_000))
                }
            }
        }
    }

    @Test func aProxySetsItsTimersOnTheSchedulerItIsGiven() async throws {
        let echo = try await TestPeers.echoServer()
        let scheduler = EventLoopScheduler(eventLoop: MultiThreadedEventLoopGroup.singleton.next())
        let proxy = ShapingProxy(configuration: .init(upstream: ProxyEndpoint(host: "127.0.0.1", port: echo.port)), scheduler: scheduler)
        try await echo.serving {
            let port = try #require(try await proxy.start().port)
            // A latency no scheduling delay comes near (a 3 s one was once looked at after it
            // had fired, under the parallel suite), so the bytes are surely held when the test
            // looks; taking the toxic away then delivers them at once.
            let toxic = try await proxy.addToxic(Toxic(type: .latency, stream: .upstream, attributes: ["latency": 60_000]))
            let client = try await TestPeers.connect(port: port)
            try await client.executeThenClose { inbound, outbound in
                var iterator = inbound.makeAsyncIterator()
                try await outbound.write(ByteBuffer(string: "ping"))
                // While the toxic holds the bytes, the proxy's wake-up is the scheduler's work.
                var held = false
                while !held {
                    held = await proxy.statistics.bufferedBytes == 4
                }
                let pending = try await scheduler.eventLoop.submit { scheduler.pendingCount }.get()
                #expect(pending == 1)
                try await proxy.removeToxic(named: toxic.name)
                #expect(try await TestPeers.read(4, from: &iterator) == ByteBuffer(string: "ping"))
            }
            // Nothing is held any more, so the proxy took its timer back off the scheduler.
            let left = try await scheduler.eventLoop.submit { scheduler.pendingCount }.get()
            #expect(left == 0)
            await proxy.stop()
        }
    }

    @Test func runServesUntilCancelledThenStopsListening() async throws {
        let echo = try await TestPeers.echoServer()
        let proxy = ShapingProxy(configuration: .init(upstream: ProxyEndpoint(host: "127.0.0.1", port: echo.port)))
        try await echo.serving {
            try await withThrowingTaskGroup(of: Void.self) { group in
                let address = try await proxy.start()
                group.addTask { try await proxy.run() }
                let port = try #require(address.port)
                let client = try await TestPeers.connect(port: port)
                try await client.executeThenClose { inbound, outbound in
                    var iterator = inbound.makeAsyncIterator()
                    try await outbound.write(ByteBuffer(string: "still here"))
                    #expect(try await TestPeers.read(10, from: &iterator) == ByteBuffer(string: "still here"))
                    group.cancelAll()
                    try await group.waitForAll()
                    // Stopping closed the open connection too.
                    #expect(try await TestPeers.readToEnd(from: &iterator).readableBytes == 0)
                }
                await #expect(throws: (any Error).self) { try await TestPeers.connect(port: port) }
                #expect(await proxy.listeningAddress == nil)
            }
        }
    }
}
