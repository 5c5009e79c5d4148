import Foundation

/// The judgement of the promises `lowband run` and an app's events share: nothing acknowledged
/// lost, nothing held twice, the same order everywhere, liveness. Each is written once, over
/// facts any producer can give: `lowband run`'s checker gives them from its ledger, the server
/// and every engine's state; `EventChecker` from the events an app posted and the proxies'
/// decisions. The verdicts, their counting and their words are therefore the same both ways in.
extension PromiseBook {
    /// Where a broken case is, as the report's columns have it (all optional).
    public struct Place: Sendable, Hashable {
        /// The client (0-based) it happened to.
        public var client: Int?
        /// The chat, by the server's id.
        public var chat: Int64?
        /// The message, by the server's id.
        public var message: Int64?
        /// The sender's client id.
        public var clientID: UInt64?

        /// A place with the fields known.
        public init(client: Int? = nil, chat: Int64? = nil, message: Int64? = nil, clientID: UInt64? = nil) {
            self.client = client
            self.chat = chat
            self.message = message
            self.clientID = clientID
        }
    }

    /// One message where a device has it: a key that is the same for the same message (`user 2,
    /// client id 42`), the message in words, when, and where.
    public typealias Item = (key: String, message: String, at: Double, place: Place)

    /// What the network did in a window (seconds), in words, where the producer knows it.
    public typealias NetworkWords = (_ from: Double, _ to: Double) -> String?
    /// The trace lines near a time for a client and chat, where the producer has a trace.
    public typealias TraceLines = (_ seconds: Double, _ client: Int?, _ chat: Int64?) -> [String]

    /// A broken case, as a judge hands it to a producer that can say what caused it. Keys are the
    /// producer's own (an app's message id).
    public enum BrokenCase: Sendable, Hashable {
        /// The case in one key: `m-3@bob`, the message (or the two, for order) and the device.
        public var subject: String {
            switch self {
            case .lost(let key, let device, _), .duplicated(let key, let device, _, _), .late(let key, let device, _, _): "\(key)@\(device)"
            case .order(let device, let earlier, let later, _): "\(earlier)<\(later)@\(device)"
            }
        }

        /// `recipient` lacks the message `key`, confirmed at `confirmed`.
        case lost(key: String, recipient: String, confirmed: Double)
        /// `device` holds `key` twice, first at `first`, again at `second`.
        case duplicated(key: String, device: String, first: Double, second: Double)
        /// `device` has `later` before `earlier` (found at `at`).
        case order(device: String, earlier: String, later: String, at: Double)
        /// `device`'s send of `key` at `sent` waited past the bound, until `until`.
        case late(key: String, device: String, sent: Double, until: Double)
    }

    /// A producer's explanation of a broken case: its cause, the planned fault behind it, and
    /// what else the network did near it (the affected device's link first).
    public struct CaseExplanation: Sendable, Hashable {
        /// The sentence after `cause:`.
        public var cause: String
        /// The planned fault the cause is (`fault 4`), if one.
        public var fault: String?
        /// What else the network did near it, in words.
        public var context: String?

        /// An explanation with every field given.
        public init(cause: String, fault: String?, context: String?) {
            self.cause = cause
            self.fault = fault
            self.context = context
        }
    }

    /// Explains a broken case, where the producer can; nil where it cannot (the judge then says
    /// what the network did around it, from ``NetworkWords``).
    public typealias CaseExplainer = (BrokenCase) -> CaseExplanation?


    // MARK: acknowledged_lost

    /// A message the server confirmed, and the members of its chat that should get it.
    public struct Delivery: Sendable {
        /// The message in words (`message 17`, `message m-3`).
        public var message: String
        /// Its chat in words (`chat 4`).
        public var chat: String
        /// When the server confirmed it (stored it, or acknowledged it to its sender), in seconds.
        public var confirmed: Double
        /// How it was confirmed, in words (`stored by the server`, `acknowledged to bob`).
        public var confirmedHow: String
        /// Where it is, for the report (the recipient's client is added per case).
        public var place: Place
        /// Every member but its sender.
        public var recipients: [Recipient]
        /// The producer's key for the message, for a ``CaseExplainer``.
        public var key: String?

