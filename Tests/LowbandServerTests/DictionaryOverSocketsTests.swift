import LowbandFixtures
import LowbandLZ4
import LowbandServer
import LowbandTestSupport
import LowbandWire
import NIOCore
import NIOPosix
import Testing

/// The wire dictionary through the real server over loopback sockets: agreed at login, used both
/// ways, absent for an old client, and a frame naming a dictionary nobody agreed closes only its
/// own connection.
/// Wall clock (scripts/test.sh runs it alone): the server's real timers run on the wall clock, as
/// in ServerOverSocketsTests.
@Suite(.tags(.wallClock)) struct DictionaryOverSocketsTests {
    let loop = MultiThreadedEventLoopGroup.singleton.any()

    /// A client of `server` logged in as `userID`, offering `offered`.
    private func client(
        _ server: MessengerSocketServer, in world: MessengerWorld, as userID: Int64, offering offered: [Int64], configuration: FrameConfiguration = FrameConfiguration()
    ) async throws -> (LoopClient, LoginReply) {
        let client = try await LoopClient.connect(port: server.port, loop: loop, configuration: configuration)
        let token = try #require(world.user(userID)?.token)
        let reply = try await client.call(LoginRequest(token: token, lastSync: 0, compressionDictionaries: offered))
        return (client, reply)
    }

    /// Texts of the seeded corpus, as a chat member would write them.
    private static func texts(_ count: Int) -> [String] {
        var fixtures = MessengerFixtures(seed: 5)
        return (0 ..< count).map { _ in fixtures.text() }
    }

    @Test func bothDirectionsUseTheAgreedDictionaryAndFewerBytes() async throws {
        let world = MessengerWorld(seed: 7)
        let server = try await MessengerSocketServer.start(world: world)
        let (chat, reader, writer, _) = try world.pairWithOutsider()
        let (agreed, reply) = try await client(server, in: world, as: reader, offering: [1])
        let (plain, plainReply) = try await client(server, in: world, as: reader, offering: [])
        #expect(reply.compressionDictionary == 1 && plainReply.compressionDictionary == nil)
        let before = (try await agreed.traffic.received.bytes, try await plain.traffic.received.bytes)

        let texts = Self.texts(40)
        for text in texts {
            _ = try await server.post(text, in: chat.id, from: writer)
        }
        var named = 0
        for text in texts {
            let push = try await agreed.nextPush()
            let other = try await plain.nextPush()
            #expect(try push.decode(NewMessagePush.self).message.text == text)
            #expect(try other.decode(NewMessagePush.self).message.text == text)
            #expect(other.compressionDictionary == nil)
            if push.compressionDictionary == WireDictionary.messenger1.id { named += 1 }
        }
        #expect(named >= 30, "\(named) of 40 pushes came compressed with the dictionary")
        let agreedBytes = try await agreed.traffic.received.bytes - before.0
        let plainBytes = try await plain.traffic.received.bytes - before.1
        #expect(Double(agreedBytes) < 0.8 * Double(plainBytes), "pushes: \(agreedBytes) bytes with the dictionary, \(plainBytes) without")

        // Upstream: a request compressed with the dictionary is served.
        var send = try Frame.request(SendMessageRequest(chatID: chat.id, clientID: 77, text: texts[0] + " " + texts[1]), sequence: 900)
        send.compressionDictionary = WireDictionary.messenger1.id
        let answer = try await agreed.send(raw: send)
        #expect(answer.flags == .response)
        #expect(try answer.decode(SendMessageReply.self).message.clientID == 77)
        try await agreed.close()
        try await plain.close()
        try await server.stop()
    }

    @Test func anOldClientWithoutDictionariesIsServedPlainLZ4() async throws {
        let world = MessengerWorld(seed: 7)
        let server = try await MessengerSocketServer.start(world: world)
        let (chat, reader, writer, _) = try world.pairWithOutsider()
        // An old client: its login has no offer and its decoder knows no wire dictionary, so a
        // frame naming one would close its link.
        let old = FrameConfiguration(compression: CompressionPolicy(dictionaries: []))
        let (client, reply) = try await client(server, in: world, as: reader, offering: [], configuration: old)
        #expect(reply.compressionDictionary == nil)
        let long = Self.texts(200).joined(separator: " ")
        _ = try await server.post(String(long.prefix(2_000)), in: chat.id, from: writer)
        let push = try await client.nextPush()
        #expect(try push.decode(NewMessagePush.self).message.text == String(long.prefix(2_000)))
        #expect(try await client.call(Ping(clientTime: 1)).serverTime > 0)
        try await client.close()
        try await server.stop()
    }

    @Test func aFrameNamingAnUnknownDictionaryClosesOnlyItsConnection() async throws {
        let world = MessengerWorld(seed: 7)
        let server = try await MessengerSocketServer.start(world: world)
        let (bystander, _) = try await client(server, in: world, as: 2, offering: [1])
        // A client whose encoder has a dictionary 9 the server never heard of.
        let bogus = WireDictionary(id: WireDictionary.ID(rawValue: 9)!, name: "bogus", dictionary: LZ4Dictionary(Array("bogus dictionary".utf8)))
        let rogue = try await LoopClient.connect(
            port: server.port, loop: loop, configuration: FrameConfiguration(compression: CompressionPolicy(dictionaries: [bogus])))
        var ping = try Frame.request(Ping(clientTime: 1), sequence: 1)
        ping.payload += Array(repeating: 0x90, count: 64)  // long enough to be compressed
        ping.compressionDictionary = bogus.id
        await #expect(throws: (any Error).self) { _ = try await rogue.send(raw: ping, timeout: .seconds(5)) }
        _ = try await rogue.closed()
        // Everyone else is served as before.
        #expect(try await bystander.call(Ping(clientTime: 2)).serverTime > 0)

        // A known dictionary the connection did not agree: an error reply, and the session goes on.
        let (unagreed, _) = try await client(server, in: world, as: 3, offering: [])
        var named = try Frame.request(Ping(clientTime: 3), sequence: 901)
        named.payload += Array(repeating: 0x90, count: 64)
        named.compressionDictionary = WireDictionary.messenger1.id
        let refusal = try await unagreed.send(raw: named)
        #expect(refusal.flags == [.response, .error])
        #expect(try refusal.decode(ErrorReply.self).text.contains("wire dictionary 1"))
        #expect(try await unagreed.call(Ping(clientTime: 4)).serverTime > 0)
        try await bystander.close()
        try await unagreed.close()
        try await server.stop()
    }
}
