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

    /// An empty book that keeps the first `keep` broken cases of each promise.
    public init(keep: Int = RunRecord.maximumViolations) {
        self.keep = keep
    }

    /// Records that the check of `name` looked at `checked` cases, `violations` of which broke it.
    public mutating func record(_ name: String, checked: Int, violations: Int) {
        checks.append(InvariantCheck(name: name, promise: Self.promise(named: name), checked: checked, violations: violations))
    }

    /// Notes a case that broke `invariant`, kept when it is among the first ``keep`` of that
    /// promise; `traceLines` is asked for only then.
    public mutating func violate(
        _ invariant: String, seconds: Double, client: Int? = nil, chat: Int64? = nil, message: Int64? = nil, clientID: UInt64? = nil,
        detail: String, traceLines: () -> [String] = { [] }
    ) {
        found[invariant, default: 0] += 1
        guard found[invariant]! <= keep else { return }
        violations.append(InvariantViolation(
            invariant: invariant, seconds: seconds, client: client, chat: chat, message: message, clientID: clientID, detail: detail,
            traceLines: traceLines()))
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
