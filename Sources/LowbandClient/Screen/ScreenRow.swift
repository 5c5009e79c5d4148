public import LowbandWire

/// One row of the message list.
public struct ScreenRow: Hashable, Sendable {
    public enum ID: Hashable, Sendable {
        /// A message the server stored.
        case message(Int64)
        /// The local echo of a message in the outbox, by client id.
        case outgoing(UInt64)
    }

    public enum Status: String, Hashable, Sendable { case delivered, sending, failed }

    public var id: ID
    public var message: Message
    public var status: Status
}

/// A message entered the list (the UI would draw it on this turn).
public struct VisibilityEvent: Hashable, Sendable {
    public var row: ScreenRow.ID
    /// Scheduler time the message reached the engine (a push, a reply, a page); nil for local echoes.
    public var arrivedAt: Duration?
    /// Scheduler time it entered the list.
    public var visibleAt: Duration
}
