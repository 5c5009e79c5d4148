import LowbandClient
import LowbandWire
import Testing

/// A pushed message reaches an open, idle chat screen before the cache's commit, and is in the
/// cache before the turn ends (docs/CLIENT.md, "A live message is shown, then stored").
@Suite struct LivePushOrderTests {
    @Test func aPushIsShownInTheTurnItArrivesThenStoredBeforeAnythingElse() throws {
        let world = try ClientTestWorld()
        let (engine, events, screen, chat) = try world.engineWithOpenChat()
        let other = try #require(chat.memberIDs.first { $0 != 1 })

        // What the cache and the engine's events held when the row entered the list.
        var atVisibility: (stored: Message?, arrivedEvents: Int)?
        screen.onVisible = { event in
            guard case .message(let id) = event.row else { return }
            atVisibility = ((try? engine.messages.message(chatID: chat.id, id: id)) ?? nil, events.arrived.count)
        }
        let arrivedBefore = events.arrived.count
        let message = try world.server.post("shown first", in: chat.id, from: other)
        #expect(world.run { events.arrived.count == arrivedBefore + 1 })

        let seen = try #require(atVisibility, "the row became visible")
        #expect(seen.stored == nil, "the row did not wait for the cache's commit")
        #expect(seen.arrivedEvents == arrivedBefore, "messageArrived is emitted once it is stored")
        #expect(try engine.messages.message(chatID: chat.id, id: message.id) == message, "stored in the same turn")
        let event = try #require(screen.visibilityEvents.last)
        #expect(event.row == .message(message.id))
        #expect(event.visibleAt == event.arrivedAt, "placed in the turn the push arrived")
    }

    @Test func aPushWaitsForAnAnimationButIsStoredAtOnce() throws {
        let world = try ClientTestWorld()
        let (engine, events, screen, chat) = try world.engineWithOpenChat()
        let other = try #require(chat.memberIDs.first { $0 != 1 })

        // Two pushes back to back: the second waits for the first one's append animation.
        let first = try world.server.post("one", in: chat.id, from: other)
        let second = try world.server.post("two", in: chat.id, from: other)
        #expect(world.run { events.arrived.count >= 2 })
        #expect(try engine.messages.message(chatID: chat.id, id: second.id) == second, "stored when it arrived")
        #expect(screen.rows.last?.id == .message(first.id), "still behind the first one's animation")
        #expect(world.run { screen.rows.last?.id == .message(second.id) && !screen.queue.isBusy })
    }
}
