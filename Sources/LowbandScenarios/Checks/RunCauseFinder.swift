import LowbandFindings
import LowbandRunReport

/// The cause of each broken case of `lowband run`, from the affected client's own frames in the
/// ledger (where the server wrote them, on which connection, whether they arrived) and what the
/// network and the played faults did to that connection (``RunLinkDecisions``): the decision
/// without which the case would not have broken, or, where nothing touched the message's own
/// bytes, that no fault did (the engine's own doing). The same `cause:` an app's session gets
/// (docs/RUN.md, "Why a promise broke").
struct RunCauseFinder {
    let ledger: RunLedger
    let decisions: RunLinkDecisions
    /// How far before a lost session its cause is looked for.
    let window: Duration
    let end: Duration
    /// The sender's client and client id of a stored message, where a client wrote it.
    let written: (Int64) -> (client: Int, clientID: UInt64)?

    typealias Explanation = PromiseBook.CaseExplanation

    func explain(_ broken: PromiseBook.BrokenCase) -> Explanation? {
        switch broken {
        case .lost(let key, let recipient, let confirmed):
            guard let message = Self.number(after: "message ", in: key), let client = Self.client(recipient) else { return nil }
            return lost(message: message, client: client, confirmed: .seconds(confirmed))
        case .late(let key, let device, let sent, let until):
            guard let clientID = Self.number(after: "client id ", in: key).map(UInt64.init), let client = Self.client(device) else { return nil }
            return late(clientID: clientID, client: client, sent: .seconds(sent), until: .seconds(until))
        case .duplicated(let key, let device, let first, let second):
            guard let client = Self.client(device) else { return nil }
            return duplicated(key: key, client: client, first: .seconds(first), second: .seconds(second))
        case .order(let device, let earlier, let later, _) where earlier.hasPrefix("client id "):
            // A writer's own order: the one written first was stored after the other.
            guard let client = Self.client(device), let first = Self.number(after: "client id ", in: earlier).map(UInt64.init),
                  let second = Self.number(after: "client id ", in: later).map(UInt64.init) else { return nil }
            return writtenOrder(client: client, first: first, second: second)
        case .order(let device, let earlier, let later, let at):
            guard let client = Self.client(device), let early = Self.number(after: "m", in: earlier), let late = Self.number(after: "m", in: later) else { return nil }
            return order(client: client, earlier: early, later: late, at: .seconds(at))
        }
    }

    // MARK: The promises

    private func lost(message: Int64, client: Int, confirmed: Duration) -> Explanation {
        let key = RunLedger.DeliveryKey(client: client, message: message)
        let near = { (cause: RunFault?) in self.context(client: client, around: confirmed, excluding: cause) }
        if let applied = ledger.applied[key] {
            let arrived = ledger.pushArrived[key]?.first.map { "its push arrived at \(words($0.time)) s and " } ?? ""
            return Explanation(
                cause: "no fault touched message \(message) on client \(client)'s link: \(arrived)client \(client)'s engine applied it at \(words(applied)) s; its cache does not hold it now",
                fault: nil, context: near(nil))
        }
        if let arrived = ledger.pushArrived[key]?.first {
            return Explanation(
                cause: "no fault touched message \(message) on client \(client)'s link: its push arrived at \(words(arrived.time)) s\(on(arrived.placement)); client \(client)'s engine did not apply it",
                fault: nil, context: near(nil))
        }
        if let push = ledger.pushSent[key]?.last {
            let connection = ledger.resolved(push.placement)?.connection
            let wrote = "the push of message \(message) the server wrote to client \(client) at \(words(push.time)) s\(on(push.placement)) never arrived"
            guard let connection else {
                return Explanation(cause: "\(wrote); the connection it was written to is not known, so no network decision can be named", fault: nil, context: near(nil))
            }
            if let ended = decisions.ending(connection: connection, client: client, after: push.time, before: end) {
                return Explanation(cause: "\(wrote): \(ended.words)", fault: ended.fault?.name, context: near(ended.fault))
            }
            return Explanation(cause: "\(wrote), and no fault touched its connection after it", fault: nil, context: near(nil))
        }
        // No push: where was the client's session when the message was stored?
        let sessions = ledger.sessions[client] ?? []
        if let before = sessions.last(where: { $0.start <= confirmed }), let ended = before.end, ended <= confirmed {
            let back = sessions.first { $0.start > confirmed }.map { "\(words($0.start)) s" } ?? "the end"
            let gap = "client \(client) had no session from \(words(ended)) s to \(back); message \(message) was stored at \(words(confirmed)) s, inside that gap, and its history was not fetched"
            if let why = decisions.sessionEnd(client: client, at: ended, window: window) {
                return Explanation(cause: "\(gap); its session ended after \(why.words)", fault: why.fault?.name, context: near(why.fault))
            }
            return Explanation(cause: "\(gap); no fault touched its link before its engine gave the session up", fault: nil, context: near(nil))
        }
        if sessions.first(where: { $0.start > confirmed }) != nil, sessions.allSatisfy({ $0.start > confirmed }) {
            return Explanation(
                cause: "client \(client) had not logged in yet when message \(message) was stored at \(words(confirmed)) s, and its history was not fetched; no fault touched it",
                fault: nil, context: near(nil))
        }
        let connection = ledger.connection(of: client, at: confirmed)
        if let connection, let ended = decisions.ending(connection: connection, client: client, after: confirmed - window, before: confirmed) {
            return Explanation(
                cause: "the server wrote no push of message \(message) to client \(client), whose engine still had a session: \(ended.words) before it was stored at \(words(confirmed)) s",
                fault: ended.fault?.name, context: near(ended.fault))
        }
        return Explanation(
            cause: "no fault touched message \(message) on client \(client)'s link: the server wrote client \(client) no push of it, though client \(client) had a session when it was stored at \(words(confirmed)) s",
            fault: nil, context: near(nil))
    }

