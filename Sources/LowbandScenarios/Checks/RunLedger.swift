import LowbandClient
import LowbandFindings
import LowbandShaper
import LowbandWire

/// Where the network had a frame: the connection (its `conn` in the trace), the direction and the frame's end in
/// that direction's byte stream (in virtual time; on sockets the proxy's numbering is not
/// joined to the links, so frames carry no placement there).
struct FramePlacement: Hashable {
    /// The connection's number (`conn` in the trace); on sockets resolved from
    /// ``clientPort`` at the end of the run (-1 until then).
    var connection: Int
    var direction: Direction
    var streamEnd: Int
    /// On sockets: the client socket's local port, which the proxy saw as the peer's.
    var clientPort: Int? = nil
}

/// Everything a run's checks and latency breakdown need, recorded as it happens: frames at
/// both ends of every link (the engines' side and the server's side), the engines' events and
/// the sessions. Confined to the run's scheduler, like everything it observes.
///
/// Frames are keyed by what identifies them at both ends — a send by its sender's client id,
/// a push by its message id, a login reply by its user and order — so the same code serves
/// sockets and virtual time.
final class RunLedger {
    struct ClientKey: Hashable {
        var client: Int
        var clientID: UInt64
    }

    struct DeliveryKey: Hashable {
        var client: Int
        var message: Int64
    }

    /// A message stored in an engine's outbox.
    struct Stored {
        var time: Duration
        var chat: Int64
        /// Order of storing among all of the client's messages.
        var order: Int
    }

    /// A session of one client: from the login applied to the link's loss (nil: still up).
    struct Session {
        var start: Duration
        var end: Duration?
    }

    /// A login as the server saw it, and its reply's way back.
    struct LoginExchange {
        var requestArrivedAt: Duration
        var replySentAt: Duration?
        var replyPlacement: FramePlacement?
        var replyArrivedAt: Duration?
        /// The engine applied the reply (a link the engine had already given up on delivers a
        /// reply the engine never reads).
        var applied = false
    }

    private(set) var stored: [ClientKey: Stored] = [:]
    /// How many messages each client has stored so far (the next one's order).
    private var storedOrder: [Int: Int] = [:]
    private(set) var acknowledged: [ClientKey: Duration] = [:]
    /// Every sendMessage frame an engine handed to its link, in order.
    private(set) var sendAttempts: [ClientKey: [(time: Duration, placement: FramePlacement?)]] = [:]
    /// The first sendMessage of a client id that reached the server (where it was stored).
    private(set) var serverReceivedSend: [ClientKey: (time: Duration, placement: FramePlacement?)] = [:]
    /// Pushes of a message the server sent towards a client, in order.
    private(set) var pushSent: [DeliveryKey: [(time: Duration, placement: FramePlacement?)]] = [:]
    /// Pushes of a message that reached a client's link, in order.
    private(set) var pushArrived: [DeliveryKey: [(time: Duration, placement: FramePlacement?)]] = [:]
    /// The engine applied the message from a push.
    private(set) var applied: [DeliveryKey: Duration] = [:]
    /// The row became visible on a screen of the client.
    private(set) var visible: [DeliveryKey: Duration] = [:]
    private(set) var logins: [Int: [LoginExchange]] = [:]
    private(set) var syncs: [Int: [Duration]] = [:]
    private(set) var sessions: [Int: [Session]] = [:]
    /// Killed apps: what their cache held and what their outbox had stored when they died.
    private(set) var kills: [(client: Int, time: Duration, messages: Set<Int64>, tasks: Set<UInt64>)] = []
    /// The scheduled faults as played, in schedule order (``RunFault``).
    private(set) var faults: [RunFault] = []
    /// Stretches in which a fault kept the network from delivering to one client (nil: all).
    private(set) var networkDown: [(client: Int?, span: Range<Duration>)] = []
    /// Per client, the connections its frames crossed, each from the first frame seen on it.
    private(set) var connectionsUsed: [Int: [(time: Duration, placement: FramePlacement)]] = [:]
    /// Where a server-side link belongs, once its login told.
    private var serverLinkClient: [ObjectIdentifier: Int] = [:]
    private var clientByToken: [String: Int] = [:]
    /// The placement the network reported for the frame being sent or delivered right now.
    private var pendingPlacement: (placement: FramePlacement, command: Command, sequence: UInt32)?

