public import LowbandWire

/// What a ``Connection`` tells its owner.
public enum ConnectionEvent {
    /// A session started; the reply carries what changed since the login's `lastSync`.
    case loggedIn(LoginReply)
    /// A server push, not yet decoded.
    case push(Frame)
    /// The session ended or an attempt failed; a reconnect is scheduled.
    case disconnected(ClientError)
    /// The connection stopped for good (stopped by the owner, or the token was refused).
    case stopped(ClientError)
}

/// Receives a ``Connection``'s events, on its scheduler.
public protocol ConnectionObserver: AnyObject {
    /// `connection` logged in, received a push, lost its session or stopped (`event`).
    func connection(_ connection: Connection, didEmit event: ConnectionEvent)
}
