import LowbandClient
import LowbandFindings
import LowbandRunReport
import LowbandWire

/// Checks a messenger's promises at the end of a run, from the server's data, every engine's
/// cache and outbox, the observed screens and the ledger (docs/RUN.md, "Invariants").
///
/// Each promise is counted over the cases it applies to; a case that the run cannot judge (the
/// member was offline at the end, the run ended before the bound) is not counted. Every broken
/// case is a violation with its client, chat, message, time and the trace lines around it.
struct InvariantChecker {
    let context: RunContext
    let end: Duration
    let bounds: InvariantBounds
    /// The run's timeline (outages) and trace lines.
    let timeline: [TimelineEvent]
    let lines: [String]

    /// Where the checks are counted and the broken cases kept (the soak writes to one too).
    private(set) var book = PromiseBook()
    var checks: [InvariantCheck] { book.checks }
    var violations: [InvariantViolation] { book.violations }
    private var caches: [CacheKey: [Message]] = [:]

    private struct CacheKey: Hashable {
        var client: Int
        var chat: Int64
    }

    /// The promises a run judges, each under its `PromiseBook` name.
    static let promises: [(name: String, promise: String)] = [
        "acknowledged_lost", "duplicated", "order", "outbox_not_drained", "chat_list_mismatch", "cache_lost_after_kill", "liveness",
        "resource_bounds",
    ].map { ($0, PromiseBook.promise(named: $0)) }

    init(context: RunContext, end: Duration, timeline: [TimelineEvent], lines: [String], bounds: InvariantBounds) {
        self.context = context
        self.end = end
        self.timeline = timeline
        self.lines = lines
        self.bounds = bounds
    }

    /// Runs every check once.
    mutating func run(resources: [ResourceProbe.Reading]) {
        let healthy = healthyIntervals()
        let online = sessionIntervals()
        checkLost(online: online)
        checkDuplicates()
        checkOrder()
        checkOutbox(online: online)
        checkChatList(online: online)
        checkKills()
        checkLiveness(healthy: healthy)
        checkResources(resources)
        book.sortViolations()
    }

    // MARK: Health

    /// Per client: when its session was up. A session that stays up through an outage is
    /// delivering again when it ends (the bytes wait, TCP-like); the settle time covers that.
    private func sessionIntervals() -> [Int: Stretches] {
        var result: [Int: Stretches] = [:]
        for client in context.clients {
            result[client.index] = Stretches(sessions(of: client))
        }
        return result
    }

    private func sessions(of client: ScenarioClient) -> [Range<Double>] {
        (context.ledger.sessions[client.index] ?? []).map { seconds($0.start) ..< max(seconds($0.start), seconds(min($0.end ?? end, end))) }
    }

    /// Per client: when its session was up and no outage or fault kept the network away.
    private func healthyIntervals() -> [Int: Stretches] {
        var outages: [Range<Duration>] = []
        var openedAt: Duration?
        for event in timeline {
            let time = Duration.nanoseconds(Int64(event.seconds * 1e9))
            if event.kind == .outageStart, openedAt == nil { openedAt = time }
            if event.kind == .outageEnd, let start = openedAt {
                outages.append(start ..< time)
                openedAt = nil
            }
        }
        if let start = openedAt { outages.append(start ..< end) }
        var result: [Int: Stretches] = [:]
        for client in context.clients {
            let down = outages + context.ledger.networkDown.filter { $0.client == nil || $0.client == client.index }.map(\.span)
            result[client.index] = Stretches(sessions(of: client)).subtracting(Stretches(down.map { seconds($0.lowerBound) ..< seconds($0.upperBound) }))
        }
        return result
    }

    // MARK: The checks

