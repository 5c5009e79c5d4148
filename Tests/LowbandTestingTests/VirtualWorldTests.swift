import LowbandFixtures
import LowbandTesting
import Testing

/// The virtual world as a user of the LowbandTesting product writes tests with it: only the
/// product imported, engines made from it, the clock advanced until something is seen.
@Suite struct VirtualWorldTests {
    /// What one run saw: when Alice sent, when the server's acknowledgement reached her and the
    /// push reached Bob, by the virtual clock, and what arrived.
    struct Delivery: Equatable {
        var sentAt: Duration
        var acknowledgedAt: Duration
        var arrivedAt: Duration
        var message: Message
    }

    /// Alice sends to a chat she shares with Bob on an EDGE link; Bob's engine gets the push.
    func deliverOne(seed: UInt64) throws -> Delivery {
        let world = try VirtualWorld(seed: seed, profile: try NetworkProfile.load(named: "edge"))
        let alice = try world.makeClient(user: 1)
        let bob = try world.makeClient(user: 2)
        let chat = try #require(world.chats(of: 1).first { $0.memberIDs.contains(2) })
        #expect(world.advance(until: { alice.isLoggedIn && bob.isLoggedIn }))
        let sentAt = world.now
        try alice.engine.send(text: "see you at eight", to: chat.id)
        #expect(world.advance(until: { !alice.sent.isEmpty }))
        let acknowledgedAt = world.now
        #expect(world.advance(until: { bob.arrived.contains { $0.text == "see you at eight" } }))
        let message = try #require(bob.arrived.last)
        #expect(message.chatID == chat.id && message.senderID == 1)
        // It is in Bob's cache, where his chat screen reads it from.
        #expect(try bob.engine.messages.message(chatID: chat.id, id: message.id) == message)
        return Delivery(sentAt: sentAt, acknowledgedAt: acknowledgedAt, arrivedAt: world.now, message: message)
    }

    @Test func aMessageSentByOneEngineReachesTheOther() throws {
        let delivery = try deliverOne(seed: 7)
        // Up Alice's link and down Bob's: EDGE's one-way delay is 200 ms ± 50 ms each way, so
        // the push cannot reach Bob sooner than 300 ms after the send.
        #expect(delivery.arrivedAt - delivery.sentAt >= .milliseconds(300))
        #expect(delivery.acknowledgedAt - delivery.sentAt >= .milliseconds(300))
        #expect(delivery.arrivedAt - delivery.sentAt < .seconds(10))
    }

    @Test func theSameSeedGivesTheSameVirtualTimes() throws {
        let first = try deliverOne(seed: 7)
        let second = try deliverOne(seed: 7)
        #expect(first == second)
        let other = try deliverOne(seed: 8)
        #expect(other.arrivedAt != first.arrivedAt)
    }

    @Test func advancingByMovesTheClockExactly() throws {
        let world = try VirtualWorld(shape: MessengerWorld.Shape(users: 2, chatsPerUser: 1, messagesPerChat: 0))
        world.advance(by: .seconds(90))
        #expect(world.now == .seconds(90))
        #expect(!world.advance(until: { false }, limit: .seconds(5)))
        #expect(world.now == .seconds(95))
    }

    @Test func aClientMadeAgainOnItsDatabaseStartsFromItsCache() throws {
        let world = try VirtualWorld(shape: MessengerWorld.Shape(users: 4, chatsPerUser: 2, messagesPerChat: 5))
        var phone: VirtualClient? = try world.makeClient(user: 1, database: "phone.sqlite")
        #expect(world.advance(until: { phone?.syncs.count == 1 }))
        // The app goes away; it starts again with no network.
        phone?.engine.stop()
        phone = nil
        world.network.refusesConnections = true
        let restarted = try world.makeClient(user: 1, database: "phone.sqlite")
        world.advance(by: .seconds(5))
        #expect(!restarted.isLoggedIn)
        #expect(try restarted.engine.sync.chats().count == world.chats(of: 1).count)
    }
}
