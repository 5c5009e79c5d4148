import LowbandClient
import LowbandDeterminism
import LowbandServer
import LowbandTransport
import LowbandWire
import Testing

/// An open chat screen catches up by itself after a reconnect, against the real server in
/// virtual time.
@Suite struct VirtualCatchUpTests {
    @Test func anOpenScreenShowsWhatWasWrittenWhileTheLinkWasDown() throws {
        let world = try ClientTestWorld()
        let (engine, events, screen, chat) = try world.engineWithOpenChat()
        let other = try #require(chat.memberIDs.first { $0 != 1 })

        world.network.refusesConnections = true
        world.network.cut()
        #expect(world.run { !engine.connection.isLoggedIn })
        // More than two pages written while the link is down: no session hears them.
        var written: [Message] = []
        for index in 0 ..< 25 {
            written.append(try world.server.post("while away \(index)", in: chat.id, from: other))
        }
        world.scheduler.advance(by: .seconds(3))
        #expect(!screen.rows.contains { $0.message.text.hasPrefix("while away") })

        world.network.refusesConnections = false
        #expect(world.run { screen.rows.count == 35 && !screen.isCatchingUp && !screen.queue.isBusy })
        #expect(Array(screen.rows.suffix(25).map(\.message)) == written, "all of them, in order, at the bottom")
        #expect(screen.rows.map(\.message) == Array(chat.messages.suffix(10)) + written, "nothing twice, nothing missing")
        #expect(events.syncs.count == 2, "one reconnect, no reopening of the screen")
        #expect(screen.newerPagesRequested == 3, "three pages: 10, 10, 5")
        #expect(engine.history.statistics.newerPagesFromServer == 3)
        let shown = Set(screen.visibilityEvents.compactMap { if case .message(let id) = $0.row { id } else { nil } })
        #expect(written.allSatisfy { shown.contains($0.id) }, "each became visible")
        // The pages joined the cache's chunks: what the screen shows is continuous there too.
        #expect(try engine.messages.chunks(chatID: chat.id).chunk(containing: written[0].id)?.newestID == written.last?.id)
    }

    @Test func aScreenWithNothingNewAfterAReconnectAsksTheServerNothing() throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0]
        let (engine, _) = try world.makeEngine(screen: ScreenConfiguration(pageSize: 10))
        engine.start()
        #expect(world.run { engine.connection.isLoggedIn })
        let screen = engine.openChat(chat.id)
        screen.open()
        #expect(world.run { screen.rows.count == 10 && !screen.isLoading && !screen.queue.isBusy })
        world.network.cut()
        #expect(world.run { !engine.connection.isLoggedIn })
        #expect(world.run { engine.connection.isLoggedIn && !screen.isCatchingUp })
        #expect(screen.newerPagesRequested == 1)
        #expect(engine.history.statistics.newerPagesFromCache == 1)
        #expect(engine.history.statistics.newerPagesFromServer == 0)
        #expect(screen.rows.map(\.message) == Array(chat.messages.suffix(10)))
    }
}