        /// A delivery with every field given.
        public init(message: String, chat: String, confirmed: Double, confirmedHow: String, place: Place, recipients: [Recipient], key: String? = nil) {
            self.key = key
            self.message = message
            self.chat = chat
            self.confirmed = confirmed
            self.confirmedHow = confirmedHow
            self.place = place
            self.recipients = recipients
        }
    }

    /// One member of a message's chat, as a delivery sees it.
    public struct Recipient: Sendable {
        /// The device in words (`client 3`, `bob`).
        public var device: String
        /// Its client number, for the report.
        public var client: Int?
        /// When it was connected.
        public var connected: Stretches
        /// Whether it got the message (received, shown or stored it).
        public var has: Bool
        /// Whether, not holding it, it knows the message exists and will fetch it (a gap in its
        /// history, as after a limited sync): forgiven to a device that was away when the message
        /// was confirmed, never to one that stayed connected. Nil where the producer cannot tell
        /// (an app's events): nothing is forgiven then.
        public var knowsOfGap: Bool?
        /// When it caught up after the confirmation (applied a sync that began after it), where
        /// the producer knows: judged from then on, without waiting the settle time. An app's
        /// events do not say it, so an app's device is judged after the settle time.
        public var caughtUp: Double?

        /// A recipient with every field given.
        public init(device: String, client: Int? = nil, connected: Stretches, has: Bool, knowsOfGap: Bool? = nil, caughtUp: Double? = nil) {
            self.device = device
            self.client = client
            self.connected = connected
            self.has = has
            self.knowsOfGap = knowsOfGap
            self.caughtUp = caughtUp
        }
    }

    /// `acknowledged_lost`: every recipient connected for `settle` seconds after the message was
    /// confirmed has it. A recipient that has it is a case that held, however short the run; one
    /// connected at the confirmation that stays for the settle time must have received it; one
    /// that connects later for the settle time, or catches up later, must have it or know of the
    /// gap. A recipient without it that was never connected that long is not judged.
    public mutating func checkDelivered(
        _ deliveries: [Delivery], settle: Double, end: Double, promise: String? = nil,
        network: NetworkWords = { _, _ in nil }, explain: CaseExplainer = { _ in nil }, traceLines: TraceLines = { _, _, _ in [] }
    ) {
        var checked = 0
        var broken = 0
        for delivery in deliveries {
            for recipient in delivery.recipients {
                let window = recipient.connected.spans.first { max($0.lowerBound, delivery.confirmed) + settle <= min($0.upperBound, end) }
                let caughtUp = recipient.caughtUp.flatMap { $0 >= delivery.confirmed && $0 <= end ? $0 : nil }
                guard recipient.has || window != nil || caughtUp != nil else { continue }
                checked += 1
                let stayed = window.map { $0.lowerBound <= delivery.confirmed } ?? false
                guard !recipient.has, stayed || recipient.knowsOfGap != true else { continue }
                broken += 1
                let from = window.map { max($0.lowerBound, delivery.confirmed) }
                let unaware = recipient.knowsOfGap == false ? ", and does not know it is missing" : ""
                let how: String
                let at: Double
                if stayed, let from {
                    at = from + settle
                    how = "though it was connected from \(Self.words(from)) s to \(Self.words(at)) s (the settle time, \(Self.words(settle)) s)"
                } else if let caughtUp, caughtUp <= (from ?? .infinity) + settle {
                    at = caughtUp
                    how = "though it caught up at \(Self.words(caughtUp)) s, after the message was confirmed\(unaware)"
                } else {
                    at = (from ?? end) + settle
                    how = "though it connected again at \(Self.words(from ?? end)) s and stayed until \(Self.words(at)) s (the settle time, \(Self.words(settle)) s)\(unaware)"
                }
                var place = delivery.place
                place.client = recipient.client
                let broken = delivery.key.map { BrokenCase.lost(key: $0, recipient: recipient.device, confirmed: delivery.confirmed) }
                let explanation = keeps("acknowledged_lost") ? broken.flatMap(explain) : nil
                let around = explanation.map(Self.because) ?? network(delivery.confirmed - 2, delivery.confirmed + 2).map { "; network around the confirmation: \($0)" } ?? ""
                violate(
                    "acknowledged_lost", at: at, place,
                    detail: "\(recipient.device) never got \(delivery.message) of \(delivery.chat) (\(delivery.confirmedHow) at \(Self.words(delivery.confirmed)) s), \(how)\(around)",
                    explanation: explanation, subject: broken?.subject, traceLines: traceLines)
            }
        }
        record("acknowledged_lost", checked: checked, violations: broken, promise: promise)
    }

