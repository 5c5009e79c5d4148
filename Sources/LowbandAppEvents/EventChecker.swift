import Foundation
public import LowbandFindings

/// Checks a messenger's promises from what its apps said they did (``AppEvent``s) and what the
/// network did (``NetworkRecord``), into a `PromiseBook` under the same names
/// as `lowband run`'s checks (docs/APP-EVENTS.md, "Promises"):
///
/// - `acknowledged_lost`: a message its sender saw acknowledged reaches every other member of
///   its chat that is connected for the settle bound afterwards;
/// - `duplicated`: no device shows (or, without `shown` events, receives) a message twice;
/// - `order`: every device has a chat's messages in the same order;
/// - `liveness`: a send is acknowledged within the liveness bound of time in which its device
///   was connected and the link delivered.
///
/// A chat's members are the devices that named it in any event. A device that never says
/// `connected` or `disconnected` counts as connected from its first event to the end.
public struct EventChecker: Sendable {
    /// The promises the events can judge, with their words for an app.
    public static let promises: [(name: String, promise: String)] = [
        ("acknowledged_lost", "a message its sender saw acknowledged reaches every member connected for the settle bound afterwards"),
        ("duplicated", "no device shows a message twice"),
        ("order", "every device has a chat's messages in the same order"),
        ("liveness", "a send is acknowledged within the liveness bound while its device is connected and the link delivers"),
    ]

    /// The events judged, in arrival order.
    public let events: [AppEvent]
    /// What the network did meanwhile.
    public let network: NetworkRecord
    /// The bounds the promises are judged with.
    public let bounds: EventBounds
    /// The session's end (seconds).
    public let end: Double

    /// A checker of `events` (in arrival order) over a session that ended at `end` seconds.
    public init(events: [AppEvent], network: NetworkRecord, bounds: EventBounds, end: Double) {
        self.events = events.sorted { $0.arrival < $1.arrival }
        self.network = network
        self.bounds = bounds
        self.end = end
    }

    /// Runs every check once.
    public func check() -> PromiseBook {
        var book = PromiseBook()
        let model = Model(events)
        let finder = CauseFinder(events: events, network: network)
        let explain = explainer(model, finder)
        checkLost(model, &book, explain)
        checkDuplicates(model, &book, explain)
        checkOrder(model, &book, explain)
        checkLiveness(model, &book, explain, links: finder.links)
        book.sortViolations()
        return book
    }

    // MARK: The checks (judged by PromiseBook's shared judges, as `lowband run`'s are)

    private var networkWords: PromiseBook.NetworkWords {
        let network = self.network
        return { network.describe(from: $0, to: $1) }
    }

    /// Each broken case's cause, from the affected devices' own connections and bytes
    /// (``CauseFinder``), with what else the network did near it, the affected link's first.
    private func explainer(_ model: Model, _ finder: CauseFinder) -> PromiseBook.CaseExplainer {
        let network = self.network
        return { broken in
            let cause: Cause
            let window: (Double, Double)
            switch broken {
            case .lost(let key, let recipient, let confirmed):
                guard let info = model.messages[key], let sender = info.sender, let sent = info.sent else { return nil }
                cause = finder.lost(message: key, sender: sender, sent: sent, acked: confirmed, recipient: recipient)
                window = (confirmed - 2, confirmed + 2)
            case .duplicated(let key, let device, let first, let second):
                guard let info = model.messages[key], let sender = info.sender, let sent = info.sent else { return nil }
                cause = finder.duplicated(message: key, sender: sender, sent: sent, device: device, first: first, second: second)
                window = (first - 1, second)
            case .order(let device, let earlier, let later, let at):
                guard let first = model.messages[earlier], let second = model.messages[later], let firstSender = first.sender, let firstSent = first.sent,
                    let secondSender = second.sender, let secondSent = second.sent
                else { return nil }
                cause = finder.order(device: device, earlier: (earlier, firstSender, firstSent), later: (later, secondSender, secondSent), at: at)
                window = (min(firstSent, secondSent), at)
            case .late(let key, let device, let sent, let until):
                cause = finder.late(message: key, sender: device, sent: sent, until: until)
                window = (sent, until)
            }
            let context = network.describe(from: window.0, to: window.1, first: cause.link, most: 4, excluding: cause.fault)
            return PromiseBook.CaseExplanation(
                cause: cause.text, fault: cause.fault, context: context == "nothing: the links delivered" ? nil : context)
        }
    }

