import LowbandClient
import LowbandFixtures
import LowbandServer
import LowbandSimulation
import LowbandTesting
import LowbandWire
import Testing

/// The client engine and the real server agree a wire dictionary at login and use it both ways,
/// over the in-memory network with real frame encoding; a client or a server without
/// dictionaries falls back to plain LZ4 and loses nothing.
@Suite struct DictionaryEngineTests {
    /// What one world did: the frames each way (as decoded at the far end), the bytes the
    /// server sent, and what the client ended up with.
    struct Outcome {
        var downstream: [Frame] = []
        var upstream: [Frame] = []
        var downstreamBytes = 0
        var arrived: [Message] = []
        var sentAcknowledged = 0
    }

    /// A world whose client (user 1) logs in, receives `count` posts in its first chat and sends
    /// two messages of its own.
    static func run(
        count: Int = 60, server: FrameConfiguration = FrameConfiguration(), offering offered: [WireDictionary.ID] = WireDictionary.shipped.map(\.id)
    ) throws -> Outcome {
        var description = WorldDescription(seed: 7)
        description.server.frame = server
        let world = try VirtualWorld(description)
        var outcome = Outcome()
        world.network.onFrame = { event in
            guard event.kind == .delivered else { return }
            if event.direction == .downstream {
                outcome.downstream.append(event.frame)
            } else {
                outcome.upstream.append(event.frame)
            }
        }
        let client = try world.makeClient(user: 1) { $0.compressionDictionaries = offered }
        #expect(world.advance(until: { !client.syncs.isEmpty }))
        let chat = try #require(world.chats(of: 1).first)
        let other = try #require(chat.memberIDs.first { $0 != 1 })
        let before = world.network.traffic(.downstream).delivered.bytes
        var texts = MessengerFixtures(seed: 21)
        for _ in 0 ..< count {
            try world.server.post(texts.text(), in: chat.id, from: other)
            world.advance(by: .milliseconds(500))
        }
        #expect(world.advance(until: { client.arrived.count >= count }))
        outcome.downstreamBytes = world.network.traffic(.downstream).delivered.bytes - before
        for _ in 0 ..< 2 {
            _ = try client.engine.send(text: texts.text() + " " + texts.text(), to: chat.id)
        }
        #expect(world.advance(until: { client.sent.count == 2 }))
        outcome.arrived = client.arrived
        outcome.sentAcknowledged = client.sent.count
        client.engine.stop()
        return outcome
    }

    @Test func anAgreedDictionaryCompressesBothWaysAndSavesBytes() throws {
        let agreed = try Self.run()
        let plain = try Self.run(offering: [])
        #expect(agreed.arrived.map(\.text) == plain.arrived.map(\.text), "the same messages, in order")
        #expect(agreed.sentAcknowledged == 2)

        let one = WireDictionary.messenger1.id
        let pushes = agreed.downstream.filter { $0.command == .pushNewMessage }
        #expect(pushes.count == 60)
        #expect(pushes.filter { $0.compressionDictionary == one }.count >= 50, "pushes compressed with dictionary 1")
        #expect(agreed.upstream.contains { $0.command == .sendMessage && $0.compressionDictionary == one }, "the client's sends too")
        let login = try #require(agreed.downstream.first { $0.command == .login })
        #expect(login.compressionDictionary == nil, "the reply that agrees it is not yet compressed with it")
        #expect(try login.decode(LoginReply.self).compressionDictionary == 1)

        #expect(plain.downstream.allSatisfy { $0.compressionDictionary == nil })
        #expect(plain.upstream.allSatisfy { $0.compressionDictionary == nil })
        #expect(
            Double(agreed.downstreamBytes) < 0.8 * Double(plain.downstreamBytes),
            "60 pushes: \(agreed.downstreamBytes) bytes with the dictionary, \(plain.downstreamBytes) without")
    }

    @Test func aServerWithoutDictionariesServesANewClientPlainLZ4() throws {
        let outcome = try Self.run(count: 10, server: FrameConfiguration(compression: CompressionPolicy(dictionaries: [])))
        let login = try #require(outcome.downstream.first { $0.command == .login })
        #expect(try login.decode(LoginReply.self).compressionDictionary == nil)
        #expect(outcome.arrived.count == 10 && outcome.sentAcknowledged == 2)
        #expect((outcome.downstream + outcome.upstream).allSatisfy { $0.compressionDictionary == nil })
    }

    @Test func anOfferOfAnUnknownIDFallsBackToPlainLZ4() throws {
        // A client that knows only a dictionary this server does not have (as a newer client
        // would): the server agrees none.
        let outcome = try Self.run(count: 10, offering: [WireDictionary.ID(rawValue: 12)!])
        #expect(outcome.arrived.count == 10 && outcome.sentAcknowledged == 2)
        #expect((outcome.downstream + outcome.upstream).allSatisfy { $0.compressionDictionary == nil })
    }
}
