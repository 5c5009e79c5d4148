/// What the engine wants a human to know, stamped with scheduler time.
public struct ClientLogEntry: Hashable, Sendable, CustomStringConvertible {
    public enum Level: String, Hashable, Sendable { case debug, info, warning, error }

    public var time: Duration
    public var level: Level
    /// A short stable name for the kind of event, e.g. `unexpectedReply`.
    public var event: String
    public var message: String

    public init(time: Duration, level: Level, event: String, message: String) {
        self.time = time
        self.level = level
        self.event = event
        self.message = message
    }

    public var description: String { "[\(time)] \(level.rawValue) \(event): \(message)" }
}

/// Where the engine's log entries go: kept in a bounded buffer and passed to an optional sink.
///
/// Confined to the engine's scheduler like the rest of the engine.
public final class ClientLog {
    /// The newest entries, oldest first, at most `capacity`.
    public private(set) var entries: [ClientLogEntry] = []
    public let capacity: Int
    private let sink: ((ClientLogEntry) -> Void)?

    public init(capacity: Int = 1_000, sink: ((ClientLogEntry) -> Void)? = nil) {
        self.capacity = max(1, capacity)
        self.sink = sink
    }

    public func record(_ entry: ClientLogEntry) {
        if entries.count == capacity { entries.removeFirst(entries.count / 2) }
        entries.append(entry)
        sink?(entry)
    }

    /// Entries of one kind, e.g. `entries(for: "unexpectedReply")`.
    public func entries(for event: String) -> [ClientLogEntry] {
        entries.filter { $0.event == event }
    }
}