    /// `acknowledged_lost`, judged by the shared judge over the server's store times, the
    /// sessions and every engine's cache (a member that logged in later may lack a message by
    /// design as long as its engine knows of the gap: the delta sync brings each chat's last
    /// message, the rest is fetched when the chat is opened).
    private mutating func checkLost(online: [Int: Stretches]) {
        var deliveries: [PromiseBook.Delivery] = []
        for message in newMessages() {
            guard let storedAt = serverStoreTime(of: message), let members = context.server.core.memberIDs(of: message.chatID) else { continue }
            var recipients: [PromiseBook.Recipient] = []
            for client in context.clients where !client.isDead && client.userID != message.senderID && members.contains(client.userID) {
                let has = Self.holds(cached(client: client.index, chat: message.chatID), id: message.id)
                // A login the server answered after storing the message, applied: its delta sync caught up.
                let caughtUp = (context.ledger.logins[client.index] ?? []).first { $0.requestArrivedAt >= storedAt && $0.applied }
                recipients.append(PromiseBook.Recipient(
                    device: "client \(client.index)", client: client.index, connected: online[client.index] ?? Stretches(), has: has,
                    knowsOfGap: !has && knowsOfGap(client: client, message: message), caughtUp: caughtUp.map { seconds($0.replyArrivedAt ?? $0.requestArrivedAt) }))
            }
            deliveries.append(PromiseBook.Delivery(
                message: "message \(message.id)", chat: "chat \(message.chatID)", confirmed: seconds(storedAt), confirmedHow: "stored by the server",
                place: PromiseBook.Place(chat: message.chatID, message: message.id, clientID: message.clientID), recipients: recipients,
                key: "message \(message.id)"))
        }
        book.checkDelivered(deliveries, settle: seconds(bounds.settle), end: seconds(end), explain: explain, traceLines: excerpt)
    }

    private mutating func checkDuplicates() {
        var checked = 0
        var broken = 0
        let core = context.server.core
        let stored = (Int64(1) ..< Int64(core.chatCount + 1)).map { chat in
            (core.messages(in: chat) ?? []).map { message in
                PromiseBook.StoredMessage(chat: chat, id: message.id, sender: message.senderID, clientID: message.clientID, seconds: seconds(storeTimeOrEnd(message)))
            }
        }
        let excerpt = self.excerpt
        let server = book.checkServerDuplicates(stored, traceLines: excerpt)
        checked += server.checked
        broken += server.broken
        var holdings: [PromiseBook.Holding] = []
        for client in context.clients {
            for chat in chats(of: client) {
                let messages = cached(client: client.index, chat: chat)
                // A cache that holds each (sender, client id) once breaks nothing: it adds its
                // count of them, as `checkHeldOnce` would count its distinct keys, without the
                // words of every message (the key text is one-to-one with the pair).
                if let distinct = Self.distinctSends(messages) {
                    checked += distinct
                    continue
                }
                let items = messages.compactMap { message -> (String, String, Double, PromiseBook.Place)? in
                    guard let clientID = message.clientID else { return nil }
                    return ("\(message.senderID)/\(clientID)", "client id \(clientID) of user \(message.senderID) (message \(message.id))", seconds(end),
                            PromiseBook.Place(client: client.index, chat: chat, message: message.id, clientID: clientID))
                }
                holdings.append(PromiseBook.Holding(device: "client \(client.index)", verb: "'s cache of chat \(chat) holds", items: items))
            }
        }
        for (client, screen) in liveScreens() {
            // A row is the same message as another when it has its id, or (a local echo against
            // the stored message) its sender and client id.
            let me = context.clients.first { $0.index == client }?.userID ?? -1
            let items = screen.rows.map { row -> (String, String, Double, PromiseBook.Place) in
                switch row.id {
                case .message(let id):
                    let key = row.message.clientID.map { "\(row.message.senderID)/\($0)" } ?? "m\(id)"
                    return (key, "message \(id)", seconds(end), PromiseBook.Place(client: client, chat: screen.chatID, message: id, clientID: row.message.clientID))
                case .outgoing(let clientID):
                    return ("\(me)/\(clientID)", "client id \(clientID) (as its local echo)", seconds(end), PromiseBook.Place(client: client, chat: screen.chatID, clientID: clientID))
                }
            }
            holdings.append(PromiseBook.Holding(device: "client \(client)", verb: "'s screen of chat \(screen.chatID) shows", items: items))
        }
        let held = book.checkHeldOnce(holdings, explain: explain, traceLines: excerpt)
        checked += held.checked
        broken += held.broken
        record("duplicated", checked: checked, violations: broken)
    }