    // MARK: liveness

    /// One send, and when its device's link could have carried it.
    public struct Send: Sendable {
        /// The sending device in words.
        public var device: String
        /// The message in words (`client id 42`, `message m-3`).
        public var message: String
        /// Its chat in words.
        public var chat: String
        /// When it was sent (stored in the outbox, handed to the network code), in seconds.
        public var sent: Double
        /// When it was acknowledged, if it was.
        public var acked: Double?
        /// When the device was connected and its link delivered.
        public var delivering: Stretches
        /// Where it is, for the report.
        public var place: Place
        /// The producer's key for the message, for a ``CaseExplainer``.
        public var key: String?

        /// A send with every field given.
        public init(device: String, message: String, chat: String, sent: Double, acked: Double?, delivering: Stretches, place: Place, key: String? = nil) {
            self.key = key
            self.device = device
            self.message = message
            self.chat = chat
            self.sent = sent
            self.acked = acked
            self.delivering = delivering
            self.place = place
        }
    }

    /// `liveness`: no send waits more than `bound` seconds of delivering time for its
    /// acknowledgement. An unanswered send is judged once it has waited that long.
    public mutating func checkLiveness(
        _ sends: [Send], bound: Double, end: Double, promise: String? = nil,
        network: NetworkWords = { _, _ in nil }, explain: CaseExplainer = { _ in nil }, traceLines: TraceLines = { _, _, _ in [] }
    ) {
        var checked = 0
        var broken = 0
        for send in sends {
            let until = send.acked ?? end
            let late = send.delivering.instant(accumulating: bound, from: send.sent, before: until)
            guard send.acked != nil || late != nil else { continue }
            checked += 1
            guard let late else { continue }
            broken += 1
            let outcome = send.acked.map { "acknowledged only at \(Self.words($0)) s, \(Self.words($0 - send.sent)) s after it was sent" } ?? "never acknowledged"
            let broken = send.key.map { BrokenCase.late(key: $0, device: send.device, sent: send.sent, until: until) }
            let explanation = keeps("liveness") ? broken.flatMap(explain) : nil
            let meanwhile = explanation.map(Self.because) ?? network(send.sent, until).map { "; network meanwhile: \($0)" } ?? ""
            violate(
                "liveness", at: late, send.place,
                detail: "\(send.device)'s send of \(send.message) in \(send.chat) (at \(Self.words(send.sent)) s) waited more than \(Self.words(bound)) s while connected on a delivering link: \(outcome)\(meanwhile)",
                explanation: explanation, subject: broken?.subject, traceLines: traceLines)
        }
        record("liveness", checked: checked, violations: broken, promise: promise)
    }

    // MARK: duplicated

    /// What one device holds or shows in one place (a screen, a cache, its displays), in order.
    public struct Holding: Sendable {
        /// The device in words.
        public var device: String
        /// What it does with the items, in words (`'s screen of chat 4 shows`, `received`).
        public var verb: String
        /// The messages held, in order.
        public var items: [Item]

        /// A holding with every field given.
        public init(device: String, verb: String, items: [Item]) {
            self.device = device
            self.verb = verb
            self.items = items
        }
    }

