/// A messenger's promises, and the one way a check of them is counted and reported.
///
/// Every checker of Lowband writes here: `lowband run`'s (from the server, the engines and the
/// trace of one process) and `lowband soak`'s (from the server's data and every client's cache
/// after real processes were killed). Each records, per promise, the cases it looked at and the
/// ones that broke it; the book keeps the first ``keep`` broken cases of each promise with their
/// place and detail. The results read the same everywhere: ``InvariantCheck/verdict`` per
/// promise, the `tally` of the checks for the line that leads a summary, and `invariant.<name>` rows
/// in results.csv.
public struct PromiseBook: Sendable {
    /// Every promise by name, in the order summaries list them.
    public static let promises: [(name: String, promise: String)] = [
        ("acknowledged_lost", "every message the server stored reaches every member engine that logs in afterwards or stays online long enough"),
        ("duplicated", "no message is stored twice (server: per sender and client id; caches and screens: per message)"),
        ("order", "a sender's messages in a chat are stored in the order written; screens show a chat in the server's order"),
        ("outbox_not_drained", "an engine online for the settle time at the end has no task older than that in its outbox"),
        ("chat_list_mismatch", "the chat list's last message and unread count agree with the messages stored"),
        ("cache_lost_after_kill", "an app killed and started again still has every message and task it had stored"),
        ("liveness", "no outbox task waits longer than the liveness bound while its session is up and the network delivers"),
        ("resource_bounds", "queues and buffers stay under their caps"),
        ("acknowledged_kept", "a send the server acknowledged is held by the server under that id, with that text, through every restart"),
        ("cache_diverged", "every message a device's cache shows is the one the server holds, with the same text and sender"),
    ]

    /// The promise `name` stands for, in words (the name itself for an unknown one).
    public static func promise(named name: String) -> String {
        promises.first { $0.name == name }?.promise ?? name
    }

    /// One entry per promise checked, in the order they were recorded.
    public private(set) var checks: [InvariantCheck] = []
    /// The broken cases kept: the first ``keep`` of each promise.
    public private(set) var violations: [InvariantViolation] = []
    /// How many broken cases of each promise are kept with their detail.
    public let keep: Int
    private var found: [String: Int] = [:]

    /// Broken cases of one promise kept by default (a run's record keeps as many); the rest
    /// are counted only.
    public static let defaultKeep = 50

    /// An empty book that keeps the first `keep` broken cases of each promise.
    public init(keep: Int = PromiseBook.defaultKeep) {
        self.keep = keep
    }

    /// Records that the check of `name` looked at `checked` cases, `violations` of which broke it.
    /// `promise` words it for the checker's readers (an app's events rather than an engine's
    /// state); by default the catalogue's words.
    public mutating func record(_ name: String, checked: Int, violations: Int, promise: String? = nil) {
        checks.append(InvariantCheck(name: name, promise: promise ?? Self.promise(named: name), checked: checked, violations: violations))
    }

    /// Notes a case that broke `invariant`, kept when it is among the first ``keep`` of that
    /// promise; `traceLines` is asked for only then.
    public mutating func violate(
        _ invariant: String, seconds: Double, client: Int? = nil, chat: Int64? = nil, message: Int64? = nil, clientID: UInt64? = nil,
        detail: String, cause: String? = nil, causeFault: String? = nil, subject: String? = nil, traceLines: () -> [String] = { [] }
    ) {
        found[invariant, default: 0] += 1
        guard found[invariant]! <= keep else { return }
        violations.append(InvariantViolation(
            invariant: invariant, seconds: seconds, client: client, chat: chat, message: message, clientID: clientID, detail: detail,
            traceLines: traceLines(), cause: cause, causeFault: causeFault, subject: subject))
    }

    /// Whether the next broken case of `invariant` would be kept: a judge asks its producer
    /// for a cause only then (a run that breaks a promise thousands of times keeps 50).
    func keeps(_ invariant: String) -> Bool {
        found[invariant, default: 0] < keep
    }

    /// Puts the kept violations in time order.
    public mutating func sortViolations() {
        violations.sort { $0.seconds < $1.seconds }
    }

    /// Whether no check found a broken case.
    public var held: Bool {
        checks.allSatisfy { $0.violations == 0 }
    }
}

// MARK: The checks every checker shares