    private mutating func checkOrder() {
        var checked = 0
        var broken = 0
        let ledger = context.ledger
        let core = context.server.core
        for client in context.clients {
            let written = ledger.stored.filter { $0.key.client == client.index }.sorted { $0.value.order < $1.value.order }
            let writes = written.compactMap { key, stored -> PromiseBook.Write? in
                guard let message = core.message(from: client.userID, clientID: key.clientID) else { return nil }
                return PromiseBook.Write(chat: stored.chat, clientID: key.clientID, messageID: message.id, seconds: seconds(storeTimeOrEnd(message)))
            }
            let excerpt = self.excerpt
            let writer = book.checkWrittenOrder(client: client.index, writes, explain: explain, traceLines: excerpt)
            checked += writer.checked
            broken += writer.broken
        }
        for (client, screen) in liveScreens() {
            let reference = (core.messages(in: screen.chatID) ?? []).map { "m\($0.id)" }
            let items = screen.rows.compactMap { row -> (String, String, Double, PromiseBook.Place)? in
                guard case .message(let id) = row.id else { return nil }
                return ("m\(id)", "message \(id)", seconds(end), PromiseBook.Place(client: client, chat: screen.chatID, message: id))
            }
            let screens = book.checkSameOrder(
                [PromiseBook.Sequence(device: "client \(client)'s screen", chat: "chat \(screen.chatID)", items: items)],
                reference: ("the server", reference), explain: explain, traceLines: excerpt)
            checked += screens.checked
            broken += screens.broken
        }
        record("order", checked: checked, violations: broken)
    }

    private mutating func checkOutbox(online: [Int: Stretches]) {
        var checked = 0
        var broken = 0
        let since = end - bounds.settle
        for client in context.clients where !client.isDead && since > .zero && (online[client.index]?.covers(seconds(since) ..< seconds(end)) ?? false) {
            checked += 1
            let pending = (try? client.engine.outbox.store.pendingTasks()) ?? []
            for task in pending where task.kind == .send {
                let storedAt = task.clientID.flatMap { context.ledger.stored[RunLedger.ClientKey(client: client.index, clientID: $0)]?.time } ?? .zero
                guard storedAt <= since else { continue }
                broken += 1
                let cause = task.clientID.flatMap { id in explain(.late(key: "client id \(id)", device: "client \(client.index)", sent: seconds(storedAt), until: seconds(end))) }
                violate("outbox_not_drained", at: end, client: client.index, chat: task.chatID, clientID: task.clientID, cause: cause,
                        "task \(task.id) (stored at \(format(storedAt)) s, \(task.attempts) attempt(s), last error: \(task.lastError ?? "none")) is still pending at the end, though client \(client.index) was online for the last \(format(bounds.settle)) s")
            }
        }
        record("outbox_not_drained", checked: checked, violations: broken)
    }

    private mutating func checkChatList(online: [Int: Stretches]) {
        var checked = 0
        var broken = 0
        let since = end - bounds.settle
        let core = context.server.core
        for client in context.clients where !client.isDead && since > .zero && (online[client.index]?.covers(seconds(since) ..< seconds(end)) ?? false) {
            guard let list = try? client.engine.sync.chats() else { continue }
            for chat in list {
                let cachedMessages = cached(client: client.index, chat: chat.id)
                guard let newest = cachedMessages.last else { continue }
                checked += 1
                if chat.lastMessage?.id != newest.id {
                    broken += 1
                    violate("chat_list_mismatch", at: end, client: client.index, chat: chat.id, message: newest.id, cause: finder.chatList(client: client.index, before: end),
                            "client \(client.index)'s chat list shows message \(chat.lastMessage.map { String($0.id) } ?? "none") as chat \(chat.id)'s last, but its cache holds \(newest.id)")
                }
                // The unread count is judged where the cache has what the server has.
                guard let serverNewest = core.messages(in: chat.id)?.last, serverNewest.id == newest.id,
                      let unread = core.unreadCount(of: client.userID, in: chat.id) else { continue }
                checked += 1
                if chat.unreadCount != unread {
                    broken += 1
                    violate("chat_list_mismatch", at: end, client: client.index, chat: chat.id, cause: finder.chatList(client: client.index, before: end),
                            "client \(client.index)'s chat list says \(chat.unreadCount) unread in chat \(chat.id); the messages stored say \(unread)")
                }
            }
        }
        record("chat_list_mismatch", checked: checked, violations: broken)
    }

