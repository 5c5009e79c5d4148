import LowbandProxy
import LowbandProxyCore
import LowbandShaper
import LowbandTestSupport
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// The carrier NAT on real sockets: the proxy plays the same shaper, so a flow idle for the
/// NAT's timeout loses its binding (its bytes vanish with no RST, or it is reset), while a new
/// connection works.
/// Wall clock (scripts/test.sh runs it alone): it waits out a 1 s idle timeout for real.
@Suite(.timeLimit(.minutes(1)), .tags(.wallClock)) struct NATOverSocketsTests {
    /// The NAT's idle timeout.
    static let idleTimeout: Duration = .seconds(1)
    /// How long a flow is left idle: past the timeout by half a second. The one wait these tests
    /// make on the wall clock, and it is what they test (the NAT looks at a flow's idle time
    /// only when its next packet comes, so no event says the time has passed); every other
    /// moment is waited for as the proxy reports it.
    static let idleLongerThanTheNAT = idleTimeout + .milliseconds(500)

    static func link(_ death: FlowDeath) -> ProxyLink {
        var profile = ProxyHarness.steadyProfile(name: "nat", downRate: 8_000_000, upRate: 8_000_000)
        profile.nat = NATProfile(idleTimeout: idleTimeout, onExpiry: death)
        return .network(profile)
    }


    static func connect(port: Int) async throws -> any Channel {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get()
    }

    @Test func anIdleFlowsBytesVanishWithoutAResetWhileANewConnectionWorks() async throws {
        let upstream = try await RecordingServer.start()
        try await upstream.serving {
            try await ProxyHarness.withProxy(upstreamPort: upstream.port, link: Self.link(.silent)) { proxy, port in
                let events = ProxyEvents(proxy)
                let idle = try await Self.connect(port: port)
                try await idle.writeAndFlush(ByteBuffer(string: "before"))
                #expect(await eventually { upstream.connections.first?.received == Array("before".utf8) })
                try await Task.sleep(for: Self.idleLongerThanTheNAT)
                try await idle.writeAndFlush(ByteBuffer(string: "after"))
                // The proxy says when "after" met the forgotten binding: from then on it is gone.
                #expect(await eventually { events.contains { $0.kind == .natExpired && $0.connection == 1 && ($0.detail ?? "").hasPrefix("silent") } })
                let fresh = try await Self.connect(port: port)
                try await fresh.writeAndFlush(ByteBuffer(string: "fresh"))
                #expect(await eventually { upstream.connections.count == 2 && upstream.connections[1].received == Array("fresh".utf8) }, "\(upstream.connections)")
                // "fresh" crossed the same link after "after" was sent: "after" would be there by now.
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
                try await Task.sleep(for: Self.idleLongerThanTheNAT)
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

/// A proxy's events as they come, kept for `eventually` to look at.
private final class ProxyEvents: Sendable {
    private let seen = Mutex<[ProxyEvent]>([])
    private let watching = Mutex<Task<Void, Never>?>(nil)

    init(_ proxy: ShapingProxy) {
        let stream = proxy.events()
        let task = Task { [weak self] in
            for await event in stream { self?.seen.withLock { $0.append(event) } }
        }
        watching.withLock { $0 = task }
    }

    func contains(_ predicate: (ProxyEvent) -> Bool) -> Bool {
        seen.withLock { $0.contains(where: predicate) }
    }

    deinit { watching.withLock { $0?.cancel() } }
}
