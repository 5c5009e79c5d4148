import LowbandProxy
import LowbandShaper
import LowbandTestSupport
import NIOCore
import NIOPosix
import Testing

/// During a blackout a new connection meets a dead network: its handshake is never answered,
/// so the client's connect times out (or completes once the link is back), instead of an
/// instant accept that leaves the app waiting on a silent socket.
/// Wall clock (scripts/test.sh runs it alone): the blackout starts with the proxy, so a test the parallel pass starves for a second connects after it has mostly passed (it waited 0.16 s of 1.5 s once in CI).
@Suite(.timeLimit(.minutes(1)), .tags(.wallClock)) struct BlackoutConnectTests {
    /// A fast link that is down from the start for `duration`.
    static func blackout(for duration: Duration) -> ProxyLink {
        .network(
            ProxyHarness.steadyProfile(
                name: "blackout", downRate: 8_000_000, upRate: 8_000_000,
                outages: [OutageProfile(kind: .blackout, start: .zero ... .zero, duration: duration ... duration)]
            )
        )
    }

    /// Connects with a connect timeout, as an app would; the error's description on failure.
    static func connect(port: Int, timeout: Duration) async -> Result<any Channel, any Error> {
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(TimeAmount(timeout))
                .connect(host: "127.0.0.1", port: port)
                .get()
            return .success(channel)
        } catch {
            return .failure(error)
        }
    }

    @Test func aConnectDuringABlackoutTimesOutThenSucceedsWhenItEnds() async throws {
        let upstream = try await RecordingServer.start()
        try await upstream.serving {
            try await ProxyHarness.withProxy(upstreamPort: upstream.port, link: Self.blackout(for: .seconds(3))) { proxy, port in
                let during = await Self.connect(port: port, timeout: .milliseconds(500))
                switch during {
                case .success(let channel):
                    try? await channel.close()
                    Issue.record("the handshake completed during the blackout")
                case .failure(let error):
                    var timedOut = false
                    if case ChannelError.connectTimeout = error { timedOut = true }
                    #expect(timedOut, "\(error)")
                }
                #expect(await proxy.statistics.acceptedConnections == 0)
                #expect(upstream.connections.isEmpty)
                // After the blackout a new handshake completes and the connection works.
                var connected: (any Channel)?
                let succeeded = await eventually(within: .seconds(15)) {
                    if case .success(let channel) = await Self.connect(port: port, timeout: .milliseconds(500)) {
                        connected = channel
                        return true
                    }
                    return false
                }
                #expect(succeeded)
                if let connected {
                    try await connected.writeAndFlush(ByteBuffer(string: "after"))
                    try await connected.close()
                }
                #expect(await eventually { upstream.connections.contains { $0.received == Array("after".utf8) && $0.sawEnd } }, "\(upstream.connections)")
            }
        }
    }

    @Test func aConnectStartedDuringABlackoutCompletesWhenItEnds() async throws {
        let upstream = try await RecordingServer.start()
        try await upstream.serving {
            try await ProxyHarness.withProxy(upstreamPort: upstream.port, link: Self.blackout(for: .milliseconds(1500))) { proxy, port in
                let clock = ContinuousClock()
                let started = clock.now
                // No connect timeout shorter than the blackout: the SYN is retransmitted (after
                // 1 s, then 3 s) and the first retransmission after the blackout gets through.
                let result = await Self.connect(port: port, timeout: .seconds(20))
                let waited = clock.now - started
                let channel = try result.get()
                try await channel.close()
                #expect(waited >= .milliseconds(900), "connected after \(waited)")
                #expect(await eventually { await proxy.statistics.openConnections == 0 })
            }
        }
    }
}
