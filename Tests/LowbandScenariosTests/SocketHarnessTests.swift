import LowbandClient
@testable import LowbandScenarios
import LowbandServer
import LowbandTestSupport
import LowbandWire
import Synchronization
import Testing

/// `lowband run` on sockets: the engines and the scenario run on a loop of their own, the
/// server on another, as in the push-to-visible benchmark.
/// Wall clock (scripts/test.sh runs it alone): runs a real socket `lowband run` of 12 s: in the parallel pass its setup's awaits waited 21 s for a pool thread, so the run ended before a client connected.
@Suite(.tags(.wallClock)) struct SocketRunLoopTests {
    /// Notes, when the writer's login reply has been stored (in SQLite, on the engine's loop),
    /// where that ran; and counts the messages the reader got through the real server.
    final class WhereItRuns: PlantedScenario {
        struct Seen: Sendable {
            var onRunLoop: Bool
            var onServerLoop: Bool
            var sameLoop: Bool
        }

        static let seen = Mutex<[Seen]>([])
        static let delivered = Mutex(0)

        override func writerLoggedIn() {
            guard let server = context.server as? LoopRunServer else {
                Self.seen.withLock { $0.append(Seen(onRunLoop: false, onServerLoop: true, sameLoop: true)) }
                return
            }
            let seen = Seen(onRunLoop: server.loop.inEventLoop, onServerLoop: server.serverLoop.inEventLoop, sameLoop: server.loop === server.serverLoop)
            Self.seen.withLock { $0.append(seen) }
        }

        override func readerGot(_ message: Message) {
            Self.delivered.withLock { $0 += 1 }
        }
    }

    @Test func theEnginesSQLiteWorkNeverRunsOnTheServersLoop() async throws {
        let options = ScenarioOptions(
            scenario: .crowd, profile: try ScenarioFixtures.profile("perfect"), seed: 3, clients: 2,
            duration: .seconds(12), virtualTime: false)
        let output = try await SocketRun.run(options, implementation: WhereItRuns.self)
        let seen = try #require(WhereItRuns.seen.withLock { $0.first })
        #expect(seen.onRunLoop && !seen.onServerLoop && !seen.sameLoop, "\(seen)")
        #expect(WhereItRuns.delivered.withLock { $0 } >= 1, "the writer's message reached the reader through the server's own loop")
        #expect(!output.record.hasViolations, "\(output.record.violations)")
    }

    /// A socket run's clock starts before its server, proxy and loops do; a setup longer than
    /// the whole run is an error naming both times, not a report of a run where nothing ran.
    @Test func aSetupThatOutlastsTheRunIsAnErrorNotAnEmptyReport() async throws {
        // Starting three loop groups, a server and a proxy takes far more than 1 ms.
        let options = ScenarioOptions(
            scenario: .crowd, profile: try ScenarioFixtures.profile("perfect"), seed: 3, clients: 2,
            duration: .milliseconds(1), virtualTime: false)
        let error = await #expect(throws: ScenarioError.self) {
            _ = try await SocketRun.run(options)
        }
        #expect(error?.code == .setupFailed)
        #expect(error?.message.contains("longer than the run's duration (0.0 s)") == true, "\(String(describing: error))")
    }
}
