import LowbandFixtures
import LowbandServer
import LowbandTestSupport
import LowbandTransport
import LowbandWire
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// Back-pressure over real loopback sockets: a logged-in client that pipelines history
/// requests and never reads is held under the outbound cap and closed with a reason, while a
/// well-behaved client keeps being answered.
///
/// Each test runs its server and clients on an event loop of its own: the attack keeps a loop
/// busy, and the shared ones serve other tests' servers.
/// Wall clock (scripts/test.sh runs it alone): runs the server's real timers on the wall clock: a client starved for 30 s by the parallel pass meets the login timeout, which is not what it tests.
@Suite(.tags(.wallClock)) struct SlowReaderTests {
    /// Runs `body` with a one-thread event loop group that is shut down afterwards.
    private func withOwnLoop(_ body: (any EventLoop) async throws -> Void) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            try await body(group.next())
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        try await group.shutdownGracefully()
    }

    @Test func aClientThatNeverReadsIsHeldUnderTheCapAndClosedWhileOthersAreServed() async throws {
        try await withOwnLoop { loop in try await slowReader(loop: loop) }
    }

    private func slowReader(loop: any EventLoop) async throws {
        let high = 256 << 10
        let limits = ConnectionLimits(outbound: OutboundLimits(highWaterMark: high, lowWaterMark: high / 2), outboundStallTimeout: .seconds(2))
        let world = MessengerWorld(seed: 7, shape: .init(users: 20, chatsPerUser: 8, messagesPerChat: 400))
        let events = Mutex<[ServerEvent]>([])
        let server = try await MessengerSocketServer.start(world: world, configuration: ServerConfiguration(connections: limits), eventLoop: loop, onEvent: { event in events.withLock { $0.append(event) } })
        let (chat, attacker, _, outsider) = try world.pairWithOutsider()
        let goodChat = try #require(world.chats(of: outsider).first)

        let slow = try await NonReadingClient.connect(port: server.port, loop: loop)
        try await slow.send([try Frame.request(LoginRequest(token: world.user(attacker)!.token, lastSync: 0), sequence: 1)])
        let pipelined = 20_000
        try await slow.send(repeating: Frame.request(HistoryRequest(chatID: chat.id, anchor: nil, direction: .older, count: 200), sequence: 2), count: pipelined)

        let good = try await LoopClient.connect(port: server.port, loop: loop)
        _ = try await good.call(LoginRequest(token: world.user(outsider)!.token, lastSync: 0))

        // While the attack lasts, the good client is answered and the slow one stays under the cap.
        let clock = ContinuousClock()
        var latencies: [Duration] = []
        var peak = 0
        var sawHeld = false
        let deadline = clock.now + .seconds(30)
        while events.withLock({ $0.isEmpty }), clock.now < deadline {
            let started = clock.now
            let page = try await good.call(HistoryRequest(chatID: goodChat.id, anchor: nil, direction: .older, count: 50), timeout: .seconds(5))
            latencies.append(clock.now - started)
            #expect(page.chatID == goodChat.id && !page.messages.isEmpty)
            try await Task.sleep(for: .milliseconds(10))  // a reader's pace, not a wait for an outcome
            if let snapshot = try await server.connections.first(where: { $0.userID == attacker }) {
                peak = max(peak, snapshot.peakQueuedOutboundBytes)
                sawHeld = sawHeld || snapshot.isReadingHeld
            }
        }
        let event = try #require(events.withLock { $0.first }, "the slow reader was not closed within 30 s")
        #expect(event.reason == .outboundStalled && event.userID == attacker, "\(event)")
        #expect(sawHeld, "the slow session stopped being read")
        // The cap is checked after each reply, so one reply (a page here, at most one frame) may overshoot it.
        #expect(peak > 0 && peak <= high + 128 << 10, "peak unsent bytes \(peak)")
        let answered = try await server.withServer { $0.core.statistics.requests }
        #expect(answered < pipelined / 2, "the server stopped reading: \(answered) of \(pipelined + 1) requests answered")
        let sorted = latencies.sorted()
        let median = sorted[sorted.count / 2]
        print("slow reader: peak unsent \(peak) bytes, \(answered) requests answered; good client: \(latencies.count) pages, median \(median), max \(sorted.last!)")
        #expect(median < .milliseconds(500), "median reply latency \(median) during the attack")
        // The good client is still served after the slow one is gone.
        _ = try await good.call(Ping(clientTime: 0))
        #expect(try await server.connections.map(\.userID) == [outsider])
        await slow.close()
        try await good.close()
        try await server.stop()
    }

    /// Pushes keep coming to a session that is not read: the hard limit closes it at once.
    @Test func pushesToASessionThatIsNotReadStopAtTheHardLimit() async throws {
        try await withOwnLoop { loop in try await hardLimit(loop: loop) }
    }

    private func hardLimit(loop: any EventLoop) async throws {
        let limits = ConnectionLimits(outbound: OutboundLimits(highWaterMark: 64 << 10, lowWaterMark: 32 << 10), outboundStallTimeout: .seconds(600), outboundHardLimit: 512 << 10)
        let events = Mutex<[ServerEvent]>([])
        let world = MessengerWorld(seed: 7)
        let server = try await MessengerSocketServer.start(
            world: world, configuration: ServerConfiguration(connections: limits), eventLoop: loop, onEvent: { event in events.withLock { $0.append(event) } })
        let (chat, reader, writer, _) = try world.pairWithOutsider()
        let slow = try await NonReadingClient.connect(port: server.port, loop: loop)
        try await slow.send([try Frame.request(LoginRequest(token: world.user(reader)!.token, lastSync: 0), sequence: 1)])
        let deadline = ContinuousClock.now + .seconds(30)
        while try await server.connections.first?.userID != reader, ContinuousClock.now < deadline {
            await Task.yield()
        }
        // CJK that does not repeat: LZ4 cannot shrink it, so each push is about 4 kB on the wire.
        let text = String((0 ..< 1300).map { Character(UnicodeScalar(0x4E00 + ($0 * 7919) % 20_000)!) })
        var posted = 0
        while events.withLock({ $0.isEmpty }), ContinuousClock.now < deadline {
            try await server.post(text, in: chat.id, from: writer)
            posted += 1
        }
        let event = try #require(events.withLock { $0.first })
        #expect(event.reason == .outboundHardLimit && event.userID == reader)
        #expect(try await server.connections.isEmpty)
        print("hard limit: closed after \(posted) pushes of 4 kB")
        await slow.close()
        try await server.stop()
    }
}