    private func late(clientID: UInt64, client: Int, sent: Duration, until: Duration) -> Explanation {
        let attempts = ledger.sendAttempts[RunLedger.ClientKey(client: client, clientID: clientID)] ?? []
        let near = { (cause: RunFault?) in self.context(client: client, around: sent, excluding: cause) }
        guard let first = attempts.first else {
            return Explanation(
                cause: "no fault touched client id \(clientID) on client \(client)'s link: client \(client)'s engine never handed it to its link between \(words(sent)) s and \(words(until)) s",
                fault: nil, context: near(nil))
        }
        let connection = ledger.resolved(first.placement)?.connection
        let again = attempts.count > 1 ? " (sent again at \(words(attempts[1].time)) s)" : ""
        let left = "client \(client)'s send of client id \(clientID) left at \(words(first.time)) s\(on(first.placement))\(again)"
        if let connection, let ended = decisions.ending(connection: connection, client: client, after: first.time, before: until) {
            return Explanation(cause: "\(left) and got no acknowledgement on it: \(ended.words)", fault: ended.fault?.name, context: near(ended.fault))
        }
        if let held = decisions.longestHold(connection: connection, client: client, from: first.time, to: until) {
            return Explanation(cause: "\(left): \(held.words)", fault: held.fault?.name, context: near(held.fault))
        }
        guard connection != nil else {
            return Explanation(cause: "\(left); the connection it was written to is not known, so no network decision on it can be named", fault: nil, context: near(nil))
        }
        return Explanation(cause: "no fault touched client id \(clientID)'s bytes on client \(client)'s link: \(left), and nothing held or ended its connection until \(words(until)) s", fault: nil, context: near(nil))
    }

    private func duplicated(key: String, client: Int, first: Duration, second: Duration) -> Explanation {
        let near = { (cause: RunFault?) in self.context(client: client, around: second, excluding: cause) }
        // `user/clientID`: the writer's sends of it.
        let parts = key.split(separator: "/")
        if parts.count == 2, let user = Int(parts[0]), let clientID = UInt64(parts[1]) {
            let sender = user - 1
            let attempts = ledger.sendAttempts[RunLedger.ClientKey(client: sender, clientID: clientID)] ?? []
            guard attempts.count > 1 else {
                return Explanation(cause: "no fault touched it: client \(sender) sent client id \(clientID) \(attempts.isEmpty ? "through no link this run saw" : "once, at \(words(attempts[0].time)) s")", fault: nil, context: near(nil))
            }
            let twice = "client \(sender) sent client id \(clientID) again at \(words(attempts[1].time)) s after sending it at \(words(attempts[0].time)) s\(on(attempts[0].placement))"
            if let connection = ledger.resolved(attempts[0].placement)?.connection,
               let ended = decisions.ending(connection: connection, client: sender, after: attempts[0].time, before: attempts[1].time) {
                return Explanation(cause: "\(twice): \(ended.words) before its acknowledgement came back", fault: ended.fault?.name, context: near(ended.fault))
            }
            return Explanation(cause: "no fault touched it: \(twice), and nothing ended that connection in between", fault: nil, context: near(nil))
        }
        guard let message = Self.number(after: "m", in: key) else { return Explanation(cause: "no fault touched it", fault: nil, context: near(nil)) }
        let arrivals = ledger.pushArrived[RunLedger.DeliveryKey(client: client, message: message)] ?? []
        guard arrivals.count > 1 else {
            return Explanation(cause: "no fault touched message \(message) on client \(client)'s link: its push arrived \(arrivals.isEmpty ? "never (it came with a sync)" : "once")", fault: nil, context: near(nil))
        }
        let twice = "message \(message) reached client \(client) twice, at \(words(arrivals[0].time)) s and again at \(words(arrivals[1].time)) s"
        if let connection = ledger.resolved(arrivals[0].placement)?.connection,
           let ended = decisions.ending(connection: connection, client: client, after: arrivals[0].time, before: arrivals[1].time) {
            return Explanation(cause: "\(twice), after \(ended.words)", fault: ended.fault?.name, context: near(ended.fault))
        }
        return Explanation(cause: "no fault touched it: \(twice)", fault: nil, context: near(nil))
    }

