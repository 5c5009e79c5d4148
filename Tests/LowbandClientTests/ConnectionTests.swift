import LowbandClient
import LowbandDeterminism
import LowbandSimulation
import LowbandTransport
import LowbandWire
import Testing

@Suite struct ConnectionTests {
    let scheduler = VirtualScheduler()
    let log = ClientLog()

    private func makeConnection(_ server: ScriptedServer, network: InMemoryNetwork, configuration: ConnectionConfiguration = ConnectionConfiguration(), lastSync: @escaping () -> ServerTime = { 0 }) -> (Connection, ConnectionEvents) {
        let connection = Connection(
            connector: network.makeConnector(to: server), scheduler: scheduler, configuration: configuration,
            generator: SeededGenerator(seed: 9), log: log,
            loginRequest: { LoginRequest(token: "t", lastSync: lastSync()) })
        let events = ConnectionEvents()
        connection.observer = events
        return (connection, events)
    }

    @Test func unexpectedRepliesAreLoggedAndDroppedWhileTheRealRepliesArrive() throws {
        let server = ScriptedServer()
        let network = InMemoryNetwork(scheduler: scheduler, configuration: .init(latency: .milliseconds(50)))
        server.respond = { frame in
            guard frame.command == .history else { return ScriptedServer.standard(frame) }
            let request = try! frame.decode(HistoryRequest.self)
            let page = HistoryReply(chatID: request.chatID, messages: [], reachedEnd: true)
            return [
                try! .response(page, sequence: frame.sequence + 1_000),  // nobody asked
                try! .response(SendMessageReply(message: Message(id: 1, chatID: 1, senderID: 1, text: "?", sentAt: 0)), sequence: frame.sequence),  // wrong type
                try! .response(page, sequence: frame.sequence),
            ]
        }
        let (connection, events) = makeConnection(server, network: network)
        connection.start()
        scheduler.advance(by: .seconds(1))
        #expect(events.logins.count == 1)
        var pages: [Int64] = []
        for chat in [4, 5] as [Int64] {
            connection.send(HistoryRequest(chatID: chat, anchor: nil, direction: .older, count: 10)) { result in
                if case .success(let reply) = result { pages.append(reply.chatID) }
            }
        }
        scheduler.advance(by: .seconds(1))
        #expect(pages == [4, 5])
        #expect(log.entries(for: "unexpectedReply").count == 4)
        #expect(connection.statistics.unexpectedFrames == 4)
        #expect(connection.isLoggedIn)
    }

    @Test func aRequestTimesOutAloneAndTheConnectionCarriesOn() {
        let server = ScriptedServer()
        let network = InMemoryNetwork(scheduler: scheduler, configuration: .init(latency: .milliseconds(10)))
        server.respond = { frame in frame.command == .markRead ? [] : ScriptedServer.standard(frame) }
        let (connection, _) = makeConnection(server, network: network, configuration: ConnectionConfiguration(requestTimeout: .seconds(2)))
        connection.start()
        scheduler.advance(by: .seconds(1))
        var outcome: ClientError?
        connection.send(MarkReadRequest(chatID: 1, messageID: 1)) { result in
            if case .failure(let error) = result { outcome = error }
        }
        scheduler.advance(by: .seconds(3))
        #expect(outcome?.code == .timedOut)
        var page: HistoryReply?
        connection.send(HistoryRequest(chatID: 1, anchor: nil, direction: .older, count: 1)) { page = try? $0.get() }
        scheduler.advance(by: .seconds(1))
        #expect(page != nil)
    }

    @Test func requestsWhileOfflineFailAtOnceWithNotConnected() {
        let server = ScriptedServer()
        let network = InMemoryNetwork(scheduler: scheduler)
        let (connection, _) = makeConnection(server, network: network)
        var outcome: ClientError?
        connection.send(HistoryRequest(chatID: 1, anchor: nil, direction: .older, count: 1)) { result in
            if case .failure(let error) = result { outcome = error }
        }
        scheduler.runUntilIdle()
        #expect(outcome?.code == .notConnected)
    }

    @Test func theHeartbeatFindsASilentLinkDeadAndReconnects() {
        let server = ScriptedServer()
        let network = InMemoryNetwork(scheduler: scheduler, configuration: .init(latency: .milliseconds(20)))
        var silent = false
        server.respond = { frame in silent && frame.command == .ping ? [] : ScriptedServer.standard(frame) }
        let configuration = ConnectionConfiguration(heartbeatInterval: .seconds(5), heartbeatTimeout: .seconds(2), backoff: Backoff(initialDelay: .milliseconds(100), jitter: 0))
        let (connection, events) = makeConnection(server, network: network, configuration: configuration)
        connection.start()
        scheduler.advance(by: .seconds(12))
        #expect(connection.statistics.pings == 2, "a quiet link is pinged every interval")
        #expect(events.disconnects == 0)
        silent = true
        scheduler.advance(by: .seconds(8))
        #expect(events.disconnects == 1, "the unanswered ping closed the link")
        #expect(events.logins.count == 2, "and it reconnected")
        #expect(network.connections.count == 2)
        connection.stop()
        scheduler.runUntilIdle()
    }

    @Test func reconnectsWithBackoffAndLogsInWithTheCursorEachTime() {
        let server = ScriptedServer()
        let network = InMemoryNetwork(scheduler: scheduler, configuration: .init(latency: .milliseconds(10)))
        var cursor: ServerTime = 0
        let configuration = ConnectionConfiguration(backoff: Backoff(initialDelay: .seconds(1), maximumDelay: .seconds(4), jitter: 0))
        let (connection, events) = makeConnection(server, network: network, configuration: configuration, lastSync: { cursor })
        connection.start()
        scheduler.advance(by: .seconds(1))
        cursor = events.logins.last!.serverTime
        network.refusesConnections = true
        network.cut()
        let cutAt = scheduler.now
        scheduler.advance(by: .seconds(9))
        // Attempts after 1 s, then 2 s, 4 s, 4 s back-off (each refusal takes a 20 ms round trip).
        #expect(connection.statistics.connectAttempts == 4)
        network.refusesConnections = false
        scheduler.advance(by: .seconds(5))
        #expect(events.logins.count == 2)
        #expect(server.requests(LoginRequest.self).map(\.lastSync) == [0, 1_000])
        #expect(scheduler.now - cutAt >= .seconds(11))
        connection.stop()
        scheduler.runUntilIdle()
    }

    @Test func aRefusedTokenStopsWithoutRetrying() {
        let server = ScriptedServer { frame in
            [try! .error(ErrorReply(code: .unauthorized, text: "unknown token"), command: frame.command, sequence: frame.sequence)]
        }
        let network = InMemoryNetwork(scheduler: scheduler, configuration: .init(latency: .milliseconds(10)))
        let (connection, events) = makeConnection(server, network: network)
        connection.start()
        scheduler.runUntilIdle()
        guard case .stopped(let error) = events.events.last else { Issue.record("\(events.events)"); return }
        #expect(error.code == .unauthorized)
        #expect(network.connections.count == 1)
    }
}
