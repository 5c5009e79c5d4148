import LowbandClient
import LowbandDeterminism
import LowbandServer
import LowbandTransport
import LowbandWire
import Testing

/// Outbox flows against the real server in virtual time over the in-memory network.
@Suite struct VirtualOutboxTests {
    @Test func sentWhileOfflineIsDeliveredOnceInOrderAfterReconnecting() throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0].id
        world.network.refusesConnections = true
        let (engine, events) = try world.makeEngine()
        engine.start()
        for index in 0 ..< 5 { try engine.send(text: "offline \(index)", to: chat) }
        world.scheduler.advance(by: .seconds(5))
        #expect(world.sent(in: chat, by: 1).isEmpty)
        #expect(try engine.outbox.store.pendingTasks().count == 5, "stored while offline")
        world.network.refusesConnections = false
        #expect(world.run { events.sent.count == 5 })
        let onServer = world.sent(in: chat, by: 1)
        #expect(onServer.map(\.text) == (0 ..< 5).map { "offline \($0)" })
        #expect(Set(onServer.compactMap(\.clientID)).count == 5)
        #expect(try engine.outbox.store.pendingTasks().isEmpty)
        #expect(try engine.messages.allMessages(chatID: chat).suffix(5).map(\.text) == onServer.map(\.text), "the cache holds the server's copies")
    }

    @Test func aLinkCutMidSendStillDeliversEachMessageOnce() throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[1].id
        let (engine, events) = try world.makeEngine()
        engine.start()
        #expect(world.run { engine.connection.isLoggedIn })
        for index in 0 ..< 8 { try engine.send(text: "m\(index)", to: chat) }
        // Cut the link every time a send is on the wire and its reply is still on its way.
        var cuts = 0
        world.network.onDelivery = { delivery in
            if delivery.command == .sendMessage, delivery.direction == .upstream, cuts < 4 {
                cuts += 1
                world.scheduler.execute { world.network.cut() }
            }
        }
        #expect(world.run { events.sent.count == 8 })
        #expect(cuts == 4)
        #expect(world.sent(in: chat, by: 1).map(\.text) == (0 ..< 8).map { "m\($0)" }, "each once, in order")
        #expect(world.server.core.statistics.messagesCreated == 8)
        #expect(events.disconnects == 4)
    }

    @Test func anInterruptedUploadResumesFromTheAcknowledgedOffset() throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0].id
        let chunk = 16 * 1024
        let (engine, events) = try world.makeEngine(outbox: OutboxConfiguration(uploadChunkSize: chunk))
        engine.start()
        #expect(world.run { engine.connection.isLoggedIn })
        var generator = SeededGenerator(seed: 5)
        let bytes = (0 ..< 200_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        var piecesSent: [Int] = []
        world.network.onDelivery = { delivery in
            if delivery.command == .uploadChunk, delivery.direction == .upstream { piecesSent.append(delivery.payloadBytes) }
        }
        let task = try engine.send(text: "photo", to: chat, attachment: OutgoingAttachment(kind: .photo, data: bytes, width: 640, height: 480))
        // Cut once the server holds about half.
        var cutAt: Int64?
        #expect(world.run {
            events.outbox.contains { if case .uploadProgress(_, let offset, _) = $0 { offset >= 100_000 } else { false } }
        })
        cutAt = events.outbox.compactMap { if case .uploadProgress(_, let offset, _) = $0 { offset } else { nil } }.max()
        world.network.cut()
        #expect(world.run { events.sent.count == 1 })
        let uploadID = try #require(try engine.outbox.store.allTasks().first { $0.kind == .upload }?.uploadID)
        let stored = try #require(world.server.core.upload(uploadID, of: 1))
        #expect(stored.data == bytes, "the server holds the file exactly once")
        let message = try #require(events.sent.first)
        #expect(message.attachments.count == 1)
        #expect(message.attachments.first?.url == stored.url)
        #expect(message.attachments.first?.size == 200_000)
        // Pieces: ceil(200000 / 16384) = 13 stored, plus at most the one lost in the cut.
        #expect(piecesSent.count <= 14)
        let progress = events.outbox.compactMap { if case .uploadProgress(_, let offset, _) = $0 { offset } else { nil } }
        #expect(progress == progress.sorted(), "never went back")
        #expect(progress.contains(cutAt ?? -1))
        #expect(try engine.outbox.store.task(id: task.id)?.state == .done)
    }

    @Test func aSendToAChatOfOthersFailsForGoodAndIsNotRetried() throws {
        let world = try ClientTestWorld()
        let foreign = try #require(world.world.world.chats.first { !$0.memberIDs.contains(1) }).id
        let own = world.chats(of: 1)[0].id
        let (engine, events) = try world.makeEngine()
        engine.start()
        try engine.send(text: "not mine", to: foreign)
        try engine.send(text: "mine", to: own)
        #expect(world.run { events.failures.count == 1 && events.sent.count == 1 })
        #expect(events.failures.first?.serverReply?.code == .forbidden)
        #expect((world.server.core.messages(in: foreign) ?? []).allSatisfy { $0.senderID != 1 || $0.clientID == nil })
        world.scheduler.advance(by: .seconds(30))
        #expect(events.failures.count == 1, "not retried")
    }

    @Test func aRestartedEngineResumesItsStoredOutbox() throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0].id
        world.network.refusesConnections = true
        do {
            let (engine, _) = try world.makeEngine()
            engine.start()
            for index in 0 ..< 3 { try engine.send(text: "before restart \(index)", to: chat) }
            world.scheduler.advance(by: .seconds(1))
            engine.stop()
            world.scheduler.runUntilIdle()
        }
        world.network.refusesConnections = false
        let (engine, events) = try world.makeEngine()
        engine.start()
        #expect(world.run { events.sent.count == 3 })
        #expect(world.sent(in: chat, by: 1).map(\.text) == (0 ..< 3).map { "before restart \($0)" })
        // New messages get new ids: the id counter survived the restart.
        try engine.send(text: "after restart", to: chat)
        #expect(world.run { events.sent.count == 4 })
        #expect(Set(world.sent(in: chat, by: 1).compactMap(\.clientID)).count == 4)
    }

    @Test func anEngineThatDiesMidSendIsResumedFromItsDatabaseWithoutDuplicates() throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0].id
        var engine: ClientEngine?
        var events: EngineEvents?
        (engine, events) = try world.makeEngine()
        engine?.start()
        #expect(world.run { engine?.connection.isLoggedIn == true })
        for index in 0 ..< 6 { try engine?.send(text: "d\(index)", to: chat) }
        // The process dies the moment the server has stored the fourth message, before its
        // reply arrives: no stop, no goodbye, the link just goes.
        var delivered = 0
        world.network.onDelivery = { delivery in
            guard delivery.command == .sendMessage, delivery.direction == .upstream else { return }
            delivered += 1
            if delivered == 4 {
                world.scheduler.execute {
                    engine = nil
                    events = nil
                    world.network.cut()
                }
            }
        }
        #expect(world.run { engine == nil })
        world.network.onDelivery = nil
        #expect(world.sent(in: chat, by: 1).count == 4, "the server has the fourth, the dead client never learned it")
        let (restarted, restartedEvents) = try world.makeEngine()
        restarted.start()
        #expect(world.run { restartedEvents.sent.count == 3 }, "the fourth (a retry), the fifth and the sixth")
        #expect(world.sent(in: chat, by: 1).map(\.text) == (0 ..< 6).map { "d\($0)" })
        #expect(world.server.core.statistics.messagesCreated == 6)
        withExtendedLifetime(events) {}
    }
}
