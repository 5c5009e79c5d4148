import Foundation

/// One promise a messenger makes, as checked at the end of a run: how many cases were checked
/// and how many broke it.
public struct InvariantCheck: Sendable, Hashable, Codable {
    /// snake_case, e.g. `acknowledged_lost`; the CSV row is `invariant.<name>`.
    public var name: String
    /// The promise in words, for the report and the terminal.
    public var promise: String
    /// Cases looked at (messages × members, tasks, chats…): a check that looked at nothing says so.
    public var checked: Int
    /// Cases that broke it.
    public var violations: Int

    /// A check of `name` that looked at `checked` cases.
    public init(name: String, promise: String, checked: Int, violations: Int) {
        self.name = name
        self.promise = promise
        self.checked = checked
        self.violations = violations
    }

    /// The verdict in words, the same in the terminal and the report: `held on 52 cases`,
    /// `held on 1 case`, `not checked` (no case to look at in this run), or `broken 3 times in
    /// 52 cases`.
    public var verdict: String {
        if violations > 0 {
            return "broken \(violations == 1 ? "once" : "\(violations) times") in \(Self.cases(checked))"
        }
        return checked == 0 ? "not checked" : "held on \(Self.cases(checked))"
    }

    private static func cases(_ count: Int) -> String {
        count == 1 ? "1 case" : "\(count) cases"
    }
}

extension [InvariantCheck] {
    /// `6 of 8 held, 2 not checked (no case: cache_lost_after_kill, liveness)` or `1 of 8
    /// broken, 5 held, 2 not checked (no case: …)`: the counts every summary of a run's
    /// promises leads with, naming the promises that had nothing to judge.
    package var tally: String {
        let broken = filter { $0.violations > 0 }.count
        let unchecked = filter { $0.violations == 0 && $0.checked == 0 }.count
        let held = count - broken - unchecked
        var parts: [String] = []
        if broken > 0 { parts.append("\(broken) of \(count) broken") }
        parts.append(broken > 0 ? "\(held) held" : "\(held) of \(count) held")
        if unchecked > 0 {
            let names = filter { $0.violations == 0 && $0.checked == 0 }.map(\.name).joined(separator: ", ")
            parts.append("\(unchecked) not checked (no case: \(names))")
        }
        return parts.joined(separator: ", ")
    }
}

/// One broken promise: which, where, when, and the trace lines around it.
public struct InvariantViolation: Sendable, Hashable, Codable {
    /// The ``InvariantCheck/name`` it breaks.
    public var invariant: String
    /// When it happened (or was found to have happened), in seconds on the run's clock.
    public var seconds: Double
    /// The client it happened to (0-based), if one.
    public var client: Int?
    /// The chat it concerns, if one.
    public var chat: Int64?
    /// The server's message id, if the message got one.
    public var message: Int64?
    /// The sender's client id (the idempotency key), if it is about a sent message.
    public var clientID: UInt64?
    /// What was wrong, in words: what was expected and what was found.
    public var detail: String
    /// The run's trace lines nearest to ``seconds`` that concern this client or chat.
    public var traceLines: [String]
    /// The network decision without which it would not have broken, in words (or that none
    /// touched the message), where the checker could find it.
    public var cause: String?
    /// The planned fault that cause is (`fault 4`): what a rerun without it takes away.
    public var causeFault: String?
    /// The case itself, where the checker can name it: `m-3@bob` (the message and the device it
    /// broke on), so a rerun can tell whether this very case broke again.
    public var subject: String?

    /// A violation; everything but the invariant, time and detail is optional.
    public init(
        invariant: String, seconds: Double, client: Int? = nil, chat: Int64? = nil, message: Int64? = nil, clientID: UInt64? = nil, detail: String,
        traceLines: [String] = [], cause: String? = nil, causeFault: String? = nil, subject: String? = nil
    ) {
        self.cause = cause
        self.causeFault = causeFault
        self.subject = subject
        self.invariant = invariant
        self.seconds = seconds
        self.client = client
        self.chat = chat
        self.message = message
        self.clientID = clientID
        self.detail = detail
        self.traceLines = traceLines
    }

    /// Where and when, in words: `t=412.300s client 3 chat 67 message 2051`.
    public var place: String {
        var words = [String(format: "t=%.3fs", seconds)]
        if let client { words.append("client \(client)") }
        if let chat { words.append("chat \(chat)") }
        if let message { words.append("message \(message)") }
        return words.joined(separator: " ")
    }

    /// One line: `liveness [t=412.300s client 3 chat 67]: what was wrong`.
    public var summary: String {
        "\(invariant) [\(place)]: \(detail)"
    }
}
