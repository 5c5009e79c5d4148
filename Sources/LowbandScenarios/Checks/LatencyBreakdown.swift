import LowbandRunReport
import LowbandShaper
import LowbandWire

/// Splits every delivered message's time, per receiver, into ``LatencyStage``s that add up to
/// the total exactly (docs/RUN.md, "Where the time went").
///
/// The instants come from the ledger (stored in the outbox, request handed to the link, request
/// at the server, push or login reply leaving the server, arriving at the receiver, applied to
/// its cache, visible on its screen); each stage is the time between two consecutive ones. A
/// crossing of the network is split further by the shaper's own decisions for the frame's bytes
/// (its connection, direction and place in the stream): the wait before the piece carrying its
/// last byte started across the bottleneck, less the time the flow was stalled on losses, is
/// queueing; from that start to arrival is transit. On sockets the proxy's connections are not
/// joined to the links, so a crossing is transit only.
struct LatencyBreakdown {
    let context: RunContext
    let storeTime: (Message) -> Duration?

    func compute(messages: [Message]) -> [MessageBreakdown] {
        var result: [MessageBreakdown] = []
        let ledger = context.ledger
        let core = context.server.core
        // Per chat, its members' clients in the run's order, and per user its first client:
        // looked up once, not scanned per message and receiver (52,394 deliveries in the
        // 100-client crowd hour).
        var clientsByChat: [Int64: [ScenarioClient]] = [:]
        var clientByUser: [Int64: ScenarioClient] = [:]
        for client in context.clients where clientByUser[client.userID] == nil {
            clientByUser[client.userID] = client
        }
        for message in messages {
            guard let storedAtServer = storeTime(message) else { continue }
            let inChat: [ScenarioClient]
            if let known = clientsByChat[message.chatID] {
                inChat = known
            } else {
                guard let members = core.memberIDs(of: message.chatID) else { continue }
                let memberSet = Set(members)
                inChat = context.clients.filter { memberSet.contains($0.userID) }
                clientsByChat[message.chatID] = inChat
            }
            let sender = clientByUser[message.senderID]
            var origin: [Duration] = [storedAtServer, storedAtServer, storedAtServer]
            var uplink = Crossing(sentAt: storedAtServer, arrivedAt: storedAtServer, placement: nil)
            var attempts = 0
            if let sender, let clientID = message.clientID {
                let key = RunLedger.ClientKey(client: sender.index, clientID: clientID)
                let tries = ledger.sendAttempts[key] ?? []
                attempts = tries.count
                if let stored = ledger.stored[key], let arrived = ledger.serverReceivedSend[key] {
                    let attempt = tries.last { $0.placement != nil && $0.placement == arrived.placement }
                        ?? tries.last { $0.time <= arrived.time }
                    let sentAt = attempt?.time ?? stored.time
                    origin = [stored.time, sentAt, arrived.time]
                    uplink = Crossing(sentAt: sentAt, arrivedAt: arrived.time, placement: ledger.resolved(arrived.placement ?? attempt?.placement))
                }
            }
            for receiver in inChat where receiver.userID != message.senderID {
                guard let breakdown = breakdown(of: message, to: receiver.index, origin: origin, uplink: uplink, storedAtServer: storedAtServer) else { continue }
                var row = MessageBreakdown(
                    message: message.id, chat: message.chatID, sender: sender?.index, receiver: receiver.index,
                    startSeconds: seconds(origin[0]), stages: breakdown.stages, carrier: breakdown.carrier, attempts: attempts)
                row.note = breakdown.note
                result.append(row)
            }
        }
        return result
    }

    private struct Crossing {
        var sentAt: Duration
        var arrivedAt: Duration
        var placement: FramePlacement?
    }

