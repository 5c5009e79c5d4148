import Foundation
import LowbandDeterminism
import LowbandFixtures
import LowbandServer
import LowbandShaper
import LowbandSimulation
import LowbandTestSupport
import LowbandTesting
import LowbandTransport
import LowbandWire
import Testing

/// The server behind an in-memory network on a virtual clock, plain and shaped by a real
/// profile: the same scenarios as over sockets, plus timing and determinism.
@Suite struct ServerInMemoryTests {
    static let profiles: String = {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("profiles").path
    }()

    @Test func loginSendAndPushOverAPlainNetwork() throws {
        let world = try VirtualWorld(WorldDescription(seed: 7, network: .latency(.milliseconds(40))))
        let (scheduler, server, network) = (world.scheduler, world.server, world.network)
        let connector = network.makeConnector(to: server)
        let (chat, first, second, _) = try world.world.pairWithOutsider()
        let alice = FrameTestClient(scheduler: scheduler)
        let bob = FrameTestClient(scheduler: scheduler)
        try alice.connect(connector)
        try bob.connect(connector)
        let aliceLogin = try alice.call(LoginRequest(token: world.world.user(first)!.token, lastSync: 0))
        _ = try bob.call(LoginRequest(token: world.world.user(second)!.token, lastSync: 0))
        #expect(aliceLogin.userID == first)
        #expect(server.connectionCount == 2)

        let sentAt = scheduler.now
        let reply = try alice.call(SendMessageRequest(chatID: chat.id, clientID: 1, text: "Увидимся завтра на вокзале"))
        try bob.awaitPushes(1)
        let push = try #require(bob.takePushes().first)
        #expect(try push.frame.decode(NewMessagePush.self).message == reply.message)
        #expect(push.time == sentAt + .milliseconds(80), "one way up, one way down")
        #expect(reply.message.sentAt == MessengerFixtures.epoch + (sentAt + .milliseconds(40)).milliseconds)

        // Byte counters: the full login dominates the downstream bytes.
        let downstream = network.traffic(.downstream)
        #expect(downstream.sent == downstream.delivered)
        #expect(downstream.sent.frames == 2 + 1 + 1)
        #expect(network.connections[0].downstream.sent.bytes > 3_000)
        #expect(network.connections[0].upstream.sent.bytes < 300)
    }

    @Test func aDeltaLoginOverEdgeIsFarSmallerAndFasterThanAFullOne() throws {
        let edge = try NetworkProfile.load(named: "edge", searchPath: [Self.profiles])
        let world = try VirtualWorld(WorldDescription(seed: 7, shape: .init(users: 40, chatsPerUser: 15, messagesPerChat: 30), network: .profile(edge), networkSeed: 3))
        let (scheduler, server, network) = (world.scheduler, world.server, world.network)
        let connector = network.makeConnector(to: server)
        let user: Int64 = 1
        let token = world.world.user(user)!.token

        let client = FrameTestClient(scheduler: scheduler)
        try client.connect(connector)
        let fullStart = scheduler.now
        let full = try client.call(LoginRequest(token: token, lastSync: 0))
        let fullTime = scheduler.now - fullStart
        let fullBytes = network.connections[0].downstream.delivered.bytes

        // While the client is away, someone writes in one of its chats.
        client.link?.close()
        scheduler.advance(by: .seconds(30))
        let chat = try #require(full.chats.first)
        let writer = try #require(chat.memberIDs.first { $0 != user })
        try server.post("ты где? 🤔", in: chat.id, from: writer)

        try client.connect(connector)
        let deltaStart = scheduler.now
        let delta = try client.call(LoginRequest(token: token, lastSync: full.serverTime))
        let deltaTime = scheduler.now - deltaStart
        let deltaBytes = network.connections[1].downstream.delivered.bytes
        #expect(delta.chats.map(\.id) == [chat.id])
        #expect(fullBytes > 10 * deltaBytes, "full \(fullBytes) bytes vs delta \(deltaBytes)")
        #expect(fullTime > deltaTime + .milliseconds(200), "full \(fullTime) vs delta \(deltaTime) over EDGE")
    }

