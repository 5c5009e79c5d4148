import LowbandFixtures
import LowbandServer
import LowbandWire
import Testing

/// The wire dictionary a login agrees, and what the server sends and accepts after it, without
/// I/O: the core names the agreed dictionary on every frame it sends the session from the reply
/// after the login's on, refuses a request compressed with one that was not agreed, and agrees
/// none with a client that offers none (an old client) or none it has.
@Suite struct DictionaryNegotiationTests {
    static let one = WireDictionary.messenger1.id

    /// A logged-in session offering `offered`, the login's reply frame, and a second session of
    /// another member of a shared chat (logged in without an offer) to post from.
    private func loggedIn(
        _ server: inout CoreHarness, offering offered: [Int64]
    ) throws -> (session: SessionID, reply: LoginReply, replyFrame: Frame, chat: MessengerWorld.ChatHistory, other: Int64) {
        let (chat, first, second, _) = try server.world.pairWithOutsider()
        let session = server.open()
        let token = try #require(server.core.token(of: first))
        let (reply, frame, _) = try server.call(LoginRequest(token: token, lastSync: 0, compressionDictionaries: offered), on: session)
        return (session, reply, frame, chat, second)
    }

    @Test func aClientOfferingTheShippedDictionaryGetsItFromTheNextFrameOn() throws {
        var server = CoreHarness()
        let (session, reply, replyFrame, chat, other) = try loggedIn(&server, offering: [1])
        #expect(reply.compressionDictionary == 1)
        #expect(server.core.compressionDictionary(of: session) == Self.one)
        #expect(replyFrame.compressionDictionary == nil, "the reply that names the dictionary is not compressed with it")

        let pong = try server.call(Ping(clientTime: 1), on: session)
        #expect(pong.frame.compressionDictionary == Self.one)
        let (_, pushes) = try server.core.post("hello", in: chat.id, from: other, at: server.now)
        let mine = pushes.filter { $0.session == session }
        #expect(mine.count == 1 && mine.allSatisfy { $0.frame.compressionDictionary == Self.one })

        // The client's requests may now come compressed with it.
        var ping = try Frame.request(Ping(clientTime: 2), sequence: server.nextSequence())
        ping.compressionDictionary = Self.one
        let answered = server.handle(ping, on: session)
        #expect(answered.first?.frame.flags == .response)
    }

    @Test func theServerPicksTheHighestIDItHasAndIgnoresUnknownOnes() throws {
        var server = CoreHarness()
        let (session, reply, _, _, _) = try loggedIn(&server, offering: [9, 1, 15, 0, -3, 1 << 40])
        #expect(reply.compressionDictionary == 1, "9 and 15 are ids this build does not have; 0, -3 and 2^40 are no ids")
        #expect(server.core.compressionDictionary(of: session) == Self.one)
    }

    @Test func anOfferOfNothingTheServerHasAgreesNone() throws {
        var server = CoreHarness()
        let (session, reply, _, chat, other) = try loggedIn(&server, offering: [9])
        #expect(reply.compressionDictionary == nil)
        #expect(try server.call(Ping(clientTime: 1), on: session).frame.compressionDictionary == nil)
        let (_, pushes) = try server.core.post("hello", in: chat.id, from: other, at: server.now)
        #expect(pushes.allSatisfy { $0.frame.compressionDictionary == nil })
    }

    @Test func aServerWithoutDictionariesAgreesNone() throws {
        var server = CoreHarness(frame: FrameConfiguration(compression: CompressionPolicy(dictionaries: [])))
        let (session, reply, _, _, _) = try loggedIn(&server, offering: [1])
        #expect(reply.compressionDictionary == nil)
        #expect(server.core.compressionDictionary(of: session) == nil)
    }

    @Test func anOldClientGetsTheOldReplyAndPlainFrames() throws {
        var server = CoreHarness()
        let (chat, first, second, _) = try server.world.pairWithOutsider()
        let session = server.open()
        // The login an old client writes: [token, lastSync], no third field.
        let token = try #require(server.core.token(of: first))
        try #require(token.utf8.count < 32, "a fixstr token")
        let payload: [UInt8] = [0x92, 0xA0 | UInt8(token.utf8.count)] + Array(token.utf8) + [0x00]
        let out = server.handle(Frame(command: .login, sequence: server.nextSequence(), payload: payload), on: session)
        let replyFrame = try #require(out.first?.frame)
        #expect(replyFrame.flags == .response)
        let reply = try replyFrame.decode(LoginReply.self)
        #expect(reply.compressionDictionary == nil)
        #expect(replyFrame.payload.first == 0x95, "userID, serverTime, contacts, chats, settings: no dictionary field for an old client")
        let (_, pushes) = try server.core.post("hello", in: chat.id, from: second, at: server.now)
        #expect(pushes.contains { $0.session == session })
        #expect(pushes.allSatisfy { $0.frame.compressionDictionary == nil })
    }

    @Test func aRequestCompressedWithADictionaryNotAgreedIsRefusedNamingIt() throws {
        var server = CoreHarness()
        let (plain, _, _, _, _) = try loggedIn(&server, offering: [])
        let (agreed, _, _, _, _) = try loggedIn(&server, offering: [1])
        var ping = try Frame.request(Ping(clientTime: 1), sequence: server.nextSequence())
        ping.compressionDictionary = Self.one
        let error = try server.errorReply(to: ping, on: plain)
        #expect(error.code == .badRequest)
        #expect(error.text.contains("wire dictionary 1") && error.text.contains("agreed no dictionary"), "\(error.text)")
        // The session goes on, plain, and the other one is not affected.
        #expect(try server.call(Ping(clientTime: 2), on: plain).frame.compressionDictionary == nil)
        #expect(try server.call(Ping(clientTime: 3), on: agreed).frame.compressionDictionary == Self.one)

        let fresh = server.open()
        let early = try server.errorReply(to: ping, on: fresh)
        #expect(early.text.contains("has not logged in"), "\(early.text)")
    }

    @Test func aConnectionKeepsTheDictionaryItAgreed() throws {
        var server = CoreHarness()
        let (session, _, _, _, _) = try loggedIn(&server, offering: [1])
        let userID = try #require(server.core.userID(of: session))
        let token = try #require(server.core.token(of: userID))
        let (again, frame, _) = try server.call(LoginRequest(token: token, lastSync: 0), on: session)
        #expect(again.compressionDictionary == 1, "a later login on the same connection names the dictionary in force")
        #expect(frame.compressionDictionary == Self.one, "and, agreed before it, comes compressed with it")
    }

    @Test func tooManyOffersAreABadRequest() throws {
        var server = CoreHarness()
        let session = server.open()
        let token = try #require(server.core.token(of: 1))
        let error = try server.refuse(LoginRequest(token: token, lastSync: 0, compressionDictionaries: Array(repeating: 1, count: 17)), on: session)
        #expect(error.code == .badRequest && error.text.contains("17 compression dictionaries"), "\(error.text)")
        #expect(server.core.userID(of: session) == nil)
    }
}