    private func order(client: Int, earlier: Int64, later: Int64, at: Duration) -> Explanation {
        let near = { (cause: RunFault?) in self.context(client: client, around: at, excluding: cause) }
        // The message that should have come first came late: its own way to the screen.
        if let writer = written(earlier), writer.client == client {
            let acked = ledger.acknowledged[RunLedger.ClientKey(client: client, clientID: writer.clientID)] ?? end
            let late = self.late(clientID: writer.clientID, client: client, sent: ledger.stored[RunLedger.ClientKey(client: client, clientID: writer.clientID)]?.time ?? .zero, until: acked)
            return Explanation(
                cause: "client \(client)'s own message \(earlier) was acknowledged only at \(words(acked)) s, after message \(later) was on its screen: \(late.cause)",
                fault: late.fault, context: late.context)
        }
        let key = RunLedger.DeliveryKey(client: client, message: earlier)
        guard let push = ledger.pushSent[key]?.first, let arrived = ledger.pushArrived[key]?.first else {
            return Explanation(cause: "no fault touched message \(earlier) on client \(client)'s link: it came with a sync, not a push", fault: nil, context: near(nil))
        }
        let connection = ledger.resolved(push.placement)?.connection
        let way = "message \(earlier)'s push left the server at \(words(push.time)) s and arrived at \(words(arrived.time)) s, after message \(later)"
        if let held = decisions.longestHold(connection: connection, client: client, from: push.time, to: arrived.time) {
            return Explanation(cause: "\(way): \(held.words)", fault: held.fault?.name, context: near(held.fault))
        }
        return Explanation(cause: "no fault touched it: \(way)", fault: nil, context: near(nil))
    }

    private func writtenOrder(client: Int, first: UInt64, second: UInt64) -> Explanation {
        let key = RunLedger.ClientKey(client: client, clientID: first)
        let stored = ledger.stored[key]?.time ?? .zero
        let arrived = ledger.serverReceivedSend[key]?.time ?? end
        let late = self.late(clientID: first, client: client, sent: stored, until: arrived)
        return Explanation(
            cause: "client id \(first) reached the server only at \(words(arrived)) s, after client id \(second): \(late.cause)", fault: late.fault, context: late.context)
    }

    /// A chat list that disagrees with the cache at `before`: the latest send of `client` whose
    /// first connection ended before its acknowledgement came back (a lost reply the list was
    /// counted around, then sent again), or that no fault touched the client's link in the
    /// run. Nil when faults touched it but no such send explains it.
    func chatList(client: Int, before: Duration) -> Explanation? {
        var latest: (decision: RunLinkDecisions.Decision, clientID: UInt64, again: Duration)?
        for (key, attempts) in ledger.sendAttempts where key.client == client && attempts.count > 1 {
            guard let connection = ledger.resolved(attempts[0].placement)?.connection,
                  let ended = decisions.ending(connection: connection, client: client, after: attempts[0].time, before: attempts[1].time),
                  ended.time <= before else { continue }
            if latest.map({ ended.time > $0.decision.time || (ended.time == $0.decision.time && key.clientID < $0.clientID) }) ?? true {
                latest = (ended, key.clientID, attempts[1].time)
            }
        }
        if let latest {
            return Explanation(
                cause: "client \(client)'s send of client id \(latest.clientID) lost its reply: \(latest.decision.words); it was sent again at \(words(latest.again)) s, and the chat list was counted around it",
                fault: latest.decision.fault?.name, context: context(client: client, around: latest.decision.time, excluding: latest.decision.fault))
        }
        let connections = Set((ledger.connectionsUsed[client] ?? []).compactMap { ledger.resolved($0.placement)?.connection })
        let touched = !decisions.faults(touching: client, from: .zero, to: before).isEmpty
            || decisions.trace.resets.contains { connections.contains($0.connection) } || decisions.trace.forgotten.contains { connections.contains($0.connection) }
        return touched ? nil : Explanation(cause: "no fault touched client \(client)'s link in the run: its engine counted the list wrong itself", fault: nil, context: nil)
    }

    // MARK: Helpers

    /// The other played faults that touched the client within 30 s of `time`, in words.
    private func context(client: Int, around time: Duration, excluding: RunFault?) -> String? {
        let others = decisions.faults(touching: client, from: time - .seconds(30), to: time + .seconds(30))
            .filter { $0.name != excluding?.name }.prefix(3).map(\.described)
        return others.isEmpty ? nil : others.joined(separator: "; ")
    }

    private func on(_ placement: FramePlacement?) -> String {
        ledger.resolved(placement).map { " on connection \($0.connection)" } ?? ""
    }

    private func words(_ time: Duration) -> String {
        RunFault.words(time)
    }

    /// `client 3` (or `client 3's screen`) → 3.
    static func client(_ device: String) -> Int? {
        number(after: "client ", in: device).map(Int.init)
    }

    /// The digits right after `prefix` at the start of `text`.
    static func number(after prefix: String, in text: String) -> Int64? {
        guard text.hasPrefix(prefix) else { return nil }
        return Int64(text.dropFirst(prefix.count).prefix { $0.isNumber })
    }
}
