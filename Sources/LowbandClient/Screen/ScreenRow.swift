public import LowbandWire

/// One row of the message list.
public struct ScreenRow: Hashable, Sendable {
    /// What a row shows: a stored message, or the local echo of one still in the outbox.
    public enum ID: Hashable, Sendable {
        /// A message the server stored.
        case message(Int64)
        /// The local echo of a message in the outbox, by client id.
        case outgoing(UInt64)
    }

    /// Whether the row's message reached the server.
    ///
    /// `delivered`: stored by the server; `sending`: in the outbox; `failed`: refused, not retried.
    public enum Status: String, Hashable, Sendable { case delivered, sending, failed }

    /// The row's identity: `outgoing` for a local echo, `message` once the server stored it.
    public var id: ID
    /// The message shown.
    public var message: Message
    /// Whether the message reached the server.
    public var status: Status
}

/// A message entered the list (the UI would draw it on this turn).
public struct VisibilityEvent: Hashable, Sendable {
    /// The row that appeared.
    public var row: ScreenRow.ID
    /// Scheduler time the message reached the engine (a push, a reply, a page); nil for local echoes.
    public var arrivedAt: Duration?
    /// Scheduler time it entered the list.
    public var visibleAt: Duration
}
