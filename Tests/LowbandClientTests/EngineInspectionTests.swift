import LowbandClient
import LowbandDeterminism
import LowbandServer
import LowbandTransport
import LowbandWire
import Testing

/// The read-only inspection an invariant checker takes at the end of a run.
@Suite struct EngineInspectionTests {
    @Test func anInspectionShowsTheCacheTheOutboxAndTheBoundedQueuesInAFixedOrder() throws {
        let world = try ClientTestWorld()
        let (engine, events, screen, chat) = try world.engineWithOpenChat(1)

        world.network.refusesConnections = true
        world.network.cut()
        #expect(world.run { !engine.connection.isLoggedIn })
        let storedAt = world.scheduler.now
        let task = try engine.send(text: "later", to: chat.id)
        world.scheduler.advance(by: .seconds(1))

        let offline = try engine.inspect()
        #expect(offline == (try engine.inspect()), "reading changes nothing")
        #expect(offline.chats.map(\.chatID) == offline.chats.map(\.chatID).sorted())
        #expect(offline.chats.filter(\.isListed).count == (try engine.sync.chats()).count)
        for state in offline.chats {
            #expect(state.messages.map(\.id) == state.messages.map(\.id).sorted(), "chat \(state.chatID) in order")
            #expect(state.messages.allSatisfy { $0.chatID == state.chatID })
            if let last = state.lastMessage { #expect(state.messages.last == last, "the list's last message is the newest cached") }
            #expect(state.unreadCount >= 0)
        }
        let opened = try #require(offline.chats.first { $0.chatID == chat.id })
        #expect(Array(opened.messages.suffix(10)) == Array(chat.messages.suffix(10)))
        #expect(offline.outbox.map(\.id) == [task.id])
        #expect(offline.outbox.first?.storedAt == storedAt)
        #expect(offline.outbox.first?.state == .pending)
        #expect(offline.pendingRequests == 0, "nothing owed without a link")
        #expect(offline.maximumPendingRequests == ClientTestWorld.connection.maximumPendingRequests)
        #expect(offline.screens.map(\.chatID) == [chat.id])
        #expect(offline.screens.first?.rows.last?.status == .sending, "the echo of the stored send")
        #expect(offline.screens.first?.queueBacklog == 0)

        world.network.refusesConnections = false
        #expect(world.run { events.sent.count == 1 && !screen.queue.isBusy && !screen.isCatchingUp })
        let online = try engine.inspect()
        #expect(online.outbox.isEmpty)
        #expect(online.chats.first { $0.chatID == chat.id }?.messages.last == events.sent.first)
        #expect(online.screens.first?.rows.last?.message == events.sent.first)
        #expect(online.pendingRequests <= online.maximumPendingRequests)
    }
}