    private func breakdown(of message: Message, to receiver: Int, origin: [Duration], uplink: Crossing, storedAtServer: Duration) -> (stages: [Double], carrier: String, note: String?)? {
        let ledger = context.ledger
        let key = RunLedger.DeliveryKey(client: receiver, message: message.id)
        var downlink: Crossing
        var leftServer: Duration
        var requestAtServer: Duration?
        var applied: Duration
        let carrier: String
        if let arrived = ledger.pushArrived[key]?.first {
            let sent = ledger.pushSent[key]?.last { $0.placement != nil && $0.placement == arrived.placement }
                ?? ledger.pushSent[key]?.last { $0.time <= arrived.time }
            leftServer = sent?.time ?? arrived.time
            downlink = Crossing(sentAt: leftServer, arrivedAt: arrived.time, placement: ledger.resolved(arrived.placement))
            applied = ledger.applied[key] ?? arrived.time
            carrier = "push"
        } else if let login = (ledger.logins[receiver] ?? []).first(where: { $0.requestArrivedAt >= storedAtServer && $0.applied }),
                  let replySent = login.replySentAt, let replyArrived = login.replyArrivedAt {
            requestAtServer = login.requestArrivedAt
            leftServer = replySent
            downlink = Crossing(sentAt: replySent, arrivedAt: replyArrived, placement: ledger.resolved(login.replyPlacement))
            applied = (ledger.syncs[receiver] ?? []).first { $0 >= replyArrived } ?? replyArrived
            carrier = "login"
        } else {
            return nil
        }
        let visibleAt = ledger.visible[key].map { max($0, applied) } ?? applied
        // Instants in order; each never earlier than the one before, so the stages add up.
        var instants: [Duration] = []
        func mark(_ time: Duration) { instants.append(max(time, instants.last ?? time)) }
        mark(origin[0])
        mark(origin[1])
        let up = split(uplink, from: instants.last!, to: origin[2])
        mark(origin[2])
        mark(requestAtServer ?? origin[2])
        mark(leftServer)
        let down = split(downlink, from: instants.last!, to: max(downlink.arrivedAt, instants.last!))
        mark(downlink.arrivedAt)
        mark(applied)
        mark(visibleAt)
        let ms = { (from: Int, to: Int) in (instants[to] - instants[from]).milliseconds }
        var stages = [Double](repeating: 0, count: LatencyStage.allCases.count)
        func set(_ stage: LatencyStage, _ value: Double) { stages[LatencyStage.allCases.firstIndex(of: stage)!] = value }
        set(.outboxWait, ms(0, 1))
        set(.uplinkQueue, up.queue)
        set(.uplinkLossStalls, up.stalls)
        set(.uplinkTransit, ms(1, 2) - up.queue - up.stalls)
        set(.resyncWait, ms(2, 3))
        set(.server, ms(3, 4))
        set(.downlinkQueue, down.queue)
        set(.downlinkLossStalls, down.stalls)
        set(.downlinkTransit, ms(4, 5) - down.queue - down.stalls)
        set(.clientStore, ms(5, 6))
        set(.screenQueue, ms(6, 7))
        // A login carried it because its push died with its connection: the time the push waited
        // on that connection, while it was up, is the downlink's (queueing, loss stalls), not
        // time without a session.
        var note: String?
        if carrier == "login", let lost = lostPush(key, receiver: receiver, from: instants[2], to: instants[3]) {
            set(.resyncWait, ms(2, 3) - lost.queue - lost.stalls)
            set(.downlinkQueue, down.queue + lost.queue)
            set(.downlinkLossStalls, down.stalls + lost.stalls)
            note = lost.note
        }
        return (stages, carrier, note)
    }

    /// The push of `key` that left the server and never arrived: how long it waited on its
    /// connection within `start ..< end` while the receiver's session lasted, split into queueing
    /// and loss stalls (ms), and what ended the session.
    private func lostPush(_ key: RunLedger.DeliveryKey, receiver: Int, from start: Duration, to end: Duration) -> (queue: Double, stalls: Double, note: String)? {
        let ledger = context.ledger
        guard let sent = ledger.pushSent[key]?.last,
              let session = (ledger.sessions[receiver] ?? []).first(where: { $0.start <= sent.time && ($0.end.map { $0 > sent.time } ?? false) }),
              let closed = session.end else { return nil }
        let from = min(max(sent.time, start), end)
        let to = min(max(closed, from), end)
        guard to > from else { return nil }
        let placement = ledger.resolved(sent.placement)
        let flow = placement.flatMap { context.trace.flow(FlowKey(connection: $0.connection, direction: $0.direction)) }
        let stalled = Double(flow?.stalled(from: from.nanosecondsClamped, to: to.nanosecondsClamped) ?? 0) / 1e6
        let waited = (to - from).milliseconds
        // What ended it, in the engine's words (`timedOut`: a request got no reply while the link
        // stayed up, so the engine closed it).
        let cause = context.trace.timeline.last { $0.kind == .disconnect && $0.client == receiver && $0.seconds <= seconds(closed) + 1e-9 }
            .map { $0.detail == "timedOut" ? "timed out: nothing came back in time, so the engine closed the link" : $0.detail }
        let connection = placement.map { "connection \($0.connection)" } ?? "its connection"
        let note = String(
            format: "its push waited on %@ from %.3f s (%.1f s of it in loss stalls) until the session ended at %.3f s%@; the next login's delta sync carried it",
            connection, seconds(from), stalled / 1000, seconds(closed), cause.map { " (\($0))" } ?? "")
        return (waited - stalled, stalled, note)
    }

    /// Queueing and loss stalls of a crossing from `start` to `end` (ms); the rest is transit.
    private func split(_ crossing: Crossing, from start: Duration, to end: Duration) -> (queue: Double, stalls: Double) {
        guard let placement = crossing.placement, end > start,
              let flow = context.trace.flow(FlowKey(connection: placement.connection, direction: placement.direction)),
              let piece = flow.arrival(carrying: placement.streamEnd) else { return (0, 0) }
        let from = start.nanosecondsClamped
        let to = end.nanosecondsClamped
        let started = min(max(piece.startedAt, from), to)
        let stalled = flow.stalled(from: from, to: started)
        return (Double(started - from - stalled) / 1e6, Double(stalled) / 1e6)
    }

    private func seconds(_ time: Duration) -> Double {
        Double(time.nanosecondsClamped) / 1e9
    }
}
