#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import LowbandClient
import LowbandDeterminism
import LowbandFixtures
import LowbandProcess
import LowbandProxy
import LowbandServer
import LowbandShaper
import LowbandTestSupport
import LowbandWire
import Synchronization
import Testing

/// The engine over real TCP sockets on loopback against the real server, each client with a
/// real SQLite file.
/// Wall clock (scripts/test.sh runs it alone): a kill or a cut half-way through a transfer needs the test to keep pace with the client: a starved test saw the client finish all 300 sends, or the whole upload, before it could act.
@Suite(.tags(.wallClock)) struct SocketClientTests {
    private static let connection = ConnectionConfiguration(
        requestTimeout: .seconds(10), loginTimeout: .seconds(10), heartbeatInterval: .seconds(15), heartbeatTimeout: .seconds(5),
        backoff: Backoff(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200)))

    private func client(_ server: MessengerSocketServer, in world: MessengerWorld, user: Int64 = 1, database: String, seed: UInt64 = 21) async throws -> ClientEngineHost {
        let configuration = ClientConfiguration(
            token: world.users[Int(user - 1)].token, databasePath: database, seed: seed, connection: Self.connection)
        return try await ClientEngineHost.start(configuration: configuration, port: server.port)
    }

    /// A shaping proxy in front of `server` with 20 ms each way and no rate limit.
    private static func proxy20ms(named name: String, to server: MessengerSocketServer) -> ShapingProxy {
        ShapingProxy(configuration: ShapingProxy.Configuration(
            name: name,
            upstream: ProxyEndpoint(host: "127.0.0.1", port: server.port),
            link: .network(NetworkProfile(
                name: "20ms",
                downlink: LinkProfile(rate: .unlimited, delay: .milliseconds(20), queueBytes: 1 << 20),
                uplink: LinkProfile(rate: .unlimited, delay: .milliseconds(20), queueBytes: 1 << 20)
            ))
        ))
    }

    private func chat(of user: Int64, in world: MessengerWorld, index: Int = 0) -> MessengerWorld.ChatHistory {
        world.chats.filter { $0.memberIDs.contains(user) }[index]
    }

    private func sent(_ server: MessengerSocketServer, chat: Int64, by user: Int64) async throws -> [Message] {
        try await server.withServer { ($0.core.messages(in: chat) ?? []).filter { $0.senderID == user && $0.clientID != nil } }
    }

    @Test func sentWhileOfflineIsDeliveredOnceInOrderWhenTheServerComesUp() async throws {
        let directory = try TemporaryDirectory()
        let world = MessengerWorld(seed: 3)
        let server = try await MessengerSocketServer.start(world: world)
        try await server.stop()
        let chat = chat(of: 1, in: world).id
        let host = try await client(server, in: world, database: directory.file("a.sqlite"))
        try await host.withEngine { engine in
            for index in 0 ..< 5 { try engine.send(text: "queued \(index)", to: chat) }
        }
        #expect(try await host.withEngine { try $0.outbox.store.pendingTasks().count } == 5)
        #expect(try await sent(server, chat: chat, by: 1).isEmpty)
        try await server.restart()
        try await host.waitUntil { try $0.outbox.store.pendingTasks().isEmpty }
        #expect(try await sent(server, chat: chat, by: 1).map(\.text) == (0 ..< 5).map { "queued \($0)" })
        try await host.stop()
        try await server.stop()
    }

    @Test func theServerRestartedUnderAConnectedClientIsCaughtUpWith() async throws {
        let directory = try TemporaryDirectory()
        let world = MessengerWorld(seed: 4)
        let server = try await MessengerSocketServer.start(world: world)
        let chat = chat(of: 1, in: world)
        let other = chat.memberIDs.first { $0 != 1 }!
        let host = try await client(server, in: world, database: directory.file("b.sqlite"))
        try await host.waitUntil { $0.connection.statistics.logins == 1 }
        try await server.stop()
        try await host.waitUntil { !$0.connection.isLoggedIn }
        let missed = try await server.post("while the server was down", in: chat.id, from: other)
        try await server.restart()
        try await host.waitUntil { $0.connection.statistics.logins == 2 }
        let lastMessage = try await host.withEngine { try $0.sync.chats().first { $0.id == chat.id }?.lastMessage }
        #expect(lastMessage == missed)
        // Live again: a push lands in the cache.
        let live = try await server.post("and now live", in: chat.id, from: other)
        try await host.waitUntil { try $0.messages.message(chatID: chat.id, id: live.id) != nil }
        let bytes = try await host.withEngine { $0.connection.statistics.loginReplyPayloadBytes }
        #expect(bytes.count == 2)
        #expect(bytes[1] * 10 < bytes[0], "delta \(bytes[1]) bytes vs full \(bytes[0])")
        try await host.stop()
        try await server.stop()
    }

    @Test func aClientCannotReadAnotherUsersChat() async throws {
        let directory = try TemporaryDirectory()
        let world = MessengerWorld(seed: 5)
        let server = try await MessengerSocketServer.start(world: world)
        let foreign = try #require(world.chats.first { !$0.memberIDs.contains(1) }).id
        let host = try await client(server, in: world, database: directory.file("c.sqlite"))
        try await host.waitUntil { $0.connection.isLoggedIn }
        let outcome = Outcome()
        try await host.withEngine { engine in
            engine.history.loadPage(chatID: foreign, olderThan: nil, count: 20) { page in
                outcome.pages.withLock { $0.append(page) }
                _ = try? engine.send(text: "let me in", to: foreign)
            }
        }
        try await host.waitUntil { engine in
            try engine.outbox.store.allTasks().contains { $0.state == .failed }
        }
        let pages = outcome.pages.withLock { $0 }
        let refusal = pages.last?.error?.serverReply?.code
        #expect(refusal == .forbidden)
        #expect(pages.allSatisfy { $0.messages.isEmpty })
        #expect(try await host.withEngine { try $0.messages.allMessages(chatID: foreign).count } == 0)
        #expect(try await sent(server, chat: foreign, by: 1).isEmpty)
        try await host.stop()
        try await server.stop()
    }

    @Test func anUploadCutOffHalfWayResumesFromTheAcknowledgedOffset() async throws {
        let directory = try TemporaryDirectory()
        let world = MessengerWorld(seed: 8)
        let server = try await MessengerSocketServer.start(world: world)
        let chat = chat(of: 1, in: world).id
        var configuration = ClientConfiguration(
            token: world.users[0].token, databasePath: directory.file("upload.sqlite"), seed: 5, connection: Self.connection,
            outbox: OutboxConfiguration(uploadChunkSize: 8 * 1024))
        configuration.connection.requestTimeout = .seconds(5)
        // Through 20 ms each way: a piece goes one round trip at a time, so the second half of
        // the upload takes about a second and the stop below lands in it. Straight on loopback
        // the rest of the upload could finish before the server stopped.
        let proxy = Self.proxy20ms(named: "upload-cut", to: server)
        let proxyPort = try await proxy.start().port ?? 0
        let host = try await ClientEngineHost.start(configuration: configuration, port: proxyPort)
        var generator = SeededGenerator(seed: 12)
        let bytes = (0 ..< 400_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        try await host.withEngine { engine in
            try engine.send(text: "a photo", to: chat, attachment: OutgoingAttachment(kind: .photo, data: bytes, width: 800, height: 600))
        }
        let uploadOffset: @Sendable (ClientEngine) throws -> Int64 = { engine in
            try engine.outbox.store.allTasks().first { $0.kind == .upload }?.acknowledgedOffset ?? 0
        }
        try await host.waitUntil { try uploadOffset($0) >= 200_000 }
        try await server.stop()
        try await host.waitUntil { !$0.connection.isLoggedIn }
        let heldAtCut = try await host.withEngine(uploadOffset)
        #expect(heldAtCut >= 200_000 && heldAtCut < 400_000, "cut half-way at \(heldAtCut)")
        try await server.restart()
        try await host.waitUntil { try $0.outbox.store.pendingTasks().isEmpty }
        let tasks = try await host.withEngine { try $0.outbox.store.allTasks() }
        let upload = try #require(tasks.first { $0.kind == .upload })
        let stored = try #require(try await server.withServer { $0.core.upload(upload.uploadID!, of: 1) })
        #expect(stored.data == bytes, "every byte once, in order")
        let message = try #require(try await server.withServer { $0.core.messages(in: chat)?.last })
        #expect(message.text == "a photo")
        #expect(message.attachments.first?.url == stored.url)
        #expect(message.attachments.first?.size == 400_000)
        #expect(upload.attempts >= 1, "the upload was interrupted and resumed")
        try await host.stop()
        await proxy.stop()
        try await server.stop()
    }

    @Test func aClientKilledMidSendLosesNothingAndDuplicatesNothing() async throws {
        let directory = try TemporaryDirectory()
        let world = MessengerWorld(seed: 6)
        let server = try await MessengerSocketServer.start(world: world)
        let chat = chat(of: 1, in: world).id
        let token = world.users[0].token
        let database = directory.file("killed.sqlite")
        let count = 300
        // The child talks to the server through the shaping proxy with 20 ms each way: sends go
        // one round trip at a time, so a run takes seconds and the kill lands mid-send even on
        // a loaded machine, often while a stored message's reply is still on its way back.
        let proxy = Self.proxy20ms(named: "kill-test", to: server)
        let proxyPort = try await proxy.start().port ?? 0
        let common = ["client", "--server", "127.0.0.1:\(proxyPort)", "--token", token, "--database", database, "--seed", "77", "--timeout", "60s"]
        let binary = LowbandBinary.path

        // Two runs killed with SIGKILL while sending (each after 20 acknowledged sends, the
        // moment the next request goes out), then a run that finishes the outbox.
        var stored: [String] = []
        var acknowledged = 0
        for (round, arguments) in [["send", "--chat", "\(chat)", "--count", "\(count)"], ["flush"]].enumerated() {
            let child = try await ChildProcess(binary, common + arguments)
            var sentThisRun = 0
            while let line = try await child.nextLine() {
                if line.hasPrefix("stored ") { stored.append(line) }
                if line.hasPrefix("sent ") { sentThisRun += 1 }
                if sentThisRun >= 20, line.hasPrefix("sending ") { break }
            }
            child.send(SIGKILL)
            #expect(try await child.exitStatus() == 128 + SIGKILL, "round \(round): \(child.stderrText)")
            acknowledged += sentThisRun
            let onServer = try await sent(server, chat: chat, by: 1).count
            #expect(onServer >= acknowledged && onServer < count, "round \(round): killed half-way, \(onServer) on the server")
        }
        #expect(stored.count == count, "every message was stored before the first send")

        let last = try await ChildProcess(binary, common + ["flush"])
        let (done, _) = try await last.lines { $0.hasPrefix("done ") }
        #expect(try await last.exitStatus() == 0, "\(last.stderrText)")
        #expect(done.hasSuffix("pending=0 failed=0"))

        let onServer = try await sent(server, chat: chat, by: 1)
        #expect(onServer.map(\.text) == (0 ..< count).map { "msg-\($0)" }, "each message once, in order")
        let storedClientIDs = stored.compactMap { $0.split(separator: " ").first { $0.hasPrefix("client=") }.map { String($0.dropFirst(7)) } }
        #expect(onServer.map { String($0.clientID ?? 0) } == storedClientIDs, "with the ids stored before sending")
        #expect(try await server.withServer { $0.core.statistics.messagesCreated } == count)
        await proxy.stop()
        try await server.stop()
    }
}

/// Pages collected on the engine's loop, read after a hop back from it.
private final class Outcome: Sendable {
    let pages = Mutex<[HistoryPage]>([])
}
