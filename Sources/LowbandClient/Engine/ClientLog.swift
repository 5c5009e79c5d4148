/// What the engine wants a human to know, stamped with scheduler time.
public struct ClientLogEntry: Hashable, Sendable, CustomStringConvertible {
    /// How much the entry matters: `debug`, `info`, `warning` or `error`.
    public enum Level: String, Hashable, Sendable { case debug, info, warning, error }

    /// Scheduler time of the event.
    public var time: Duration
    /// How much the entry matters.
    public var level: Level
    /// A short stable name for the kind of event, e.g. `unexpectedReply`.
    public var event: String
    /// What happened, for a human.
    public var message: String

    /// An entry stamped `time` on the engine's scheduler.
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
    /// Entries kept at most; when full, the older half is dropped.
    public let capacity: Int
    private let sink: ((ClientLogEntry) -> Void)?

    /// A log keeping up to `capacity` entries (at least 1), passing each to `sink` as it is
    /// recorded.
    public init(capacity: Int = 1_000, sink: ((ClientLogEntry) -> Void)? = nil) {
        self.capacity = max(1, capacity)
        self.sink = sink
    }

    /// Keeps `entry` and passes it to the sink.
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
