import Foundation
public import LowbandRunReport

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
        checkLost(model, &book)
        checkDuplicates(model, &book)
        checkOrder(model, &book)
        checkLiveness(model, &book)
        book.sortViolations()
        return book
    }

    // MARK: The checks

    private func checkLost(_ model: Model, _ book: inout PromiseBook) {
        var checked = 0
        var broken = 0
        let settle = Self.seconds(bounds.settle)
        for message in model.messageOrder {
            guard let info = model.messages[message], let acked = info.acked, let chat = info.chat else { continue }
            for device in model.members[chat, default: []].sorted() where device != info.sender {
                // Judged when the device was connected for the settle bound after the acknowledgement.
                guard let window = model.sessions(of: device, end: end).first(where: { max($0.start, acked) + settle <= min($0.end, end) }) else { continue }
                checked += 1
                guard model.arrivals[Pair(device: device, message: message)] == nil else { continue }
                broken += 1
                let from = max(window.start, acked)
                book.violate(
                    "acknowledged_lost", seconds: from + settle,
                    detail: "\(device) never got message \(message) of chat \(chat) (sent by \(info.sender ?? "?") at \(Self.format(info.sent ?? acked)) s, acknowledged at \(Self.format(acked)) s), though \(device) was connected from \(Self.format(from)) s to \(Self.format(from + settle)) s (settle \(Self.format(settle)) s); network around the send: \(network.describe(from: (info.sent ?? acked) - 2, to: acked + 2))")
            }
        }
        book.record("acknowledged_lost", checked: checked, violations: broken, promise: Self.promise("acknowledged_lost"))
    }

    private func checkDuplicates(_ model: Model, _ book: inout PromiseBook) {
        var checked = 0
        var broken = 0
        for (pair, times) in model.displays.sorted(by: { ($0.value.first ?? 0) < ($1.value.first ?? 0) }) {
            checked += 1
            guard times.count > 1 else { continue }
            broken += 1
            let word = model.showsOn.contains(pair.device) ? "was shown" : "received"
            book.violate(
                "duplicated", seconds: times[1],
                detail: "\(pair.device) \(word) message \(pair.message) of chat \(model.messages[pair.message]?.chat ?? "?") \(times.count) times: at \(times.prefix(4).map { Self.format($0) + " s" }.joined(separator: ", ")); network from its send to the second: \(network.describe(from: (model.messages[pair.message]?.sent ?? times[0]) - 1, to: times[1]))")
        }
        book.record("duplicated", checked: checked, violations: broken, promise: Self.promise("duplicated"))
    }

    private func checkOrder(_ model: Model, _ book: inout PromiseBook) {
        var checked = 0
        var broken = 0
        for chat in model.chatOrder {
            let sequences = model.sequences[chat, default: [:]]
            // The device with the most of the chat's messages is the reference.
            guard let reference = sequences.max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) }) else { continue }
            let position = Dictionary(reference.value.enumerated().map { ($1.message, $0) }, uniquingKeysWith: { first, _ in first })
            for (device, sequence) in sequences.sorted(by: { $0.key < $1.key }) where device != reference.key {
                let common = sequence.filter { position[$0.message] != nil }
                guard common.count > 1 else { continue }
                checked += 1
                guard let index = common.indices.dropFirst().first(where: { position[common[$0].message]! < position[common[$0 - 1].message]! }) else { continue }
                broken += 1
                let later = common[index]
                let earlier = common[index - 1]
                book.violate(
                    "order", seconds: later.at,
                    detail: "\(device) has message \(later.message) after \(earlier.message) in chat \(chat) (at \(Self.format(later.at)) s); \(reference.key) has them the other way round; network before: \(network.describe(from: earlier.at - 5, to: later.at))")
            }
        }
        book.record("order", checked: checked, violations: broken, promise: Self.promise("order"))
    }

    private func checkLiveness(_ model: Model, _ book: inout PromiseBook) {
        var checked = 0
        var broken = 0
        let bound = Self.seconds(bounds.liveness)
        for message in model.messageOrder {
            guard let info = model.messages[message], let sender = info.sender, let sent = info.sent else { continue }
            let until = info.acked ?? end
            let waited = deliveringTime(model, device: sender, from: sent, to: until)
            // An unanswered send is judged once it has waited the bound.
            guard info.acked != nil || waited > bound else { continue }
            checked += 1
            guard waited > bound else { continue }
            broken += 1
            let what = info.acked.map { "acknowledged only at \(Self.format($0)) s" } ?? "never acknowledged"
            book.violate(
                "liveness", seconds: sent + bound,
                detail: "\(sender)'s message \(message) of chat \(info.chat ?? "?") (sent at \(Self.format(sent)) s) was \(what): \(Self.format(waited)) s connected on a delivering link, over the liveness bound of \(Self.format(bound)) s; network meanwhile: \(network.describe(from: sent, to: until))")
        }
        book.record("liveness", checked: checked, violations: broken, promise: Self.promise("liveness"))
    }

    /// Seconds of `from ..< to` in which `device` was connected and no link was down.
    private func deliveringTime(_ model: Model, device: String, from: Double, to: Double) -> Double {
        var total = 0.0
        for session in model.sessions(of: device, end: end) {
            let lower = max(session.start, from)
            let upper = min(session.end, to)
            guard upper > lower else { continue }
            total += (upper - lower) - network.downTime(from: lower, to: upper)
        }
        return total
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
        /// Every display of a message on a device: `shown` where the device reports shows, else `received`.
        var displays: [Pair: [Double]] = [:]
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
                    let displayKind: AppEvent.Kind = showsOn.contains(event.device) ? .shown : .received
                    if event.kind == displayKind { displays[pair, default: []].append(at) }
                default:
                    break
                }
                messages[message] = info
                // The order a device has a chat's messages in: its own sends, and what it displays.
                let counts = event.kind == .sent || event.kind == (showsOn.contains(event.device) ? .shown : .received)
                if counts, let chat = info.chat, placed.insert(pair).inserted {
                    sequences[chat, default: [:]][event.device, default: []].append((message, at))
                }
            }
        }

        /// When `device` was connected, as stretches (seconds).
        func sessions(of device: String, end: Double) -> [(start: Double, end: Double)] {
            guard let marks = connections[device], !marks.isEmpty else {
                return firstSeen[device].map { [($0, end)] } ?? []
            }
            var result: [(start: Double, end: Double)] = []
            var since: Double? = nil
            for mark in marks {
                if mark.connected {
                    if since == nil { since = mark.at }
                } else if let start = since {
                    result.append((start, mark.at))
                    since = nil
                }
            }
            if let start = since { result.append((start, end)) }
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