    private mutating func checkKills() {
        var checked = 0
        var broken = 0
        for kill in context.ledger.kills {
            guard let client = context.clients.first(where: { $0.index == kill.client }) else { continue }
            checked += 1
            var have: Set<Int64> = []
            for chat in chats(of: client) { have.formUnion(cached(client: client.index, chat: chat).map(\.id)) }
            let missing = kill.messages.subtracting(have).sorted()
            let tasks = Set(((try? client.engine.outbox.store.allTasks()) ?? []).compactMap(\.clientID))
            let lostTasks = kill.tasks.subtracting(tasks).sorted()
            let cause = killCause(client: client.index, at: kill.time)
            if let first = missing.first {
                broken += 1
                violate("cache_lost_after_kill", at: kill.time, client: client.index, message: first, cause: cause,
                        "client \(client.index) was killed at \(format(kill.time)) s with \(kill.messages.count) messages cached; after its restart \(missing.count) are missing (first: \(first))")
            }
            if let first = lostTasks.first {
                broken += 1
                violate("cache_lost_after_kill", at: kill.time, client: client.index, clientID: first, cause: cause,
                        "client \(client.index) was killed at \(format(kill.time)) s; after its restart \(lostTasks.count) stored outbox task(s) are gone (first client id: \(first))")
            }
        }
        record("cache_lost_after_kill", checked: checked, violations: broken)
    }

    private mutating func checkLiveness(healthy: [Int: Stretches]) {
        let ledger = context.ledger
        let sends = ledger.stored.sorted(by: { ($0.key.client, $0.value.order) < ($1.key.client, $1.value.order) }).compactMap { key, stored -> PromiseBook.Send? in
            guard let delivering = healthy[key.client] else { return nil }
            return PromiseBook.Send(
                device: "client \(key.client)", message: "client id \(key.clientID)", chat: "chat \(stored.chat)", sent: seconds(stored.time),
                acked: ledger.acknowledged[key].map(seconds), delivering: delivering, place: PromiseBook.Place(client: key.client, chat: stored.chat, clientID: key.clientID),
                key: "client id \(key.clientID)")
        }
        book.checkLiveness(sends, bound: seconds(bounds.liveness), end: seconds(end), explain: explain, traceLines: excerpt)
    }

    private mutating func checkResources(_ readings: [ResourceProbe.Reading]) {
        var broken = 0
        for reading in readings where reading.peak > reading.cap {
            broken += 1
            violate("resource_bounds", at: reading.peakAt, client: reading.client,
                    "\(reading.name) reached \(reading.peak), over its cap of \(reading.cap)")
        }
        record("resource_bounds", checked: readings.count, violations: broken)
    }

    // MARK: Helpers

    /// Whether `client`'s engine will fetch `message` when its chat is opened: no cached range
    /// believed complete holds it, and the chat list's last message is at least as new.
    private func knowsOfGap(client: ScenarioClient, message: Message) -> Bool {
        guard let chunks = try? client.engine.messages.chunks(chatID: message.chatID),
              chunks.chunk(containing: message.id) == nil,
              let chats = try? client.engine.sync.chats(),
              let last = chats.first(where: { $0.id == message.chatID })?.lastMessage else { return false }
        return last.id >= message.id
    }

    /// Messages stored during the run (not part of the world the server started from).
    func newMessages() -> [Message] {
        var result: [Message] = []
        let core = context.server.core
        for history in context.world.chats {
            let initial = history.messages.last?.id ?? 0
            result += (core.messages(in: history.id) ?? []).filter { $0.id > initial }
        }
        return result
    }

    /// When the server stored `message`: when the send it came from arrived, or (a message
    /// another user wrote through the server) when its first push left.
    func serverStoreTime(of message: Message) -> Duration? {
        let ledger = context.ledger
        if let clientID = message.clientID, let sender = context.clients.first(where: { $0.userID == message.senderID }),
           let arrived = ledger.serverReceivedSend[RunLedger.ClientKey(client: sender.index, clientID: clientID)] {
            return arrived.time
        }
        return context.clients.compactMap { ledger.pushSent[RunLedger.DeliveryKey(client: $0.index, message: message.id)]?.first?.time }.min()
    }

    private func storeTimeOrEnd(_ message: Message) -> Duration {
        serverStoreTime(of: message) ?? end
    }

    private mutating func cached(client: Int, chat: Int64) -> [Message] {
        let key = CacheKey(client: client, chat: chat)
        if let known = caches[key] { return known }
        let engine = context.clients.first { $0.index == client }?.engine
        let messages = (try? engine?.messages.allMessages(chatID: chat)) ?? []
        caches[key] = messages
        return messages
    }

