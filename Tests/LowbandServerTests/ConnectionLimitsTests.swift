import LowbandDeterminism
import LowbandFixtures
import LowbandServer
import LowbandSimulation
import LowbandTesting
import LowbandTransport
import LowbandWire
import Testing

/// ``ConnectionLimits`` on a virtual clock: idle and login timeouts, the caps on connections
/// and on sessions per user, and the login back-off — each with the reason the server reports.
@Suite struct ConnectionLimitsTests {
    /// A server with `limits` behind a plain in-memory network (50 ms each way), and its events.
    private final class Setup {
        let world: VirtualWorld
        var scheduler: VirtualScheduler { world.scheduler }
        var server: MessengerServer { world.server }
        var network: InMemoryNetwork { world.network }
        let connector: any FrameConnector
        var events: [ServerEvent] = []

        init(_ limits: ConnectionLimits = ConnectionLimits()) throws {
            world = try VirtualWorld(WorldDescription(world: MessengerWorld(seed: 7), server: ServerConfiguration(connections: limits), network: .latency(.milliseconds(50))))
            connector = world.network.makeConnector(to: world.server)
            world.server.onEvent = { [unowned self] in events.append($0) }
        }

        func client(loggedInAs userID: Int64? = nil) throws -> FrameTestClient {
            let client = FrameTestClient(scheduler: scheduler)
            try client.connect(connector)
            if let userID {
                _ = try client.call(LoginRequest(token: world.world.user(userID)!.token, lastSync: 0))
            }
            return client
        }

        /// Moves the clock to `time`.
        func run(to time: Duration) {
            scheduler.advance(to: time)
        }
    }

    // MARK: Idle and login timeouts

    @Test func aSilentSessionIsClosedAfterTheIdleTimeout() throws {
        let setup = try Setup()
        let client = try setup.client(loggedInAs: 1)
        let loggedInAt = setup.scheduler.now
        setup.run(to: loggedInAt + .seconds(599))
        #expect(client.isConnected)
        setup.run(to: loggedInAt + .seconds(601))
        #expect(!client.isConnected)
        let event = try #require(setup.events.first)
        #expect(event.reason == .idle && event.userID == 1)
        #expect(event.description.contains("no frame either way for 600 s"), "\(event)")
        #expect(setup.server.connectionCount == 0 && setup.server.core.sessions(of: 1).isEmpty)
    }

    /// The client engine pings after 20 s without news; a session that only pings is not idle.
    @Test func pingsEveryTwentySecondsKeepASessionForTenMinutes() throws {
        let setup = try Setup()
        let client = try setup.client(loggedInAs: 1)
        for _ in 0 ..< 30 {
            setup.run(to: setup.scheduler.now + .seconds(20))
            _ = try client.call(Ping(clientTime: 0))
        }
        #expect(client.isConnected && setup.events.isEmpty)
    }

    /// A client that only listens sends nothing while pushes keep arriving (the engine pings
    /// only when nothing arrived for 20 s): frames sent to it count, so it stays.
    @Test func aSessionThatOnlyReceivesPushesIsNotIdle() throws {
        let setup = try Setup()
        let (chat, listener, writer, _) = try setup.world.world.pairWithOutsider()
        let client = try setup.client(loggedInAs: listener)
        for index in 0 ..< 40 {
            setup.run(to: setup.scheduler.now + .seconds(15))
            try setup.server.post("news \(index)", in: chat.id, from: writer)
        }
        try client.awaitPushes(40)
        #expect(client.isConnected && setup.events.isEmpty)
    }

    @Test func aConnectionThatNeverLogsInIsClosedAfterTheLoginTimeout() throws {
        let setup = try Setup(ConnectionLimits(loginTimeout: .seconds(10)))
        let client = try setup.client()
        let openedAt = setup.scheduler.now
        // Pings before login are answered 401 and keep the link busy, not logged in.
        for _ in 0 ..< 4 {
            setup.run(to: setup.scheduler.now + .seconds(2))
            #expect(throws: ErrorReply.self) { try client.call(Ping(clientTime: 0)) }
        }
        setup.run(to: openedAt + .seconds(11))
        #expect(!client.isConnected)
        #expect(setup.events.map(\.reason) == [.loginTimeout])
    }

