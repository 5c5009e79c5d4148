import EchoService
import LowbandProxy
import NIOCore
import NIOPosix
import Testing

/// The echo service behind an EDGE link answers no sooner than EDGE allows.
@Suite(.timeLimit(.minutes(1))) struct EdgeEchoTests {
    @Test func edgeAddsAtLeastItsRoundTripDelay() async throws {
        let service = try await EchoService.start()
        let (profile, roundTrips) = try await withShapedLink(
            to: ProxyEndpoint(host: "127.0.0.1", port: service.port), profile: .named("edge"), seed: 7
        ) { link in
            (link.profile, try await echoRoundTrips(port: link.port, count: 5))
        }
        try await service.stop()

        // A round trip crosses the uplink and the downlink: each adds its delay, less at most
        // its jitter bound.
        let floor = profile.uplink.delay - profile.uplink.jitter.amount + profile.downlink.delay - profile.downlink.jitter.amount
        print("EDGE echo round trips: \(roundTrips) (floor \(floor))")
        #expect(floor == .milliseconds(300))
        #expect(roundTrips.allSatisfy { $0 >= floor })
    }

    /// Sends a few bytes `count` times through 127.0.0.1:`port` and times each echo.
    func echoRoundTrips(port: Int, count: Int) async throws -> [Duration] {
        let client = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await client.executeThenClose { inbound, outbound in
            var replies = inbound.makeAsyncIterator()
            var times: [Duration] = []
            for _ in 0..<count {
                let start = ContinuousClock.now
                try await outbound.write(ByteBuffer(string: "ping"))
                var received = 0
                while received < 4, let reply = try await replies.next() {
                    received += reply.readableBytes
                }
                times.append(ContinuousClock.now - start)
            }
            return times
        }
    }
}
