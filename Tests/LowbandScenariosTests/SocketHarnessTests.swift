import LowbandClient
import LowbandScenarios
import LowbandServer
import Synchronization
import Testing

/// The library's socket harness: server, proxy and engines each on a loop of their own.
@Suite struct SocketHarnessTests {
    @Test func enginesRunOnALoopOfTheirOwnNeverTheServers() async throws {
        let harness = try await SocketHarness.start(SocketHarness.Configuration(server: ServerConfiguration(seed: 5)))
        let teardown: SocketHarness.Teardown
        do {
            let user = try #require(harness.server.world.users.first)
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