    private func checkLost(_ model: Model, _ book: inout PromiseBook, _ explain: PromiseBook.CaseExplainer) {
        var deliveries: [PromiseBook.Delivery] = []
        for message in model.messageOrder {
            guard let info = model.messages[message], let acked = info.acked, let chat = info.chat else { continue }
            let recipients = model.members[chat, default: []].sorted().filter { $0 != info.sender }.map { device in
                PromiseBook.Recipient(device: device, connected: Stretches(model.sessions(of: device, end: end)), has: model.arrivals[Pair(device: device, message: message)] != nil)
            }
            deliveries.append(PromiseBook.Delivery(
                message: "message \(message)", chat: "chat \(chat)", confirmed: acked, confirmedHow: "acknowledged to \(info.sender ?? "?")",
                place: PromiseBook.Place(), recipients: recipients, key: message))
        }
        book.checkDelivered(
            deliveries, settle: Self.seconds(bounds.settle), end: end, promise: Self.promise("acknowledged_lost"), network: networkWords,
            explain: explain)
    }

    private func checkDuplicates(_ model: Model, _ book: inout PromiseBook, _ explain: PromiseBook.CaseExplainer) {
        var holdings: [String: PromiseBook.Holding] = [:]
        for event in events {
            guard let message = event.message, event.kind == model.displayKind(of: event.device) else { continue }
            let chat = model.messages[message]?.chat ?? "?"
            let verb = event.kind == .shown ? " showed" : " received"
            holdings[event.device, default: PromiseBook.Holding(device: event.device, verb: verb, items: [])].items
                .append((message, "message \(message) of chat \(chat)", event.seconds, PromiseBook.Place()))
        }
        let tally = book.checkHeldOnce(holdings.keys.sorted().compactMap { holdings[$0] }, network: networkWords, explain: explain)
        book.record("duplicated", checked: tally.checked, violations: tally.broken, promise: Self.promise("duplicated"))
    }