    /// One scripted session over EDGE; every frame delivery with its time and size.
    private func edgeRun(seed: UInt64) throws -> (deliveries: [InMemoryDelivery], trace: [ShaperEvent], messages: [Message]) {
        let trace = ShaperTraceRecorder()
        let edge = try NetworkProfile.load(named: "edge", searchPath: [Self.profiles])
        let world = try VirtualWorld(WorldDescription(seed: 5, network: .profile(edge), networkSeed: seed), trace: trace)
        let (scheduler, server, network) = (world.scheduler, world.server, world.network)
        var deliveries: [InMemoryDelivery] = []
        network.onDelivery = { deliveries.append($0) }
        let (chat, first, second, _) = try world.world.pairWithOutsider()
        let alice = FrameTestClient(scheduler: scheduler)
        let bob = FrameTestClient(scheduler: scheduler)
        let connector = network.makeConnector(to: server)
        try alice.connect(connector)
        try bob.connect(connector)
        _ = try alice.call(LoginRequest(token: world.world.user(first)!.token, lastSync: 0))
        _ = try bob.call(LoginRequest(token: world.world.user(second)!.token, lastSync: 0))
        var anchor: Int64?
        for index in 0 ..< 3 {
            let page = try alice.call(HistoryRequest(chatID: chat.id, anchor: anchor, direction: .older, count: 15))
            anchor = page.messages.first?.id
            try alice.send(SendMessageRequest(chatID: chat.id, clientID: UInt64(index), text: "message \(index) 📷"))
        }
        try server.post("from the web", in: chat.id, from: second)
        try bob.awaitPushes(4)
        try alice.awaitPushes(1)
        scheduler.runUntilIdle()
        return (deliveries, trace.events, server.core.messages(in: chat.id) ?? [])
    }

    @Test func twoRunsWithOneSeedDeliverTheSameBytesAtTheSameTimes() throws {
        let first = try edgeRun(seed: 9)
        let second = try edgeRun(seed: 9)
        #expect(first.deliveries.count > 10)
        #expect(first.deliveries == second.deliveries)
        #expect(first.trace == second.trace)
        #expect(first.messages == second.messages, "the same server times too")
        let other = try edgeRun(seed: 10)
        #expect(other.deliveries.map(\.time) != first.deliveries.map(\.time))
    }

    @Test func clientsReconnectAfterTheServerWasDownAndCatchUp() throws {
        let world = try VirtualWorld(WorldDescription(seed: 7, network: .latency(.milliseconds(100))))
        let (scheduler, server, network) = (world.scheduler, world.server, world.network)
        let connector = network.makeConnector(to: server)
        let (chat, reader, writer, _) = try world.world.pairWithOutsider()
        let client = FrameTestClient(scheduler: scheduler)
        try client.connect(connector)
        let login = try client.call(LoginRequest(token: world.world.user(reader)!.token, lastSync: 0))

        // The server goes down: connections reset, new ones refused.
        network.refusesConnections = true
        network.cut()
        try client.run(until: "the reset") { !client.isConnected }
        #expect((client.closes.last as? TransportError)?.code == .connectionReset)
        #expect(server.connectionCount == 0 && server.core.openSessions.isEmpty)
        #expect(throws: TransportError.self) { try client.connect(connector) }
        scheduler.advance(by: .seconds(5))
        try server.post("while you were away", in: chat.id, from: writer)

        network.refusesConnections = false
        try client.connect(connector)
        let delta = try client.call(LoginRequest(token: world.world.user(reader)!.token, lastSync: login.serverTime))
        #expect(delta.chats.map(\.id) == [chat.id])
        #expect(delta.chats.first?.lastMessage?.text == "while you were away")
        // The server dropping connections itself (disconnectAll) is seen as a clean close.
        server.disconnectAll()
        try client.run(until: "the close") { !client.isConnected }
        #expect(client.closes.last! == nil)
    }
}

extension Duration {
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
