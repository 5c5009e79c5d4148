import LowbandWire
import Testing

@testable import LowbandClient

/// The engine's events reach any number of consumers: observers at once on its scheduler, and
/// streams, each with its own bounded buffer.
@Suite struct EngineEventStreamTests {
    /// The client ids of the `.stored` outbox events among `events`, in order.
    private static func stored(_ events: [ClientEvent]) -> [UInt64?] {
        events.compactMap { if case .outbox(.stored(let task)) = $0 { task.clientID } else { nil } }
    }

    /// Reads `count` events that are already buffered (the engine emitted them before).
    private static func take(_ count: Int, from iterator: inout AsyncStream<ClientEvent>.Iterator) async -> [ClientEvent] {
        var events: [ClientEvent] = []
        for _ in 0 ..< count {
            guard let event = await iterator.next() else { break }
            events.append(event)
        }
        return events
    }

    @Test func twoStreamsAndTwoObserversEachSeeEveryEventInOrder() async throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0].id
        let (engine, first) = try world.makeEngine()
        let second = EngineEvents()
        engine.addObserver(second)
        engine.addObserver(second)  // once is enough
        var one = engine.events().makeAsyncIterator()
        var two = engine.events().makeAsyncIterator()
        var tasks: [OutboxTask] = []
        for index in 0 ..< 5 { tasks.append(try engine.send(text: "m\(index)", to: chat)) }
        let expected = tasks.map(\.clientID)
        #expect(Self.stored(first.events) == expected)
        #expect(Self.stored(second.events) == expected, "added twice, called once")
        #expect(Self.stored(await Self.take(5, from: &one)) == expected)
        #expect(Self.stored(await Self.take(5, from: &two)) == expected)
        #expect(engine.eventStreamCount == 2)
        #expect(try engine.pendingTasks().map(\.clientID) == expected, "the façade's pending tasks, oldest first")
        engine.removeObserver(second)
        try engine.send(text: "after", to: chat)
        #expect(second.events.count == 5, "a removed observer hears nothing more")
        #expect(first.events.count == 6)
    }

    @Test func aCancelledStreamIsRemovedAndTheOthersCarryOn() async throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0].id
        let (engine, _) = try world.makeEngine()
        let abandoned = engine.events()
        var kept = engine.events().makeAsyncIterator()
        let consumer = Task {
            var seen = 0
            for await _ in abandoned { seen += 1 }
            return seen
        }
        consumer.cancel()
        _ = await consumer.value
        #expect(engine.eventStreamCount == 1, "the cancelled stream left the engine")
        let task = try engine.send(text: "still heard", to: chat)
        #expect(Self.stored(await Self.take(1, from: &kept)) == [task.clientID])
    }

    @Test func aSlowStreamKeepsTheNewestEventsUpToItsBound() async throws {
        let world = try ClientTestWorld()
        let chat = world.chats(of: 1)[0].id
        let (engine, _) = try world.makeEngine()
        var slow = engine.events(bufferingNewest: 3).makeAsyncIterator()
        var roomy = engine.events().makeAsyncIterator()
        var tasks: [OutboxTask] = []
        for index in 0 ..< 7 { tasks.append(try engine.send(text: "m\(index)", to: chat)) }
        // Nobody read while seven were emitted: the slow stream holds the last three.
        #expect(Self.stored(await Self.take(3, from: &slow)) == tasks.suffix(3).map(\.clientID))
        #expect(Self.stored(await Self.take(7, from: &roomy)) == tasks.map(\.clientID), "the default bound holds them all")
        // Read up, it gets the next one, not an older one.
        let next = try engine.send(text: "next", to: chat)
        #expect(Self.stored(await Self.take(1, from: &slow)) == [next.clientID])
    }

    @Test func theStreamsEndWhenTheEngineIsReleased() async throws {
        let world = try ClientTestWorld()
        var stream: AsyncStream<ClientEvent>.Iterator
        weak var released: ClientEngine?
        do {
            let (engine, _) = try world.makeEngine(database: "released.sqlite")
            stream = engine.events().makeAsyncIterator()
            try engine.send(text: "last words", to: world.chats(of: 1)[0].id)
            released = engine
        }
        #expect(released == nil, "nothing else holds the engine")
        guard released == nil else { return }
        #expect(Self.stored(await Self.take(1, from: &stream)).count == 1, "what was emitted is still read")
        #expect(await stream.next() == nil, "then the stream ends")
    }
}
