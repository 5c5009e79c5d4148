public import LowbandClient
public import LowbandWire

/// A client engine of a ``VirtualWorld`` and everything it has told its owner so far.
///
/// Keep it for as long as the engine should run; read ``events`` (or the views over them) after advancing the clock.
public final class VirtualClient: ClientEngineObserver {
    /// The user the engine is logged in as.
    public let user: Int64
    /// The engine: send, mark read, open chat screens, read its cache.
    public let engine: ClientEngine
    /// Every event the engine emitted, in order.
    public private(set) var events: [ClientEvent] = []

    init(user: Int64, engine: ClientEngine) {
        self.user = user
        self.engine = engine
        engine.addObserver(self)
    }

    /// Records `event`; the engine calls it on the world's scheduler.
    public func engine(_ engine: ClientEngine, didEmit event: ClientEvent) {
        events.append(event)
    }

    /// Messages pushed by the server and applied to the cache, in arrival order.
    public var arrived: [Message] {
        events.compactMap { if case .messageArrived(let message) = $0 { message } else { nil } }
    }

    /// Messages of this client's the server accepted, in order.
    public var sent: [Message] {
        events.compactMap { if case .outbox(.sent(_, let message)) = $0 { message } else { nil } }
    }

    /// Logins applied to the cache (one per session).
    public var syncs: [SyncStore.SyncOutcome] {
        events.compactMap { if case .synced(let outcome) = $0 { outcome } else { nil } }
    }

    /// Whether a session is up.
    public var isLoggedIn: Bool { engine.connection.isLoggedIn }
}
