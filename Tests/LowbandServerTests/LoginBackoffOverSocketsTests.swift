import LowbandFixtures
import LowbandServer
import LowbandTestSupport
import LowbandTransport
import LowbandWire
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// The login back-off over a socket: pipelined bad tokens do not get their delays in parallel,
/// because the connection is not read while a failed login's answer waits, and a client that
/// reconnects from the same address continues its back-off.
/// Wall clock (scripts/test.sh runs it alone): runs the server's real timers on the wall clock: a client starved for 30 s by the parallel pass meets the login timeout, which is not what it tests.
@Suite(.tags(.wallClock)) struct LoginBackoffOverSocketsTests {
    let loop = MultiThreadedEventLoopGroup.singleton.any()

    @Test func pipelinedBadTokensAreAnsweredOneDelayAfterAnother() async throws {
        let limits = ConnectionLimits(loginFailureDelay: .milliseconds(50), loginFailuresPerConnection: 5)
        let events = Mutex<[ServerEvent]>([])
        let server = try await MessengerSocketServer.start(
            world: MessengerWorld(seed: 7), configuration: ServerConfiguration(connections: limits), onEvent: { event in events.withLock { $0.append(event) } })
        let client = try await LoopClient.connect(port: server.port, loop: loop)
        let clock = ContinuousClock()
        let started = clock.now
        let codes = try await withThrowingTaskGroup(of: ErrorReply.Code.self) { group in
            for attempt in 0 ..< 5 {
                group.addTask {
                    let frame = try await client.send(raw: Frame.request(LoginRequest(token: "lb1-guess\(attempt)", lastSync: 0), sequence: UInt32(attempt + 1)))
                    return try frame.decode(ErrorReply.self).code
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let elapsed = clock.now - started
        #expect(codes == Array(repeating: .unauthorized, count: 5))
        // 50 + 100 + 200 + 400 + 800 ms, one after another; in parallel it would be 800 ms.
        #expect(elapsed >= .milliseconds(1550), "all five answered after \(elapsed)")
        _ = try await client.closed()
        #expect(events.withLock { $0.map(\.reason) } == [.loginFailures])
        try await server.stop()
    }

    @Test func reconnectingFromTheSameAddressDoesNotResetTheBackoff() async throws {
        let limits = ConnectionLimits(loginFailureDelay: .milliseconds(100), loginFailuresPerConnection: 2)
        let world = MessengerWorld(seed: 7)
        let server = try await MessengerSocketServer.start(world: world, configuration: ServerConfiguration(connections: limits))
        let clock = ContinuousClock()
        // Two connections, two failures each (100 + 200 ms, then the connection is closed).
        for connection in 0 ..< 2 {
            let client = try await LoopClient.connect(port: server.port, loop: loop)
            for attempt in 0 ..< 2 {
                let started = clock.now
                let frame = try await client.send(raw: Frame.request(LoginRequest(token: "lb1-guess\(connection)-\(attempt)", lastSync: 0), sequence: UInt32(attempt + 1)))
                #expect(try frame.decode(ErrorReply.self).code == .unauthorized)
                let elapsed = clock.now - started
                // Per connection alone, each first failure would wait 100 ms; from this address
                // the fourth failure waits 100 ms × 2³.
                let expected = Duration.milliseconds(100 * (1 << (connection * 2 + attempt)))
                #expect(elapsed >= expected, "connection \(connection), failure \(attempt + 1): answered after \(elapsed), expected at least \(expected)")
            }
            _ = try await client.closed()
        }
        try await server.stop()
    }
}