    /// `duplicated`, a device's part: no holding has the same message twice. Every message held
    /// is a case.
    ///
    /// - Returns: the cases looked at and the broken ones, for the caller to add to its other
    ///   parts of the promise before it records it.
    public mutating func checkHeldOnce(
        _ holdings: [Holding], network: NetworkWords = { _, _ in nil }, explain: CaseExplainer = { _ in nil },
        traceLines: TraceLines = { _, _, _ in [] }
    ) -> (checked: Int, broken: Int) {
        var checked = 0
        var broken = 0
        for holding in holdings {
            var times: [String: [Double]] = [:]
            var order: [String] = []
            for item in holding.items {
                if times[item.key] == nil { order.append(item.key) }
                times[item.key, default: []].append(item.at)
            }
            checked += order.count
            for key in order {
                guard let seen = times[key], seen.count > 1, let second = holding.items.filter({ $0.key == key }).dropFirst().first else { continue }
                broken += 1
                let count = seen.count == 2 ? "twice" : "\(seen.count) times"
                let when = Set(seen).count > 1 ? ", at \(seen.prefix(4).map { Self.words($0) + " s" }.joined(separator: ", "))" : ""
                // The subject is kept where a producer explains its cases (an app's session); a
                // run's records stay as they were.
                let broken = BrokenCase.duplicated(key: key, device: holding.device, first: seen[0], second: second.at)
                let explanation = keeps("duplicated") ? explain(broken) : nil
                let meanwhile = explanation.map(Self.because)
                    ?? (Set(seen).count > 1 ? network(seen[0] - 1, seen[1]).map { "; network before the second: \($0)" } ?? "" : "")
                violate(
                    "duplicated", at: second.at, second.place, detail: "\(holding.device)\(holding.verb) \(second.message) \(count)\(when)\(meanwhile)",
                    explanation: explanation, subject: explanation == nil ? nil : broken.subject, traceLines: traceLines)
            }
        }
        return (checked, broken)
    }

    // MARK: order

    /// One device's messages of one chat, in the order it has them.
    public struct Sequence: Sendable {
        /// The device in words.
        public var device: String
        /// Its chat in words.
        public var chat: String
        /// The messages, in the order the device has them (keys as in the reference).
        public var items: [Item]

        /// A sequence with every field given.
        public init(device: String, chat: String, items: [Item]) {
            self.device = device
            self.chat = chat
            self.items = items
        }
    }

    /// `order`, the devices' part: every sequence has the messages it shares with `reference`
    /// (whose order is the truth: the server's, or the device with the most of the chat) in the
    /// reference's order. A sequence sharing two or more is a case.
    ///
    /// - Returns: the cases looked at and the broken ones.
    public mutating func checkSameOrder(
        _ sequences: [Sequence], reference: (device: String, keys: [String]),
        network: NetworkWords = { _, _ in nil }, explain: CaseExplainer = { _ in nil }, traceLines: TraceLines = { _, _, _ in [] }
    ) -> (checked: Int, broken: Int) {
        let position = Dictionary(reference.keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var checked = 0
        var broken = 0
        for sequence in sequences {
            let common = sequence.items.filter { position[$0.key] != nil }
            guard common.count > 1 else { continue }
            checked += 1
            guard let index = common.indices.dropFirst().first(where: { position[common[$0].key]! < position[common[$0 - 1].key]! }) else { continue }
            broken += 1
            let later = common[index]
            let earlier = common[index - 1]
            // The reference has `later` first: it is the one that should have come earlier.
            let broken = BrokenCase.order(device: sequence.device, earlier: later.key, later: earlier.key, at: later.at)
            let explanation = keeps("order") ? explain(broken) : nil
            let before = explanation.map(Self.because) ?? network(earlier.at - 5, later.at).map { "; network before: \($0)" } ?? ""
            violate(
                "order", at: later.at, later.place,
                detail: "\(sequence.device) has \(later.message) after \(earlier.message) in \(sequence.chat); \(reference.device) has them the other way round\(before)",
                explanation: explanation, subject: explanation == nil ? nil : broken.subject, traceLines: traceLines)
        }
        return (checked, broken)
    }

    // MARK: Helpers

    private mutating func violate(
        _ invariant: String, at seconds: Double, _ place: Place, detail: String, explanation: CaseExplanation? = nil, subject: String? = nil,
        traceLines: TraceLines
    ) {
        violate(
            invariant, seconds: seconds, client: place.client, chat: place.chat, message: place.message, clientID: place.clientID, detail: detail,
            cause: explanation?.cause, causeFault: explanation?.fault, subject: subject
        ) {
            traceLines(seconds, place.client, place.chat)
        }
    }

    /// `; cause: …; also near: …`, as a broken case's words end when its cause is known.
    static func because(_ explanation: CaseExplanation) -> String {
        "; cause: \(explanation.cause)" + (explanation.context.map { "; also near: \($0)" } ?? "")
    }

    /// Seconds in a verdict's words: three decimals, as the trace has them.
    static func words(_ seconds: Double) -> String {
        String(format: "%.3f", seconds)
    }
}