    /// On sockets: the trace's `conn` (the proxy's number) of a client port (set by the socket run).
    var traceConnection: (Int) -> Int? = { _ in nil }

    init() {}

    /// `placement` with its trace connection known, if it can be.
    func resolved(_ placement: FramePlacement?) -> FramePlacement? {
        guard var placement else { return nil }
        if let port = placement.clientPort {
            guard let connection = traceConnection(port) else { return nil }
            placement.connection = connection
            placement.clientPort = nil
        }
        return placement
    }

    /// Logins with `token` are client `client`'s.
    func register(token: String, client: Int) {
        clientByToken[token] = client
    }

    // MARK: Network placements (virtual time)

    /// The in-memory network is about to hand `frame` to an end (or has just taken it from
    /// one): remember where it is, for the link observer that sees it next.
    func place(_ placement: FramePlacement, command: Command, sequence: UInt32) {
        pendingPlacement = (placement, command, sequence)
    }

    private func takePlacement(for frame: Frame) -> FramePlacement? {
        guard let pending = pendingPlacement else { return nil }
        pendingPlacement = nil
        return pending.command == frame.command && pending.sequence == frame.sequence ? pending.placement : nil
    }

    // MARK: The engines' side of their links

    private func noteConnection(_ placement: FramePlacement?, client: Int, at time: Duration) {
        guard let placement else { return }
        if let last = connectionsUsed[client]?.last?.placement,
           last.connection == placement.connection, last.clientPort == placement.clientPort { return }
        connectionsUsed[client, default: []].append((time, placement))
    }

    /// The trace connection client `client` used last at or before `time`, if known.
    func connection(of client: Int, at time: Duration) -> Int? {
        guard let used = connectionsUsed[client]?.last(where: { $0.time <= time }) else { return nil }
        return resolved(used.placement)?.connection
    }

    func clientSent(_ frame: Frame, client: Int, at time: Duration, placement socketPlacement: FramePlacement? = nil) {
        let placement = takePlacement(for: frame) ?? socketPlacement
        noteConnection(placement, client: client, at: time)
        guard frame.command == .sendMessage, !frame.flags.contains(.response),
              let request = try? frame.decode(SendMessageRequest.self) else { return }
        sendAttempts[ClientKey(client: client, clientID: request.clientID), default: []].append((time, placement))
    }

    func clientReceived(_ frame: Frame, client: Int, at time: Duration, placement socketPlacement: FramePlacement? = nil) {
        let placement = takePlacement(for: frame) ?? socketPlacement
        noteConnection(placement, client: client, at: time)
        if frame.command == .pushNewMessage, frame.flags.contains(.push),
           let push = try? frame.decode(NewMessagePush.self) {
            pushArrived[DeliveryKey(client: client, message: push.message.id), default: []].append((time, placement))
        } else if frame.command == .login, frame.flags.contains(.response), !frame.flags.contains(.error) {
            guard var exchanges = logins[client] else { return }
            // Joined by place in the stream where the network told it; otherwise the newest reply
            // sent that has not arrived (a client's replies arrive in order).
            let matching = placement.flatMap { placement in exchanges.lastIndex { $0.replyPlacement == placement } }
            if let index = matching ?? exchanges.lastIndex(where: { $0.replySentAt != nil && $0.replyArrivedAt == nil && ($0.replySentAt ?? .zero) <= time }) {
                exchanges[index].replyArrivedAt = time
                if exchanges[index].replyPlacement == nil { exchanges[index].replyPlacement = placement }
                logins[client] = exchanges
            }
        }
    }

    // MARK: The server's side of its links

