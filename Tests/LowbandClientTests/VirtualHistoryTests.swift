import LowbandClient
import LowbandServer
import LowbandTransport
import LowbandWire
import Testing

/// Cache-first history and the chunks, against the real server in virtual time.
@Suite struct VirtualHistoryTests {
    private func load(_ engine: ClientEngine, _ world: ClientTestWorld, chat: Int64, olderThan anchor: Int64?, count: Int) -> [HistoryPage] {
        var pages: [HistoryPage] = []
        engine.history.loadPage(chatID: chat, olderThan: anchor, count: count) { pages.append($0) }
        _ = world.run { pages.last?.isFinal == true }
        return pages
    }

    @Test func pagesComeFromTheServerOnceThenFromTheCache() throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0]
        let (engine, _) = try world.makeEngine()
        engine.start()
        #expect(world.run { engine.connection.isLoggedIn })
        // After login the cache holds only the last message: the rest of the page is asked for.
        let first = load(engine, world, chat: chat.id, olderThan: nil, count: 10)
        #expect(first.map(\.source) == [.cache, .server])
        #expect(first[0].messages == [chat.messages.last!])
        #expect(first[1].messages == Array(chat.messages.dropLast().suffix(9)))
        let anchor = first[1].messages.first!.id
        let second = load(engine, world, chat: chat.id, olderThan: anchor, count: 10)
        #expect(second.map(\.source) == [.server])
        #expect(try engine.messages.chunks(chatID: chat.id).chunks.count == 1, "the pages joined into one chunk")
        // Everything again, offline: the cache answers alone.
        world.network.refusesConnections = true
        world.network.cut()
        world.scheduler.advance(by: .seconds(1))
        let again = load(engine, world, chat: chat.id, olderThan: nil, count: 20)
        #expect(again.map(\.source) == [.cache])
        #expect(again[0].messages == Array(chat.messages.suffix(20)))
    }

    @Test func aLiveMessageExtendsTheChunkAndAnOutageLeavesAGap() throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0]
        let other = chat.memberIDs.first { $0 != 1 }!
        let (engine, events) = try world.makeEngine()
        engine.start()
        #expect(world.run { engine.connection.isLoggedIn })
        _ = load(engine, world, chat: chat.id, olderThan: nil, count: 10)
        let live = try world.server.post("live", in: chat.id, from: other)
        #expect(world.run { events.arrived.contains(live) })
        #expect(try engine.messages.chunks(chatID: chat.id).chunks.count == 1, "a push continues the newest chunk")
        // Offline while two more arrive: the login shows the newest, the one between stays unknown.
        world.network.refusesConnections = true
        world.network.cut()
        world.scheduler.advance(by: .seconds(1))
        let missed = try world.server.post("missed", in: chat.id, from: other)
        let newest = try world.server.post("newest", in: chat.id, from: other)
        world.network.refusesConnections = false
        #expect(world.run { events.syncs.count == 2 })
        let chunks = try engine.messages.chunks(chatID: chat.id).chunks
        #expect(chunks.count == 2, "the gap is not papered over: \(chunks)")
        #expect(chunks.last.map { $0.oldestID ... $0.newestID } == newest.id ... newest.id)
        // Reading from the top fills the gap from the server and the chunks merge.
        let top = load(engine, world, chat: chat.id, olderThan: nil, count: 5)
        #expect(top.map(\.source) == [.cache, .server])
        #expect(top.flatMap(\.messages).map(\.id).contains(missed.id))
        #expect(try engine.messages.chunks(chatID: chat.id).chunks.count == 1)
        #expect(engine.history.statistics.gapsClosed == 1)
    }

    @Test func theServerWinsWhenItsPageContradictsTheCache() throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0]
        let neighbour = world.chats(of: 1)[1]
        let other = chat.memberIDs.first { $0 != 1 }!
        let otherNeighbour = neighbour.memberIDs.first { $0 != 1 }!
        // Interleave posts in two chats so ids within `chat` have a hole.
        let first = try world.server.post("one", in: chat.id, from: other)
        let between = try world.server.post("elsewhere", in: neighbour.id, from: otherNeighbour)
        let second = try world.server.post("two", in: chat.id, from: other)
        let newest = try world.server.post("three", in: chat.id, from: other)
        #expect(first.id < between.id && between.id < second.id)
        let (engine, _) = try world.makeEngine()
        engine.start()
        #expect(world.run { engine.connection.isLoggedIn })
        _ = load(engine, world, chat: chat.id, olderThan: nil, count: 10)
        // Tamper with the cache: edit one message, invent one the server never had.
        try engine.database.writer.write { db in
            try db.execute(sql: "UPDATE message SET text = 'stale' WHERE chatID = ? AND id = ?", arguments: [chat.id, second.id])
            try db.execute(
                sql: "INSERT INTO message (chatID, id, senderID, text, sentAt) VALUES (?, ?, 1, 'ghost', 0)",
                arguments: [chat.id, between.id])
        }
        // A server page over the same range replaces the one and deletes the other.
        let request = HistoryRequest(chatID: chat.id, anchor: newest.id, direction: .older, count: 9)
        var outcome: MessageStore.PageOutcome?
        engine.connection.send(request) { result in
            outcome = try? engine.messages.apply(page: result.get(), for: request)
        }
        #expect(world.run { outcome != nil })
        #expect(outcome?.reconciliation.replaced == 1)
        #expect(outcome?.reconciliation.deletions == [between.id])
        #expect(try engine.messages.message(chatID: chat.id, id: second.id) == second)
        #expect(try engine.messages.message(chatID: chat.id, id: between.id) == nil)
    }

    @Test func aRestartedEngineShowsTheCachedChatAtOnceWhileOffline() throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0]
        do {
            let (engine, _) = try world.makeEngine()
            engine.start()
            #expect(world.run { engine.connection.isLoggedIn })
            _ = load(engine, world, chat: chat.id, olderThan: nil, count: 20)
            engine.stop()
        }
        world.network.refusesConnections = true
        let (engine, _) = try world.makeEngine()
        engine.start()
        #expect(try engine.sync.chats().count == world.chats(of: 1).count, "the chat list is there before any network")
        let screen = engine.openChat(chat.id)
        screen.open()
        #expect(world.run { !screen.rows.isEmpty })
        #expect(screen.rows.map(\.message) == Array(chat.messages.suffix(20)))
        #expect(!engine.connection.isLoggedIn)
        #expect(engine.history.statistics.pagesFromBoth == 1, "20 cached of a 40-message page; the rest needs the server")
        // The network comes back: the screen asks again for what it could not get.
        world.network.refusesConnections = false
        #expect(world.run { screen.rows.count == 40 && !screen.queue.isBusy })
        #expect(screen.rows.map(\.message) == Array(chat.messages.suffix(40)))
    }
}
