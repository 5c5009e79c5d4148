package import NIOCore

/// What one event asks of the I/O side, settled to its instant: per connection, what its
/// sockets do, and the record of what happened.
///
/// Each event first settles everything due by its instant (connects, toxic releases, the
/// link's deliveries and resets), so one event can touch many connections. Their work is kept
/// apart, one ``SocketWork`` per connection in the order first touched: the order across
/// connections carries no meaning (they are separate sockets), and within one connection the
/// order is fixed by ``SocketWork`` itself. The events are the machine's own record, in the
/// order it decided them; a driver writes them to its trace and observers when it takes the
/// output, before it carries out the work.
package struct ProxyOutput: Sendable {
    /// Each touched connection's socket work, in the order first touched.
    package internal(set) var work: [SocketWork] = []
    /// What happened, in the order decided.
    package internal(set) var events: [ProxyEvent] = []

    package init() {}

    package var isEmpty: Bool { work.isEmpty && events.isEmpty }

    /// Appends `later`'s work and events after these (a connection may then appear twice; each
    /// entry is carried out in turn).
    package mutating func append(_ later: ProxyOutput) {
        work += later.work
        events += later.events
    }
}

/// What one connection's sockets do, carried out in this order: connect the upstream end;
/// write, in order; shut outputs (once what was written to that side is flushed); start or stop
/// reading; end the connection.
package struct SocketWork: Sendable {
    /// How a connection ends.
    package enum Ending: Sendable, Equatable {
        /// Close both ends: gracefully after pending writes, or with a reset (TCP RST); `reason`
        /// says why, as in the close event.
        case close(reset: Bool, reason: String)
        /// Both ends were forwarded; the sockets close by themselves once their writes flush.
        case release
    }

    /// The connection's number.
    package let number: Int
    /// Connect the upstream end now.
    package internal(set) var connect = false
    /// The bytes to write, each to its side, in stream order.
    package internal(set) var writes: [(side: ProxySide, bytes: ByteBuffer)] = []
    /// Sides whose output to shut (the end of the stream forwarded), once their writes are out.
    package internal(set) var shutdowns: [ProxySide] = []
    /// Whether to read the client side from now on; nil: unchanged.
    package internal(set) var readClient: Bool?
    /// Whether to read the upstream side from now on; nil: unchanged.
    package internal(set) var readUpstream: Bool?
    /// Whether and how the connection ends after the rest.
    package internal(set) var ending: Ending?

    init(number: Int) {
        self.number = number
    }

    /// Whether to read `side` from now on; nil: unchanged.
    package func reading(_ side: ProxySide) -> Bool? {
        side == .client ? readClient : readUpstream
    }

    mutating func setReading(_ side: ProxySide, _ on: Bool) {
        if side == .client { readClient = on } else { readUpstream = on }
    }
}
