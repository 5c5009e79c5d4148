import Foundation
import LowbandFixtures
import LowbandServer
import LowbandTestSupport
import LowbandTransport
import LowbandWire
import NIOCore
import NIOPosix
import Testing

/// The in-process server over real loopback sockets (SocketFrameLink), each test with its own
/// server on an ephemeral port.
/// Wall clock (scripts/test.sh runs it alone): runs the server's real timers on the wall clock: a client starved for 30 s by the parallel pass meets the login timeout, which is not what it tests.
@Suite(.tags(.wallClock)) struct ServerOverSocketsTests {
    let loop = MultiThreadedEventLoopGroup.singleton.any()

    private func client(_ server: MessengerSocketServer, in world: MessengerWorld, loggedInAs userID: Int64? = nil, lastSync: ServerTime = 0) async throws -> (LoopClient, LoginReply?) {
        let client = try await LoopClient.connect(port: server.port, loop: loop)
        guard let userID else { return (client, nil) }
        let reply = try await client.call(LoginRequest(token: world.user(userID)!.token, lastSync: lastSync))
        #expect(reply.userID == userID)
        return (client, reply)
    }

    @Test func fullAndDeltaLoginDifferHugelyInBytes() async throws {
        let world = MessengerWorld(seed: 7, shape: .init(users: 40, chatsPerUser: 15, messagesPerChat: 30))
        let server = try await MessengerSocketServer.start(world: world)
        let (first, full) = try await client(server, in: world,  loggedInAs: 1)
        let fullBytes = try await first.traffic.received.bytes
        try await first.close()
        let chat = try #require(full?.chats.first)
        let writer = try #require(chat.memberIDs.first { $0 != 1 })
        try await server.post("Привет 👋", in: chat.id, from: writer)
        let (second, delta) = try await client(server, in: world,  loggedInAs: 1, lastSync: full!.serverTime)
        let deltaBytes = try await second.traffic.received.bytes
        #expect(delta?.chats.map(\.id) == [chat.id])
        #expect(delta?.settings == nil && delta?.contacts.isEmpty == true)
        #expect(fullBytes > 10 * deltaBytes, "full \(fullBytes) bytes vs delta \(deltaBytes)")
        try await second.close()
        try await server.stop()
    }

    @Test func historySendPushesAndReadReceiptsOverLoopback() async throws {
        let world = MessengerWorld(seed: 7)
        let server = try await MessengerSocketServer.start(world: world)
        let (chat, first, second, outsider) = try world.pairWithOutsider()
        let (alice, _) = try await client(server, in: world,  loggedInAs: first)
        let (aliceLaptop, _) = try await client(server, in: world,  loggedInAs: first)
        let (bob, _) = try await client(server, in: world,  loggedInAs: second)
        let (eve, _) = try await client(server, in: world,  loggedInAs: outsider)

        // History at both ends.
        let newest = try await alice.call(HistoryRequest(chatID: chat.id, anchor: nil, direction: .older, count: 25))
        #expect(newest.messages == Array(chat.messages.suffix(25)) && !newest.reachedEnd)
        let oldest = try await alice.call(HistoryRequest(chatID: chat.id, anchor: newest.messages.first!.id, direction: .older, count: 25))
        #expect(oldest.messages == Array(chat.messages.prefix(chat.messages.count - 25)) && oldest.reachedEnd)
        let after = try await alice.call(HistoryRequest(chatID: chat.id, anchor: chat.messages.last!.id, direction: .newer, count: 10))
        #expect(after.messages.isEmpty && after.reachedEnd)

        // Send: idempotent, pushed to Bob and Alice's laptop, not to Eve.
        let request = SendMessageRequest(chatID: chat.id, clientID: 0xC0FFEE, text: "明天见 ☕")
        let firstReply = try await alice.send(request)
        let retryReply = try await alice.send(request)
        #expect(firstReply.payload == retryReply.payload)
        let sent = try firstReply.decode(SendMessageReply.self).message
        let bobPush = try await bob.nextPush()
        let laptopPush = try await aliceLaptop.nextPush()
        #expect(try bobPush.decode(NewMessagePush.self).message == sent)
        #expect(try laptopPush.decode(NewMessagePush.self).message == sent)
        #expect(bobPush.sequence == 1)

        // Bob reads it: Alice's sessions get the receipt.
        _ = try await bob.call(MarkReadRequest(chatID: chat.id, messageID: sent.id))
        let receipt = try await alice.nextPush().decode(ReadReceiptPush.self)
        #expect(receipt.readerID == second && receipt.messageID == sent.id)
        _ = try await aliceLaptop.nextPush()

        // Another user posts from elsewhere: everyone in the chat hears of it.
        let posted = try await server.post("from the web", in: chat.id, from: second)
        #expect(try await bob.nextPush().decode(NewMessagePush.self).message == posted)
        #expect(try await alice.nextPush().decode(NewMessagePush.self).message == posted)

        // Eve is in none of it and may not read it.
        await #expect {
            _ = try await eve.call(HistoryRequest(chatID: chat.id, anchor: nil, direction: .older, count: 5))
        } throws: { error in
            (error as? ErrorReply)?.code == .forbidden
        }
        #expect(try await eve.queuedPushes == 0)
        for client in [alice, aliceLaptop, bob, eve] { try await client.close() }
        try await server.stop()
    }

    @Test func refusalsAndBadRequestsAreAnsweredAndEveryoneIsStillServed() async throws {
        let world = MessengerWorld(seed: 3)
        let server = try await MessengerSocketServer.start(world: world)
        let (anonymous, _) = try await client(server, in: world)
        let unauthorized = try await anonymous.send(Ping(clientTime: 0))
        #expect(unauthorized.flags == [.response, .error])
        #expect(try unauthorized.decode(ErrorReply.self).code == .unauthorized)

        let (user, _) = try await client(server, in: world,  loggedInAs: 2)
        let garbage = try await user.send(raw: Frame(command: .sendMessage, sequence: 900, payload: [0xC1]))
        #expect(try garbage.decode(ErrorReply.self).code == .badRequest)
        var flagged = try Frame.request(Ping(clientTime: 1), sequence: 901)
        flagged.flags = .response
        #expect(try await user.send(raw: flagged).decode(ErrorReply.self).code == .badRequest)
        let tooMany = try await user.send(HistoryRequest(chatID: 1, anchor: nil, direction: .older, count: 5_000))
        #expect(try tooMany.decode(ErrorReply.self).code == .badRequest)

        // A frame-level error closes that connection only.
        let raw = try await ClientBootstrap(group: loop).connect(host: "127.0.0.1", port: server.port).get()
        var bytes = ByteBuffer()
        bytes.writeBytes([0x02, 0xF0, 0x00, 0x01, 0, 0, 0, 1, 0, 0, 0, 0])  // reserved flag bits
        try await raw.writeAndFlush(bytes)
        try await raw.closeFuture.get()

        let pong = try await user.call(Ping(clientTime: 5))
        #expect(pong.serverTime >= MessengerFixtures.epoch)
        _ = try await anonymous.call(LoginRequest(token: world.user(3)!.token, lastSync: 0))
        #expect(try await server.connectionCount == 2)
        try await anonymous.close()
        try await user.close()
        try await server.stop()
    }

    @Test func anUploadResumesOnANewConnectionAfterARestart() async throws {
        let world = MessengerWorld(seed: 3)
        let server = try await MessengerSocketServer.start(world: world)
        let file = [UInt8]((0 ..< 300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) })
        func piece(_ range: Range<Int>) -> UploadChunkRequest {
            UploadChunkRequest(uploadID: "voice-9", offset: Int64(range.lowerBound), totalSize: Int64(file.count), data: Data(file[range]))
        }
        let (before, _) = try await client(server, in: world,  loggedInAs: 4)
        let first = try await before.call(piece(0 ..< 120_000))
        #expect(first.acknowledgedOffset == 120_000)

        // The server goes down and comes back on the same port; the client resumes.
        try await server.stop()
        #expect(try await before.closed() == nil)
        try await server.restart()
        let (after, _) = try await client(server, in: world,  loggedInAs: 4)
        let status = try await after.call(UploadStatusRequest(uploadID: "voice-9"))
        #expect(status.acknowledgedOffset == 120_000)
        let skipped = try await after.call(piece(240_000 ..< 300_000))
        #expect(skipped.acknowledgedOffset == 120_000, "a piece past the acknowledged offset is not stored")
        _ = try await after.call(piece(120_000 ..< 240_000))
        let done = try await after.call(piece(240_000 ..< 300_000))
        #expect(done.complete && done.url != nil)
        let stored = try await server.withServer { $0.core.upload("voice-9", of: 4)?.data }
        #expect(stored == file)
        try await after.close()
        try await server.stop()
    }
}
