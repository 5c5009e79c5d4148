import LowbandClient
import LowbandFixtures
import LowbandServer
import LowbandTransport
import LowbandWire
import Testing

/// The headless chat screen against the real server in virtual time.
@Suite struct VirtualScreenTests {
    private static let longChats = MessengerWorld.Shape(users: 6, chatsPerUser: 2, messagesPerChat: 400)

    private func readToTheTop(latency: Duration, rowsPerTick: Int) throws -> (screen: ChatScreenModel, chat: MessengerWorld.ChatHistory, world: ClientTestWorld) {
        let world = try ClientTestWorld(latency: latency, shape: Self.longChats)
        let chat = world.chats(of: 1)[0]
        let (engine, _) = try world.makeEngine(screen: ScreenConfiguration(pageSize: 40, viewportRows: 12, prefetchDistance: 30))
        engine.start()
        #expect(world.run { engine.connection.isLoggedIn })
        let screen = engine.openChat(chat.id)
        screen.open()
        #expect(world.run { screen.rows.count >= 40 && !screen.queue.isBusy })
        let reader = ScrollingReader(screen: screen, scheduler: world.scheduler, rowsPerTick: rowsPerTick, tick: .milliseconds(50))
        reader.start()
        #expect(world.run(until: { reader.isFinished }, limit: .seconds(600)))
        withExtendedLifetime(engine) {}
        return (screen, chat, world)
    }

    @Test func aReaderScrollingToTheTopSeesTheWholeHistoryInOrder() throws {
        let (screen, chat, _) = try readToTheTop(latency: .milliseconds(60), rowsPerTick: 2)
        #expect(screen.reachesStart)
        #expect(screen.rows.map(\.message) == chat.messages, "every message once, oldest first")
        #expect(screen.scrollStalls == 0, "prefetching keeps ahead of a reader on a fast link")
        #expect(screen.pagesRequested == 10, "400 messages in pages of 40, each asked for once")
        #expect(screen.queue.metrics.droppedFrames == 0)
    }

    @Test func aSlowLinkMakesTheReaderWaitAtTheTop() throws {
        let (screen, chat, _) = try readToTheTop(latency: .seconds(2), rowsPerTick: 6)
        #expect(screen.rows.map(\.message) == chat.messages)
        #expect(screen.scrollStalls > 0)
        #expect(screen.scrollStalls < screen.pagesRequested)
        #expect(screen.pagesRequested == 10)
    }

    @Test func aPushedMessageBecomesVisibleAtTheBottomWithItsTimes() throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0]
        let other = chat.memberIDs.first { $0 != 1 }!
        let (engine, _) = try world.makeEngine()
        engine.start()
        #expect(world.run { engine.connection.isLoggedIn })
        let screen = engine.openChat(chat.id)
        screen.open()
        #expect(world.run { !screen.rows.isEmpty && !screen.queue.isBusy && !screen.isLoading })
        let postedAt = world.scheduler.now
        let message = try world.server.post("hello there", in: chat.id, from: other)
        #expect(world.run { screen.rows.last?.message == message })
        let event = try #require(screen.visibilityEvents.last)
        #expect(event.row == .message(message.id))
        #expect(event.arrivedAt == postedAt + .milliseconds(60), "one network latency")
        #expect(event.visibleAt == event.arrivedAt, "nothing else was on the screen queue")
    }

    @Test func aSentMessageShowsAsAnEchoThenAsDelivered() throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0]
        let (engine, events) = try world.makeEngine()
        engine.start()
        #expect(world.run { engine.connection.isLoggedIn })
        let screen = engine.openChat(chat.id)
        screen.open()
        #expect(world.run { !screen.rows.isEmpty && !screen.isLoading && !screen.queue.isBusy })
        let task = try engine.send(text: "on my way", to: chat.id)
        #expect(world.run { screen.rows.last?.status == .sending })
        #expect(screen.rows.last?.id == .outgoing(task.clientID!))
        #expect(world.run { events.sent.count == 1 && !screen.queue.isBusy })
        #expect(screen.rows.last?.status == .delivered)
        #expect(screen.rows.last?.message == events.sent[0])
        #expect(screen.rows.count { $0.message.text == "on my way" } == 1)
    }
}