    func serverReceived(_ frame: Frame, link: ObjectIdentifier, at time: Duration) {
        let placement = takePlacement(for: frame)
        switch frame.command {
        case .login where !frame.flags.contains(.response):
            guard let request = try? frame.decode(LoginRequest.self), let client = clientByToken[request.token] else { return }
            serverLinkClient[link] = client
            logins[client, default: []].append(LoginExchange(requestArrivedAt: time))
        case .sendMessage where !frame.flags.contains(.response):
            guard let client = serverLinkClient[link], let request = try? frame.decode(SendMessageRequest.self) else { return }
            let key = ClientKey(client: client, clientID: request.clientID)
            if serverReceivedSend[key] == nil { serverReceivedSend[key] = (time, placement) }
        default:
            break
        }
    }

    func serverSent(_ frame: Frame, link: ObjectIdentifier, at time: Duration) {
        let placement = takePlacement(for: frame)
        guard let client = serverLinkClient[link] else { return }
        if frame.command == .pushNewMessage, frame.flags.contains(.push),
           let push = try? frame.decode(NewMessagePush.self) {
            pushSent[DeliveryKey(client: client, message: push.message.id), default: []].append((time, placement))
        } else if frame.command == .login, frame.flags.contains(.response), !frame.flags.contains(.error),
                  var exchanges = logins[client], let index = exchanges.lastIndex(where: { $0.replySentAt == nil }) {
            exchanges[index].replySentAt = time
            exchanges[index].replyPlacement = placement
            logins[client] = exchanges
        }
    }

    func serverLinkClosed(_ link: ObjectIdentifier) {
        serverLinkClient[link] = nil
    }

    // MARK: The engines

    func engine(_ event: ClientEvent, client: Int, at time: Duration) {
        switch event {
        case .synced:
            syncs[client, default: []].append(time)
            if var exchanges = logins[client],
               let index = exchanges.lastIndex(where: { $0.replyArrivedAt != nil && !$0.applied && ($0.replyArrivedAt ?? .zero) <= time }) {
                exchanges[index].applied = true
                logins[client] = exchanges
            }
            if sessions[client]?.last?.end == nil, sessions[client]?.isEmpty == false { return }
            sessions[client, default: []].append(Session(start: time))
        case .disconnected, .stopped:
            endSession(of: client, at: time)
        case .messageArrived(let message):
            let key = DeliveryKey(client: client, message: message.id)
            if applied[key] == nil { applied[key] = time }
        case .outbox(.stored(let task)):
            guard task.kind == .send, let clientID = task.clientID, let chat = task.chatID else { return }
            let order = storedOrder[client, default: 0]
            storedOrder[client] = order + 1
            stored[ClientKey(client: client, clientID: clientID)] = Stored(time: time, chat: chat, order: order)
        case .outbox(.sent(_, let message)):
            if let clientID = message.clientID {
                let key = ClientKey(client: client, clientID: clientID)
                if acknowledged[key] == nil { acknowledged[key] = time }
            }
        case .outbox:
            break
        }
    }

    func endSession(of client: Int, at time: Duration) {
        guard var list = sessions[client], let last = list.indices.last, list[last].end == nil else { return }
        list[last].end = time
        sessions[client] = list
    }

    func visible(message: Int64, client: Int, at time: Duration) {
        let key = DeliveryKey(client: client, message: message)
        if visible[key] == nil { visible[key] = time }
    }

    /// A scheduled fault was played (or not, `skipped` says why).
    func played(_ fault: RunFault) {
        faults.append(fault)
    }

    /// A fault took the network away from `client` (nil: every client) for `span`.
    func networkDown(client: Int?, _ span: Range<Duration>) {
        networkDown.append((client, span))
    }

    /// An app was killed: what it must still have when it starts again.
    func killed(client: Int, at time: Duration, cachedMessages: Set<Int64>, storedTasks: Set<UInt64>) {
        endSession(of: client, at: time)
        kills.append((client, time, cachedMessages, storedTasks))
    }
}