    // MARK: Caps

    @Test func connectionsOverTheCapAreClosedAtOnce() throws {
        let setup = try Setup(ConnectionLimits(maximumConnections: 2))
        let first = try setup.client(loggedInAs: 1)
        let second = try setup.client(loggedInAs: 2)
        let third = FrameTestClient(scheduler: setup.scheduler)
        try third.connect(setup.connector)
        try third.run(until: "the third connection closed") { !third.isConnected }
        #expect(first.isConnected && second.isConnected)
        let event = try #require(setup.events.first)
        #expect(event.reason == .connectionLimit && event.session == nil)
        #expect(event.description == "refused a connection: connection-limit: 2 connections are open; the limit is 2")
        // One leaves: the next one is served.
        try #require(first.link).close()
        setup.run(to: setup.scheduler.now + .seconds(1))
        let fourth = try setup.client(loggedInAs: 3)
        #expect(fourth.isConnected && setup.server.connectionCount == 2)
    }

    /// A messenger keeps the device in use: a login over the cap closes the user's oldest session.
    @Test func aLoginOverTheSessionCapClosesTheUsersOldestSession() throws {
        let setup = try Setup(ConnectionLimits(sessionsPerUser: 2))
        let (chat, user, writer, _) = try setup.world.world.pairWithOutsider()
        let phone = try setup.client(loggedInAs: user)
        let laptop = try setup.client(loggedInAs: user)
        let other = try setup.client(loggedInAs: writer)
        let tablet = try setup.client(loggedInAs: user)
        try phone.run(until: "the oldest session closed") { !phone.isConnected }
        #expect(laptop.isConnected && tablet.isConnected && other.isConnected)
        let event = try #require(setup.events.first)
        #expect(event.reason == .sessionLimit && event.userID == user)
        #expect(setup.server.core.sessions(of: user).count == 2)
        // Pushes go to the two sessions left.
        try setup.server.post("still here", in: chat.id, from: writer)
        try laptop.awaitPushes(1)
        try tablet.awaitPushes(1)
    }

    // MARK: Login back-off

    @Test func badTokensAreAnsweredSlowerAndSlowerThenTheConnectionCloses() throws {
        let setup = try Setup()
        let client = try setup.client()
        var waits: [Duration] = []
        for attempt in 0 ..< 5 {
            let sentAt = setup.scheduler.now
            let sequence = try client.send(LoginRequest(token: "lb1-guess\(attempt)", lastSync: 0))
            let (time, frame) = try client.response(to: sequence)
            #expect(try frame.decode(ErrorReply.self).code == .unauthorized)
            waits.append(time - sentAt - .milliseconds(100))
        }
        #expect(waits == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4)])
        try client.run(until: "closed after the fifth failure") { !client.isConnected }
        #expect(setup.events.map(\.reason) == [.loginFailures])
        // A good token on a new connection is answered at once.
        let sentAt = setup.scheduler.now
        let fresh = try setup.client(loggedInAs: 1)
        #expect(fresh.isConnected && setup.scheduler.now - sentAt < .seconds(1))
    }

    // MARK: The guard alone

    @Test func aStalledSessionClosesOnlyWhenItsClientTakesNothing() {
        var standing = SessionGuard(limits: ConnectionLimits(outboundStallTimeout: .seconds(30)), openedAt: .zero)
        standing.loginSucceeded()
        standing.outboundLimitCrossed(isOver: true, at: .seconds(1), written: 1000)
        #expect(standing.deadline == .seconds(31))
        // It read a little: another 30 s.
        #expect(standing.check(at: .seconds(31), outboundBytesWritten: 5000) == nil)
        #expect(standing.deadline == .seconds(61))
        let closing = standing.check(at: .seconds(61), outboundBytesWritten: 5000)
        #expect(closing?.reason == .outboundStalled)
        // Back under the low mark: no stall deadline at all.
        standing.outboundLimitCrossed(isOver: false, at: .seconds(62), written: 9000)
        standing.active(at: .seconds(62))
        #expect(standing.deadline == .seconds(662))
    }
}
