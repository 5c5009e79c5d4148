import LowbandProxy
import LowbandShaper
import LowbandTestSupport
import NIOCore
import NIOPosix
import Testing

/// The carrier NAT on real sockets: the proxy plays the same shaper, so a flow idle for the
/// NAT's timeout loses its binding (its bytes vanish with no RST, or it is reset), while a new
/// connection works.
/// Wall clock (scripts/test.sh runs it alone): it waits out a 1 s idle timeout for real.
@Suite(.timeLimit(.minutes(1)), .tags(.wallClock)) struct NATOverSocketsTests {
    static func link(_ death: FlowDeath) -> ProxyLink {
        var profile = ProxyHarness.steadyProfile(name: "nat", downRate: 8_000_000, upRate: 8_000_000)
        profile.nat = NATProfile(idleTimeout: .seconds(1), onExpiry: death)
        return .network(profile)
    }

    static func connect(port: Int) async throws -> any Channel {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get()
    }

    @Test func anIdleFlowsBytesVanishWithoutAResetWhileANewConnectionWorks() async throws {
        let upstream = try await RecordingServer.start()
        try await upstream.serving {
            try await ProxyHarness.withProxy(upstreamPort: upstream.port, link: Self.link(.silent)) { proxy, port in
                let idle = try await Self.connect(port: port)
                try await idle.writeAndFlush(ByteBuffer(string: "before"))
                #expect(await eventually { upstream.connections.first?.received == Array("before".utf8) })
                try await Task.sleep(for: .milliseconds(1_500))
                try await idle.writeAndFlush(ByteBuffer(string: "after"))
                let fresh = try await Self.connect(port: port)
                try await fresh.writeAndFlush(ByteBuffer(string: "fresh"))
                #expect(await eventually { upstream.connections.count == 2 && upstream.connections[1].received == Array("fresh".utf8) }, "\(upstream.connections)")
                // Long enough for "after" to cross an 8 Mbit/s link many times over.
                try await Task.sleep(for: .milliseconds(1_000))
                #expect(upstream.connections[0].received == Array("before".utf8), "the forgotten flow's bytes vanished")
                #expect(idle.isActive && !upstream.connections[0].closed, "no RST either way")
                #expect(await proxy.statistics.resetConnections == 0)
                try await idle.close()
                try await fresh.close()
            }
        }
    }

    @Test func aResettingNATResetsTheFlowAtItsNextPacket() async throws {
        let upstream = try await RecordingServer.start()
        try await upstream.serving {
            try await ProxyHarness.withProxy(upstreamPort: upstream.port, link: Self.link(.reset)) { proxy, port in
                let idle = try await Self.connect(port: port)
                try await idle.writeAndFlush(ByteBuffer(string: "before"))
                #expect(await eventually { upstream.connections.first?.received == Array("before".utf8) })
                try await Task.sleep(for: .milliseconds(1_500))
                #expect(idle.isActive && upstream.openCount == 1, "an idle flow is reset only when a packet finds its binding gone")
                try await idle.writeAndFlush(ByteBuffer(string: "after"))
                #expect(await eventually { !idle.isActive }, "the client's socket was reset")
                #expect(await eventually { upstream.openCount == 0 }, "\(upstream.connections)")
                #expect(upstream.connections[0].received == Array("before".utf8))
                #expect(await proxy.statistics.resetConnections == 1)
            }
        }
    }
}
