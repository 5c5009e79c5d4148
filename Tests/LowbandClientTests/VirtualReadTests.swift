import LowbandClient
import LowbandDeterminism
import LowbandServer
import LowbandTransport
import LowbandWire
import Testing

/// Read positions and receipts against the real server in virtual time.
@Suite struct VirtualReadTests {
    private func unread(_ engine: ClientEngine, _ chatID: Int64) throws -> Int? {
        try engine.sync.chats().first { $0.id == chatID }?.unreadCount
    }

    @Test func aReadPositionSetOfflineReachesTheServerAfterTheAppWasKilledAndNeverMovesBack() throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0]
        let other = try #require(chat.memberIDs.first { $0 != 1 })
        let message: Message
        do {
            let (engine, events) = try world.makeEngine()
            engine.start()
            #expect(world.run { engine.connection.isLoggedIn })
            let before = try #require(try unread(engine, chat.id))
            message = try world.server.post("read me", in: chat.id, from: other)
            #expect(world.run { events.arrived.contains(message) })
            #expect(try unread(engine, chat.id) == before + 1)

            world.network.refusesConnections = true
            world.network.cut()
            #expect(world.run { !engine.connection.isLoggedIn })
            #expect(try engine.markRead(chatID: chat.id, upTo: message.id))
            #expect(try unread(engine, chat.id) == 0, "read up to the newest message: nothing unread, at once")
            #expect(try engine.inspect().owedReadPositions == [ReadStore.Owed(chatID: chat.id, upTo: message.id)])
            #expect(throws: ClientError.self) { try engine.markRead(chatID: chat.id, upTo: 999_999_999) }
            // The app is killed here: no stop, the engine just goes.
        }
        #expect(try #require(world.server.core.readPosition(of: 1, in: chat.id)) < message.id)

        world.network.refusesConnections = false
        let (restarted, _) = try world.makeEngine()
        restarted.start()
        #expect(world.run { world.server.core.readPosition(of: 1, in: chat.id) == message.id })
        #expect(world.run { (try? restarted.inspect().owedReadPositions.isEmpty) == true })
        #expect(try restarted.reads.store.state(chatID: chat.id)?.acknowledgedUpTo == message.id)
        #expect(try unread(restarted, chat.id) == 0)

        // An older position changes nothing, here or on the server.
        let older = try #require(chat.messages.last).id
        #expect(try restarted.markRead(chatID: chat.id, upTo: older) == false)
        world.scheduler.advance(by: .seconds(5))
        #expect(world.server.core.readPosition(of: 1, in: chat.id) == message.id)
        #expect(try restarted.reads.store.state(chatID: chat.id)?.readUpTo == message.id)
        // Marking the same position again is harmless.
        #expect(try restarted.markRead(chatID: chat.id, upTo: message.id) == false)
    }

    @Test func receiptsMoveMyOtherDeviceAndAreKeptForOtherMembers() throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0]
        let friendID = try #require(chat.memberIDs.first { $0 != 1 })
        let (phone, phoneEvents) = try world.makeEngine(user: 1, database: "phone.sqlite", seed: 11)
        let (tablet, tabletEvents) = try world.makeEngine(user: 1, database: "tablet.sqlite", seed: 12)
        let (friend, friendEvents) = try world.makeEngine(user: friendID, database: "friend.sqlite", seed: 13)
        for engine in [phone, tablet, friend] { engine.start() }
        #expect(world.run { [phone, tablet, friend].allSatisfy(\.connection.isLoggedIn) })
        let tabletBefore = try #require(try unread(tablet, chat.id))

        for text in ["one", "two", "three"] { try friend.send(text: text, to: chat.id) }
        #expect(world.run { friendEvents.sent.count == 3 && phoneEvents.arrived.count == 3 && tabletEvents.arrived.count == 3 })
        #expect(try unread(tablet, chat.id) == tabletBefore + 3, "each live message from someone else is one more unread")
        let (one, two) = (friendEvents.sent[0], friendEvents.sent[1])

        // Read on the phone up to "one": the tablet hears it from the server, the friend too.
        #expect(try phone.markRead(chatID: chat.id, upTo: one.id))
        #expect(try unread(phone, chat.id) == 2, "two and three are still unread")
        #expect(world.run {
            (try? tablet.reads.store.state(chatID: chat.id)?.readUpTo) == one.id
                && (try? friend.reads.store.state(chatID: chat.id)?.receipts.first { $0.readerID == 1 }?.messageID) == one.id
        })
        #expect(try unread(tablet, chat.id) == 2, "the tablet shows what the phone left unread")
        #expect(try tablet.reads.store.state(chatID: chat.id)?.acknowledgedUpTo == one.id, "the server holds it: nothing to send from the tablet")
        #expect(try tablet.inspect().owedReadPositions.isEmpty)

        // The tablet reads further; the phone follows; a stale receipt moves nothing back.
        #expect(try tablet.markRead(chatID: chat.id, upTo: two.id))
        #expect(world.run { (try? phone.reads.store.state(chatID: chat.id)?.readUpTo) == two.id })
        #expect(try unread(phone, chat.id) == 1)
        #expect(world.server.core.readPosition(of: 1, in: chat.id) == two.id)
        #expect(try friend.reads.store.state(chatID: chat.id)?.receipts.first { $0.readerID == 1 }?.messageID == two.id)
        #expect(try phone.markRead(chatID: chat.id, upTo: one.id) == false)
        world.scheduler.advance(by: .seconds(2))
        #expect(try tablet.reads.store.state(chatID: chat.id)?.readUpTo == two.id)

        // The friend's own messages are not unread for the friend; the phone's reply reads all.
        #expect(try unread(friend, chat.id) == 0)
        try phone.send(text: "got them", to: chat.id)
        #expect(world.run { phoneEvents.sent.count == 1 && friendEvents.arrived.count == 1 && tabletEvents.arrived.count == 4 })
        #expect(try unread(phone, chat.id) == 0, "the server counts what the user sent as read")
        #expect(try unread(tablet, chat.id) == 0)
        #expect(try unread(friend, chat.id) == 1)
    }
}
