import LowbandClient
import LowbandTransport
import LowbandWire

/// A server stand-in for connection tests: answers each frame with what `respond` returns.
final class ScriptedServer: FrameLinkAcceptor, FrameLinkDelegate {
    /// Frames to send back for a received request (on the same link).
    var respond: (Frame) -> [Frame]
    private(set) var links: [any FrameLink] = []
    private(set) var received: [Frame] = []

    init(respond: @escaping (Frame) -> [Frame] = ScriptedServer.standard) {
        self.respond = respond
    }

    func accept(_ link: any FrameLink) {
        links.append(link)
        link.delegate = self
    }

    func link(_ link: any FrameLink, didReceive frame: Frame) {
        received.append(frame)
        for reply in respond(frame) { link.send(reply) }
    }

    func linkDidClose(_ link: any FrameLink, error: (any Error)?) {
        links.removeAll { $0 === link }
    }

    /// Received requests of one command.
    func requests<M: WireRequest>(_ type: M.Type) -> [M] {
        received.filter { $0.command == M.command }.compactMap { try? $0.decode(M.self) }
    }

    /// Logs anyone in (server time 1000 + lastSync), pongs pings, answers history with an empty page.
    static func standard(_ frame: Frame) -> [Frame] {
        switch frame.command {
        case .login:
            let request = try! frame.decode(LoginRequest.self)
            return [try! .response(LoginReply(userID: 1, serverTime: 1_000 + request.lastSync, settings: nil, contacts: [], chats: []), sequence: frame.sequence)]
        case .ping:
            return [try! .response(Pong(serverTime: 5), sequence: frame.sequence)]
        case .history:
            let request = try! frame.decode(HistoryRequest.self)
            return [try! .response(HistoryReply(chatID: request.chatID, messages: [], reachedEnd: true), sequence: frame.sequence)]
        default:
            return []
        }
    }
}

/// Collects a connection's events.
final class ConnectionEvents: ConnectionObserver {
    var events: [ConnectionEvent] = []
    var logins: [LoginReply] { events.compactMap { if case .loggedIn(let reply) = $0 { reply } else { nil } } }
    var disconnects: Int { events.count { if case .disconnected = $0 { true } else { false } } }

    func connection(_ connection: Connection, didEmit event: ConnectionEvent) {
        events.append(event)
    }
}
