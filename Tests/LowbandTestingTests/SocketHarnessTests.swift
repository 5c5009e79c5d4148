import LowbandFixtures
import LowbandTestSupport
import LowbandTesting
import Synchronization
import Testing

/// The library's socket harness: server, proxy and engines each on a loop of their own.
/// Wall clock (scripts/test.sh runs it alone): real sockets and timers; in the parallel pass a starved test meets the engine's login timeout.
@Suite(.tags(.wallClock)) struct SocketHarnessTests {
    @Test func enginesRunOnALoopOfTheirOwnNeverTheServers() async throws {
        let harness = try await SocketHarness.start(SocketHarness.Configuration(world: MessengerWorld(seed: 5)))
        let teardown: SocketHarness.Teardown
        do {
            let user = try #require(harness.world.users.first)
            let engine = try await harness.startEngine(ClientConfiguration(token: user.token, databasePath: harness.databasePath("a.sqlite"), seed: 5))
            let serverLoop = harness.serverLoop
            let engineLoop = engine.scheduler.eventLoop
            #expect(engineLoop !== serverLoop)
            // The login reply is applied (one SQLite transaction) in an engine event; the
            // condition runs right after it, on the same turn of the same loop.
            let ran = Mutex<(engineLoop: Bool, serverLoop: Bool)?>(nil)
            try await engine.waitUntil(timeout: .seconds(30)) { engine in
                guard try engine.sync.lastSync() != 0 else { return false }
                ran.withLock { $0 = (engineLoop.inEventLoop, serverLoop.inEventLoop) }
                return true
            }
            let seen = try #require(ran.withLock { $0 })
            #expect(seen.engineLoop && !seen.serverLoop, "the engine's SQLite work ran on its own loop")
            #expect(try await harness.server.connectionCount == 1, "the engine logged in through the proxy")
            teardown = try await harness.stop()
        } catch {
            _ = try? await harness.stop()
            throw error
        }
        #expect(teardown.isClean, "\(teardown)")
    }
}


/// One ``WorldDescription``, two transports: the same seeded server and network in memory on
/// the virtual clock and live on loopback sockets through the shaping proxy.
/// Wall clock (scripts/test.sh runs it alone): real sockets and timers; in the parallel pass a starved test meets the engine's login timeout.
@Suite(.tags(.wallClock)) struct WorldTransportTests {
    @Test func oneDescriptionRunsInMemoryAndOnSockets() async throws {
        let description = WorldDescription(seed: 11, network: .latency(.milliseconds(20)))

        let virtual = try VirtualWorld(description)
        let chat = try #require(virtual.chats(of: 1).first { $0.memberIDs.contains(2) })
        let alice = try virtual.makeClient(user: 1)
        let bob = try virtual.makeClient(user: 2)
        #expect(virtual.advance(until: { alice.isLoggedIn && bob.isLoggedIn }))
        let sentAt = virtual.now
        try alice.engine.send(text: "over memory", to: chat.id)
        #expect(virtual.advance(until: { bob.arrived.contains { $0.text == "over memory" } }))
        #expect(virtual.now - sentAt == .milliseconds(40), "one way up, one way down, 20 ms each")

        let live = try await SocketHarness.start(SocketHarness.Configuration(description))
        do {
            #expect(live.world.users.map(\.token) == virtual.world.users.map(\.token), "the same seeded data")
            #expect(live.world.chats.map(\.memberIDs) == virtual.world.chats.map(\.memberIDs))
            #expect(live.configuration.profile.downlink.delay == .milliseconds(20) && live.configuration.shaperSeed == 11)
            let users = live.world.users
            let sender = try await live.startEngine(ClientConfiguration(token: users[0].token, databasePath: live.databasePath("a.sqlite"), seed: 1))
            let reader = try await live.startEngine(ClientConfiguration(token: users[1].token, databasePath: live.databasePath("b.sqlite"), seed: 2))
            for engine in [sender, reader] {
                try await engine.waitUntil(timeout: .seconds(30)) { try $0.sync.lastSync() != 0 }
            }
            let chatID = chat.id
            _ = try await sender.withEngine { engine in try engine.send(text: "over sockets", to: chatID).id }
            try await reader.waitUntil(timeout: .seconds(30)) { engine in
                try engine.messages.allMessages(chatID: chatID).contains { $0.text == "over sockets" }
            }
            let teardown = try await live.stop()
            #expect(teardown.isClean, "\(teardown)")
        } catch {
            _ = try? await live.stop()
            throw error
        }
    }
}
