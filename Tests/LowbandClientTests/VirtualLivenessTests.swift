import LowbandClient
import LowbandDeterminism
import LowbandFixtures
import LowbandServer
import LowbandShaper
import LowbandTransport
import LowbandWire
import Testing

/// How the engine judges a link on a bad network, against the real server in virtual time:
/// a link whose way up is stuck is left within the outbox's liveness bound even while pushes
/// keep arriving; a link that is slowly delivering a large reply is kept.
@Suite struct VirtualLivenessTests {
    /// The other member writes every `every`, so pushes keep arriving (and the heartbeat,
    /// which pings only a quiet link, never needs to).
    private func keepChatting(_ world: ClientTestWorld, in chatID: Int64, as userID: Int64, every: Duration, while going: @escaping () -> Bool) {
        guard going() else { return }
        _ = try? world.server.post("still here", in: chatID, from: userID)
        world.scheduler.schedule(after: every) { [weak world] in
            guard let world else { return }
            self.keepChatting(world, in: chatID, as: userID, every: every, while: going)
        }
    }

    /// The crowd run's 546 s message (edge, seed 1, client 3): its connection's way up sat in
    /// retransmission back-off for nine minutes while pushes kept arriving, so no ping was
    /// due, the send timed out and was retried into the same stuck link again and again.
    @Test func aLinkWhoseWayUpIsStuckIsLeftWithinTheLivenessBoundWhilePushesStillArrive() throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0]
        let other = try #require(chat.memberIDs.first { $0 != 1 })
        let connector = StallingConnector(inner: world.network.makeConnector(to: world.server))
        let (engine, events) = try world.makeEngine(connector: connector)
        engine.start()
        #expect(world.run { engine.connection.isLoggedIn })

        connector.stallNewestLinkUpstream()
        var chatting = true
        keepChatting(world, in: chat.id, as: other, every: .seconds(2)) { chatting }
        let storedAt = world.scheduler.now
        let task = try engine.send(text: "through a stuck link", to: chat.id)
        world.scheduler.advance(by: .seconds(5))
        let waiting = try engine.inspect().outbox
        #expect(waiting.map(\.id) == [task.id], "pending, as the inspection shows")
        #expect(waiting.first?.storedAt == storedAt)

        let delivered = world.run(until: { world.sent(in: chat.id, by: 1).contains { $0.text == "through a stuck link" } }, limit: .seconds(900))
        chatting = false
        #expect(delivered)
        let bound = engine.configuration.outboxLivenessBound
        #expect(bound == .seconds(90), "30 s unanswered timeout + 60 s retry back-off cap")
        #expect(world.scheduler.now - storedAt <= bound, "stored at \(storedAt), on the server at \(world.scheduler.now)")
        #expect(events.disconnects == 1, "the stuck link was closed once and the next one carried the message")
        #expect(connector.links.count == 2)
        #expect(events.arrived.count > 10, "pushes arrived all along")
        #expect(world.run { events.sent.count == 1 })
        #expect(try engine.inspect().outbox.isEmpty)
    }

    /// A profile whose downlink moves `bytesPerSecond` in `mtu`-byte pieces, with a fast uplink.
    private static func slowDownlink(bytesPerSecond: Int64, mtu: Int) -> NetworkProfile {
        NetworkProfile(
            name: "slow-downlink", mtu: mtu,
            downlink: LinkProfile(rate: .bitsPerSecond(bytesPerSecond * 8), delay: .milliseconds(100), queueBytes: 1_000_000),
            uplink: LinkProfile(rate: .bitsPerSecond(1_000_000), delay: .milliseconds(100)))
    }

    private static func wireBytes<M: WireMessage>(of message: M) throws -> Int {
        try FrameEncoder().bytes(of: Frame.response(message, sequence: 1)).readableBytes
    }

    /// Also through a link that wraps the network's (as the scenarios' links do): it passes
    /// the byte progress on without knowing about it.
    @Test(arguments: [false, true])
    func aLoginReplyStillArrivingIsWaitedForPastTheLoginTimeout(throughAWrappingLink: Bool) throws {
        let shape = MessengerWorld.Shape(users: 40, chatsPerUser: 80, messagesPerChat: 2)
        let reply = MessengerServer(world: MessengerWorld(seed: 7, shape: shape), scheduler: VirtualScheduler()).core
            .changes(for: 1, since: 0, serverTime: 1)
        let size = try Self.wireBytes(of: reply)
        // The full sync takes about 28 s to come down: almost three login timeouts, with a piece
        // arriving every second or so (28 s, not 30: wire format v2 made the reply 14,500 bytes).
        let rate = Int64(size / 28)
        #expect(rate >= 500, "pieces of 500 bytes arrive at least once a second (the reply is \(size) bytes)")
        let world = try ClientTestWorld(shape: shape, profile: Self.slowDownlink(bytesPerSecond: rate, mtu: 500))
        let wrapping = throughAWrappingLink ? StallingConnector(inner: world.network.makeConnector(to: world.server)) : nil
        let (engine, events) = try world.makeEngine(connector: wrapping)
        engine.start()
        #expect(world.run(until: { engine.connection.isLoggedIn }, limit: .seconds(200)))
        #expect(wrapping.map { $0.links.count == 1 } ?? true)
        #expect(world.scheduler.now > ClientTestWorld.connection.loginTimeout * 2, "the reply took longer than the login timeout")
        #expect(world.network.connections.count == 1, "one link: the login was not given up while its reply arrived")
        #expect(events.syncs.count == 1)
        #expect(engine.connection.statistics.loginReplyPayloadBytes.count == 1)
    }

    /// The server closes a connection with no frame either way for 10 minutes: an engine with
    /// the default heartbeat (270 s) sitting idle, or only hearing pushes, is never closed by it.
    @Test func anIdleEngineKeepsItsConnectionPastTheServersIdleTimeout() throws {
        let world = try ClientTestWorld()
        var closes: [ServerEvent] = []
        world.server.onEvent = { closes.append($0) }
        let (engine, _) = try world.makeEngine(connection: ConnectionConfiguration())
        engine.start()
        #expect(world.run(until: { engine.connection.isLoggedIn }))
        world.run(until: { false }, limit: .seconds(900))
        let chat = try #require(world.chats(of: 1).first)
        let writer = try #require(chat.memberIDs.first { $0 != 1 })
        for index in 0 ..< 40 {
            try world.server.post("news \(index)", in: chat.id, from: writer)
            world.run(until: { false }, limit: .seconds(19))
        }
        #expect(closes.isEmpty, "\(closes)")
        #expect(engine.connection.statistics.logins == 1 && engine.connection.statistics.disconnects == 0)
        #expect(engine.connection.statistics.pings >= 3, "idle for 900 s, the engine pings every 270 s")
    }

    @Test func aLargePageStillArrivingDoesNotMakeTheHeartbeatGiveUp() throws {
        let shape = MessengerWorld.Shape(users: 6, chatsPerUser: 2, messagesPerChat: 400)
        let probe = try ClientTestWorld(shape: shape)
        let chat = probe.chats(of: 1)[0]
        let page = HistoryReply(chatID: chat.id, messages: Array(chat.messages.suffix(200)), reachedEnd: false)
        let size = try Self.wireBytes(of: page)
        // The page takes about 40 s to come down, longer than a heartbeat interval and its
        // timeout together (10 s + 5 s); a 500-byte piece arrives every second or two.
        let rate = Int64(size / 40)
        #expect(rate >= 300, "the page is \(size) bytes")
        let world = try ClientTestWorld(shape: shape, profile: Self.slowDownlink(bytesPerSecond: rate, mtu: 500))
        let connection = ConnectionConfiguration(
            requestTimeout: .seconds(120), loginTimeout: .seconds(60), heartbeatInterval: .seconds(10), heartbeatTimeout: .seconds(5),
            unansweredTimeout: .seconds(120), backoff: Backoff(initialDelay: .milliseconds(200), maximumDelay: .seconds(2)))
        let (engine, events) = try world.makeEngine(connection: connection, screen: ScreenConfiguration(pageSize: 200))
        engine.start()
        #expect(world.run(until: { engine.connection.isLoggedIn }, limit: .seconds(100)))
        let screen = engine.openChat(chat.id)
        let openedAt = world.scheduler.now
        screen.open()
        #expect(world.run(until: { screen.rows.count == 200 }, limit: .seconds(300)))
        #expect(world.scheduler.now - openedAt > .seconds(30), "the page took its time")
        #expect(events.disconnects == 0, "bytes kept arriving: the link was never judged dead")
        #expect(world.network.connections.count == 1)
        #expect(engine.connection.statistics.pings == 0, "the link was never quiet for a heartbeat interval")
    }
}