    private func checkOrder(_ model: Model, _ book: inout PromiseBook, _ explain: PromiseBook.CaseExplainer) {
        var checked = 0
        var broken = 0
        for chat in model.chatOrder {
            let sequences = model.sequences[chat, default: [:]]
            // The device with the most of the chat's messages is the reference.
            guard let reference = sequences.max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) }) else { continue }
            let others = sequences.sorted { $0.key < $1.key }.filter { $0.key != reference.key }.map { device, items in
                PromiseBook.Sequence(device: device, chat: "chat \(chat)", items: items.map { ($0.message, "message \($0.message)", $0.at, PromiseBook.Place()) })
            }
            let tally = book.checkSameOrder(others, reference: (reference.key, reference.value.map(\.message)), network: networkWords, explain: explain)
            checked += tally.checked
            broken += tally.broken
        }
        book.record("order", checked: checked, violations: broken, promise: Self.promise("order"))
    }

    private func checkLiveness(_ model: Model, _ book: inout PromiseBook, _ explain: PromiseBook.CaseExplainer, links: DeviceLinks) {
        let sends = model.messageOrder.compactMap { message -> PromiseBook.Send? in
            guard let info = model.messages[message], let sender = info.sender, let sent = info.sent else { return nil }
            // Down time of the sender's own link (every link where it is not known).
            let link = links.link(of: sender)
            let down = Stretches(network.spans.filter { $0.down && (link == nil || $0.proxy == link) }.map { $0.start ..< max($0.start, $0.end) })
            return PromiseBook.Send(
                device: sender, message: "message \(message)", chat: "chat \(info.chat ?? "?")", sent: sent, acked: info.acked,
                delivering: Stretches(model.sessions(of: sender, end: end)).subtracting(down), place: PromiseBook.Place(), key: message)
        }
        book.checkLiveness(
            sends, bound: Self.seconds(bounds.liveness), end: end, promise: Self.promise("liveness"), network: networkWords, explain: explain)
    }

    // MARK: The events, arranged

    struct Pair: Hashable {
        var device: String
        var message: String
    }

    struct MessageInfo {
        var chat: String?
        var sender: String?
        var sent: Double?
        var acked: Double?
    }

    /// The events arranged per message, device and chat.
    struct Model {
        var messages: [String: MessageInfo] = [:]
        var messageOrder: [String] = []
        var chatOrder: [String] = []
        var members: [String: Set<String>] = [:]
        /// First arrival of a message at a device (received, shown or stored).
        var arrivals: [Pair: Double] = [:]
        var showsOn: Set<String> = []
        /// Per chat and device: the messages in the order the device had them (its own sends included).
        var sequences: [String: [String: [(message: String, at: Double)]]] = [:]
        var connections: [String: [(connected: Bool, at: Double)]] = [:]
        var firstSeen: [String: Double] = [:]

        init(_ events: [AppEvent]) {
            showsOn = Set(events.filter { $0.kind == .shown }.map(\.device))
            var placed: Set<Pair> = []
            for event in events {
                let at = event.seconds
                if firstSeen[event.device] == nil { firstSeen[event.device] = at }
                if let chat = event.chat {
                    if members[chat] == nil { chatOrder.append(chat) }
                    members[chat, default: []].insert(event.device)
                }
                switch event.kind {
                case .connected, .disconnected:
                    connections[event.device, default: []].append((event.kind == .connected, at))
                    continue
                default:
                    break
                }
                guard let message = event.message else { continue }
                if messages[message] == nil { messageOrder.append(message) }
                var info = messages[message] ?? MessageInfo()
                if info.chat == nil { info.chat = event.chat }
                let pair = Pair(device: event.device, message: message)
                switch event.kind {
                case .sent:
                    if info.sender == nil {
                        info.sender = event.device
                        info.sent = at
                    }
                case .acked:
                    if info.acked == nil, info.sender == nil || info.sender == event.device {
                        info.sender = info.sender ?? event.device
                        info.acked = at
                    }
                case .received, .shown, .stored:
                    if arrivals[pair] == nil { arrivals[pair] = at }
                default:
                    break
                }
                messages[message] = info
                // The order a device has a chat's messages in: its own sends, and what it displays.
                let counts = event.kind == .sent || event.kind == displayKind(of: event.device)
                if counts, let chat = info.chat, placed.insert(pair).inserted {
                    sequences[chat, default: [:]][event.device, default: []].append((message, at))
                }
            }
        }

        /// What counts as displaying a message on `device`: `shown` where the device reports
        /// shows, else `received`.
        func displayKind(of device: String) -> AppEvent.Kind {
            showsOn.contains(device) ? .shown : .received
        }

        /// When `device` was connected, as stretches (seconds).
        func sessions(of device: String, end: Double) -> [Range<Double>] {
            guard let marks = connections[device], !marks.isEmpty else {
                return firstSeen[device].map { [$0 ..< max($0, end)] } ?? []
            }
            var result: [Range<Double>] = []
            var since: Double? = nil
            for mark in marks {
                if mark.connected {
                    if since == nil { since = mark.at }
                } else if let start = since {
                    result.append(start ..< max(start, mark.at))
                    since = nil
                }
            }
            if let start = since { result.append(start ..< max(start, end)) }
            return result
        }
    }

    // MARK: Words

    static func promise(_ name: String) -> String {
        promises.first { $0.name == name }?.promise ?? name
    }

    static func seconds(_ duration: Duration) -> Double {
        NetworkRecord.seconds(duration)
    }

    static func format(_ seconds: Double) -> String {
        String(format: "%.1f", seconds)
    }
}