extension PromiseBook {
    /// A message as the server stored it, as the shared checks see it.
    public struct StoredMessage: Sendable, Hashable {
        /// The chat it is in.
        public var chat: Int64
        /// The server's id.
        public var id: Int64
        /// The user who wrote it.
        public var sender: Int64
        /// The sending client's idempotency key, if it came from a client's send.
        public var clientID: UInt64?
        /// When the server stored it (or the end of the run, when unknown), in seconds.
        public var seconds: Double

        /// A stored message with every field given.
        public init(chat: Int64, id: Int64, sender: Int64, clientID: UInt64?, seconds: Double) {
            self.chat = chat
            self.id = id
            self.sender = sender
            self.clientID = clientID
            self.seconds = seconds
        }
    }

    /// One send a client wrote, with the id the server stored it under.
    public struct Write: Sendable, Hashable {
        /// The chat it was written to.
        public var chat: Int64
        /// The client's idempotency key for it.
        public var clientID: UInt64
        /// The server's id for it.
        public var messageID: Int64
        /// When the server stored it (or the end of the run, when unknown), in seconds.
        public var seconds: Double

        /// A write with every field given.
        public init(chat: Int64, clientID: UInt64, messageID: Int64, seconds: Double) {
            self.chat = chat
            self.clientID = clientID
            self.messageID = messageID
            self.seconds = seconds
        }
    }

    /// `duplicated`, the server's part: in each chat (`chats`, each in the server's order), every
    /// message with a client id is stored once per sender and client id.
    ///
    /// - Returns: the cases looked at and the broken ones, for the caller to add to its other
    ///   parts of the promise before it records it.
    public mutating func checkServerDuplicates(
        _ chats: [[StoredMessage]], traceLines: (_ seconds: Double, _ client: Int?, _ chat: Int64?) -> [String] = { _, _, _ in [] }
    ) -> (checked: Int, broken: Int) {
        var checked = 0
        var broken = 0
        for messages in chats {
            var seen: [SenderKey: Int64] = [:]
            for message in messages {
                guard let clientID = message.clientID else { continue }
                checked += 1
                let key = SenderKey(sender: message.sender, clientID: clientID)
                if let first = seen[key] {
                    broken += 1
                    violate("duplicated", seconds: message.seconds, chat: message.chat, message: message.id, clientID: clientID,
                            detail: "the server stored client id \(clientID) of user \(message.sender) twice in chat \(message.chat): messages \(first) and \(message.id)") {
                        traceLines(message.seconds, nil, message.chat)
                    }
                } else {
                    seen[key] = message.id
                }
            }
        }
        return (checked, broken)
    }

    /// `order`, a writer's part: `writes`, in the order `client` wrote them, got server ids that
    /// rise within each chat. A broken case goes to `explain` as an ``BrokenCase/order(device:earlier:later:at:)``
    /// of `client N`, keyed `client id X`.
    ///
    /// - Returns: the cases looked at (every write) and the broken ones.
    public mutating func checkWrittenOrder(
        client: Int, _ writes: [Write], explain: CaseExplainer = { _ in nil },
        traceLines: (_ seconds: Double, _ client: Int?, _ chat: Int64?) -> [String] = { _, _, _ in [] }
    ) -> (checked: Int, broken: Int) {
        var checked = 0
        var broken = 0
        var lastByChat: [Int64: (id: Int64, clientID: UInt64)] = [:]
        for write in writes {
            checked += 1
            if let previous = lastByChat[write.chat], previous.id > write.messageID {
                broken += 1
                let broken = BrokenCase.order(device: "client \(client)", earlier: "client id \(previous.clientID)", later: "client id \(write.clientID)", at: write.seconds)
                let explanation = keeps("order") ? explain(broken) : nil
                violate("order", seconds: write.seconds, client: client, chat: write.chat, message: write.messageID, clientID: write.clientID,
                        detail: "client \(client) wrote client id \(previous.clientID) before \(write.clientID) in chat \(write.chat), but the server stored them as messages \(previous.id) and \(write.messageID)"
                            + (explanation.map(Self.because) ?? ""),
                        cause: explanation?.cause, causeFault: explanation?.fault, subject: explanation == nil ? nil : broken.subject) {
                    traceLines(write.seconds, client, write.chat)
                }
            }
            lastByChat[write.chat] = (write.messageID, write.clientID)
        }
        return (checked, broken)
    }

    private struct SenderKey: Hashable {
        var sender: Int64
        var clientID: UInt64
    }
}
