public import LowbandWire

/// One unit of work the client owes the server, stored in the cache so it survives a restart.
///
/// A message with an attachment is two tasks: an upload, and a send that depends on it. A send
/// carries the client id it was given when it was stored, before anything went on the wire,
/// so however often it is retried (after a lost link, a timeout, a crash) the server stores it
/// once.
public struct OutboxTask: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable { case upload, send }

    public enum State: String, Hashable, Sendable {
        /// Waiting for its dependency, the network, or its turn.
        case pending
        case done
        /// Refused by the server or its dependency failed; not retried on its own.
        case failed
    }

    public var id: Int64
    public var kind: Kind
    public var state: State
    /// The task that must be done first (a send waits for its upload).
    public var dependsOn: Int64?
    public var chatID: Int64?
    /// The send's idempotency key, fixed when the task was stored.
    public var clientID: UInt64?
    public var text: String?
    /// The upload's attachment; its `url` is filled in when the upload completes.
    public var attachment: Attachment?
    public var uploadID: String?
    public var totalSize: Int64?
    /// Bytes the server has acknowledged: where the upload resumes.
    public var acknowledgedOffset: Int64
    public var url: String?
    /// The sent message's server id.
    public var messageID: Int64?
    public var attempts: Int
    public var lastError: String?
    /// The engine's scheduler time when the task was stored (nil for tasks stored before the
    /// cache recorded it). Times from an earlier process are on that process's clock.
    public var storedAt: Duration?
}

/// An attachment's bytes and description, before upload.
public struct OutgoingAttachment: Hashable, Sendable {
    public var kind: Attachment.Kind
    public var data: [UInt8]
    public var width: Int?
    public var height: Int?
    public var duration: Int?

    public init(kind: Attachment.Kind, data: [UInt8], width: Int? = nil, height: Int? = nil, duration: Int? = nil) {
        self.kind = kind
        self.data = data
        self.width = width
        self.height = height
        self.duration = duration
    }
}