    /// Whether `messages`, in ascending id order (as ``LowbandClient/MessageStore/allMessages(chatID:)``
    /// gives them), hold the id: a binary search where a scan went through every message of the
    /// chat for each recipient of each message.
    static func holds(_ messages: [Message], id: Int64) -> Bool {
        var low = 0
        var high = messages.count
        while low < high {
            let middle = (low + high) / 2
            if messages[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < messages.count && messages[low].id == id
    }

    private struct Send: Hashable {
        var sender: Int64
        var clientID: UInt64
    }

    /// How many different (sender, client id) pairs `messages` hold, or nil when one is held
    /// twice.
    static func distinctSends(_ messages: [Message]) -> Int? {
        var seen = Set<Send>(minimumCapacity: messages.count)
        for message in messages {
            guard let clientID = message.clientID else { continue }
            guard seen.insert(Send(sender: message.senderID, clientID: clientID)).inserted else { return nil }
        }
        return seen.count
    }

    private func chats(of client: ScenarioClient) -> [Int64] {
        context.world.chats(of: client.userID).map(\.id)
    }

    private func liveScreens() -> [(Int, ChatScreenModel)] {
        context.screens.compactMap { entry in entry.screen.screen.map { (entry.client, $0) } }
    }

    private mutating func record(_ name: String, checked: Int, violations: Int) {
        book.record(name, checked: checked, violations: violations)
    }

    private mutating func violate(
        _ invariant: String, at time: Duration, client: Int? = nil, chat: Int64? = nil, message: Int64? = nil, clientID: UInt64? = nil,
        cause: PromiseBook.CaseExplanation? = nil, _ detail: String
    ) {
        let seconds = seconds(time)
        let excerpt = self.excerpt
        let because = cause.map { "; cause: \($0.cause)" + ($0.context.map { "; also near: \($0)" } ?? "") } ?? ""
        book.violate(invariant, seconds: seconds, client: client, chat: chat, message: message, clientID: clientID, detail: detail + because,
                     cause: cause?.cause, causeFault: cause?.fault) {
            excerpt(seconds, client, chat)
        }
    }

    /// The causes of broken cases, from the ledger and what the network and the faults did to
    /// each client's connections (``RunCauseFinder``).
    private var explain: PromiseBook.CaseExplainer {
        let finder = self.finder
        return { finder.explain($0) }
    }

    private var finder: RunCauseFinder {
        let core = context.server.core
        let clients = context.clients.map { ($0.userID, $0.index) }
        return RunCauseFinder(
            ledger: context.ledger, decisions: RunLinkDecisions(ledger: context.ledger, trace: context.trace, timeline: timeline),
            window: ReconnectCauses.window(heartbeat: context.options.heartbeat), end: end,
            written: { id in
                for chat in Int64(1) ..< Int64(core.chatCount + 1) {
                    guard let message = core.messages(in: chat)?.first(where: { $0.id == id }) else { continue }
                    guard let clientID = message.clientID, let client = clients.first(where: { $0.0 == message.senderID })?.1 else { return nil }
                    return (client, clientID)
                }
                return nil
            })
    }

    /// Why client `client` was killed at `time`: the played fault that killed it, or its scenario.
    private func killCause(client: Int, at time: Duration) -> PromiseBook.CaseExplanation {
        if let fault = context.ledger.faults.first(where: { $0.kind == .appKill && $0.skipped == nil && $0.client == client && $0.covers(time) }) {
            return PromiseBook.CaseExplanation(cause: "\(fault.described) killed client \(client)'s app; what it had stored before did not survive its restart", fault: fault.name, context: nil)
        }
        return PromiseBook.CaseExplanation(cause: "no fault: client \(client)'s app was killed at \(format(time)) s by its scenario; what it had stored before did not survive its restart", fault: nil, context: nil)
    }

    /// The trace lines a kept violation carries (a closure over the lines only, so it can run
    /// while the book changes).
    private var excerpt: (Double, Int?, Int64?) -> [String] {
        let lines = self.lines
        return { seconds, client, chat in TraceExcerpt.lines(near: seconds, client: client, chat: chat, in: lines) }
    }

    private func seconds(_ time: Duration) -> Double {
        Double(time.nanosecondsClamped) / 1e9
    }

    private func format(_ time: Duration) -> String {
        String(format: "%.3f", Double(time.nanosecondsClamped) / 1e9)
    }
}
