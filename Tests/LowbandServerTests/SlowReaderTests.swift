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
@Suite struct SlowReaderTests {
    let loop = MultiThreadedEventLoopGroup.singleton.any()

    /// Login plus `count` pipelined history requests of 200 messages, from sequence `first`.
    static func attack(token: String, chatID: Int64, count: Int, first: UInt32 = 1) throws -> [Frame] {
        var frames = [try Frame.request(LoginRequest(token: token, lastSync: 0), sequence: first)]
        for index in 1 ... count {
            frames.append(try Frame.request(HistoryRequest(chatID: chatID, anchor: nil, direction: .older, count: 200), sequence: first + UInt32(index)))
        }
        return frames
    }

    @Test func aClientThatNeverReadsIsHeldUnderTheCapAndClosedWhileOthersAreServed() async throws {
        let high = 256 << 10
        let limits = ConnectionLimits(outbound: OutboundLimits(highWaterMark: high, lowWaterMark: high / 2), outboundStallTimeout: .seconds(2))
        let configuration = ServerConfiguration(seed: 7, world: .init(users: 20, chatsPerUser: 8, messagesPerChat: 400), connections: limits)
        let events = Mutex<[ServerEvent]>([])
        let server = try await MessengerSocketServer.start(configuration: configuration, onEvent: { event in events.withLock { $0.append(event) } })
        let (chat, attacker, _, outsider) = try server.world.pairWithOutsider()
        let goodChat = try #require(server.world.chats(of: outsider).first)

        let slow = try await NonReadingClient.connect(port: server.port, loop: loop)
        let frames = try Self.attack(token: server.world.user(attacker)!.token, chatID: chat.id, count: 20_000)
        try await slow.send(frames)

        let good = try await LoopClient.connect(port: server.port, loop: loop)
        _ = try await good.call(LoginRequest(token: server.world.user(outsider)!.token, lastSync: 0))

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
        #expect(answered < frames.count / 2, "the server stopped reading: \(answered) of \(frames.count) requests answered")
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
        let limits = ConnectionLimits(outbound: OutboundLimits(highWaterMark: 64 << 10, lowWaterMark: 32 << 10), outboundStallTimeout: .seconds(600), outboundHardLimit: 512 << 10)
        let events = Mutex<[ServerEvent]>([])
        let server = try await MessengerSocketServer.start(
            configuration: ServerConfiguration(seed: 7, connections: limits), onEvent: { event in events.withLock { $0.append(event) } })
        let (chat, reader, writer, _) = try server.world.pairWithOutsider()
        let slow = try await NonReadingClient.connect(port: server.port, loop: loop)
        try await slow.send([try Frame.request(LoginRequest(token: server.world.user(reader)!.token, lastSync: 0), sequence: 1)])
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
