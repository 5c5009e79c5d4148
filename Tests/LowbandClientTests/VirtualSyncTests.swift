import LowbandClient
import LowbandServer
import LowbandTransport
import LowbandWire
import Testing

/// Login, delta sync, reconnects and access control against the real server in virtual time.
@Suite struct VirtualSyncTests {
    @Test func aDeltaSyncCarriesOnlyChangesAndFarFewerBytes() throws {
        let world = try ClientTestWorld()
        let chats = world.chats(of: 1)
        let (engine, events) = try world.makeEngine()
        engine.start()
        #expect(world.run { events.syncs.count == 1 })
        let full = try #require(events.syncs.first)
        #expect(full.wasFullSync)
        #expect(full.chatsChanged == chats.count)
        #expect(try engine.sync.chats().count == chats.count)
        #expect(try engine.sync.contacts().count == full.contactsChanged)
        #expect(try engine.sync.settings() != nil)

        // Offline for a while; meanwhile two chats get a message and one contact changes.
        world.network.refusesConnections = true
        world.network.cut()
        world.scheduler.advance(by: .seconds(1))
        let other0 = chats[0].memberIDs.first { $0 != 1 }!
        let other1 = chats[1].memberIDs.first { $0 != 1 }!
        let posted = [
            try world.server.post("while you were away", in: chats[0].id, from: other0),
            try world.server.post("and this", in: chats[1].id, from: other1),
        ]
        let contactID = try #require(try engine.sync.contacts().first?.id)
        try world.server.updateStatus(of: contactID, to: "on holiday")
        world.network.refusesConnections = false
        #expect(world.run { events.syncs.count == 2 })
        let delta = events.syncs[1]
        #expect(!delta.wasFullSync)
        #expect(delta.chatsChanged == 2)
        #expect(delta.contactsChanged == 1)
        #expect(!delta.settingsChanged)
        let bytes = engine.connection.statistics.loginReplyPayloadBytes
        #expect(bytes.count == 2)
        #expect(bytes[1] * 10 < bytes[0], "delta \(bytes[1]) bytes vs full \(bytes[0])")
        let cached = try engine.sync.chats()
        for message in posted {
            #expect(cached.first { $0.id == message.chatID }?.lastMessage == message)
        }
        #expect(try engine.sync.contacts().first { $0.id == contactID }?.status == "on holiday")
        // A reconnect with nothing changed costs almost nothing.
        world.network.cut()
        #expect(world.run { events.syncs.count == 3 })
        #expect(events.syncs[2].chatsChanged == 0 && events.syncs[2].contactsChanged == 0)
        #expect(engine.connection.statistics.loginReplyPayloadBytes[2] < 64)
    }

    @Test func theServerGoingDownUnderAConnectedClientIsRiddenOut() throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0]
        let (engine, events) = try world.makeEngine()
        engine.start()
        #expect(world.run { engine.connection.isLoggedIn })
        // The server goes down: connections closed, new ones refused for 20 s.
        world.network.refusesConnections = true
        world.server.disconnectAll()
        try engine.send(text: "sent during the outage", to: chat.id)
        world.scheduler.advance(by: .seconds(20))
        #expect(!engine.connection.isLoggedIn)
        let other = chat.memberIDs.first { $0 != 1 }!
        let missed = try world.server.post("posted during the outage", in: chat.id, from: other)
        world.network.refusesConnections = false
        #expect(world.run { events.syncs.count == 2 && events.sent.count == 1 })
        #expect(try engine.sync.chats().first { $0.id == chat.id }?.lastMessage?.id ?? 0 >= missed.id)
        #expect(world.sent(in: chat.id, by: 1).map(\.text) == ["sent during the outage"])
        // Pushes flow again on the new session.
        let live = try world.server.post("after the outage", in: chat.id, from: other)
        #expect(world.run { events.arrived.contains(live) })
    }

    @Test func aClientCannotReadAnotherUsersChat() throws {
        let world = try ClientTestWorld()
        let foreign = try #require(world.world.world.chats.first { !$0.memberIDs.contains(1) })
        let (engine, _) = try world.makeEngine()
        engine.start()
        #expect(world.run { engine.connection.isLoggedIn })
        #expect(try engine.sync.chats().allSatisfy { $0.memberIDs.contains(1) }, "the login lists only the user's chats")
        var pages: [HistoryPage] = []
        engine.history.loadPage(chatID: foreign.id, olderThan: nil, count: 20) { pages.append($0) }
        #expect(world.run { pages.last?.isFinal == true })
        #expect(pages.flatMap(\.messages).isEmpty)
        #expect(pages.last?.error?.serverReply?.code == .forbidden)
        #expect(try engine.messages.allMessages(chatID: foreign.id).isEmpty)
        // A push for a chat of others never arrives either.
        _ = try world.server.post("secret", in: foreign.id, from: foreign.memberIDs[0])
        world.scheduler.advance(by: .seconds(1))
        #expect(try engine.messages.allMessages(chatID: foreign.id).isEmpty)
    }

    @Test func aRunReplaysExactlyFromItsSeeds() throws {
        func run() throws -> [String] {
            let world = try ClientTestWorld()
            let chat = world.chats(of: 1)[0].id
            let (engine, events) = try world.makeEngine()
            engine.start()
            _ = world.run { engine.connection.isLoggedIn }
            for index in 0 ..< 3 { try engine.send(text: "r\(index)", to: chat) }
            world.network.cut()
            _ = world.run { events.sent.count == 3 }
            return events.sent.map { "\($0.id) \($0.clientID ?? 0) \($0.sentAt)" } + ["now \(world.scheduler.now)"]
                + engine.log.entries.map(\.description)
        }
        #expect(try run() == run())
    }
}
