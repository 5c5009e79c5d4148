public import LowbandWire

/// One unit of work the client owes the server, stored in the cache so it survives a restart.
///
/// A message with an attachment is two tasks: an upload, and a send that depends on it. A send
/// carries the client id it was given when it was stored, before anything went on the wire,
/// so however often it is retried (after a lost link, a timeout, a crash) the server stores it
/// once.
public struct OutboxTask: Hashable, Sendable {
    /// What a task does.
    ///
    /// `upload`: sends an attachment's bytes in chunks; `send`: sends a message.
    public enum Kind: String, Hashable, Sendable { case upload, send }

    /// Where a task stands.
    public enum State: String, Hashable, Sendable {
        /// Waiting for its dependency, the network, or its turn.
        case pending
        /// Completed: the upload is stored or the message sent.
        case done
        /// Refused by the server or its dependency failed; not retried on its own.
        case failed
    }

    /// The task's id in the cache, increasing in the order tasks were stored.
    public var id: Int64
    /// What the task does.
    public var kind: Kind
    /// Where the task stands.
    public var state: State
    /// The task that must be done first (a send waits for its upload).
    public var dependsOn: Int64?
    /// The chat a send goes to.
    public var chatID: Int64?
    /// The send's idempotency key, fixed when the task was stored.
    public var clientID: UInt64?
    /// The send's text.
    public var text: String?
    /// The upload's attachment; its `url` is filled in when the upload completes.
    public var attachment: Attachment?
    /// The server's id of the upload, once it began.
    public var uploadID: String?
    /// The upload's size in bytes.
    public var totalSize: Int64?
    /// Bytes the server has acknowledged: where the upload resumes.
    public var acknowledgedOffset: Int64
    /// Where the uploaded file is, once the upload completed.
    public var url: String?
    /// The sent message's server id.
    public var messageID: Int64?
    /// Requests made for the task so far.
    public var attempts: Int
    /// Why the last attempt failed, if it did.
    public var lastError: String?
    /// The engine's scheduler time when the task was stored (nil for tasks stored before the
    /// cache recorded it). Times from an earlier process are on that process's clock.
    public var storedAt: Duration?
}

/// An attachment's bytes and description, before upload.
public struct OutgoingAttachment: Hashable, Sendable {
    /// What kind of file the attachment is.
    public var kind: Attachment.Kind
    /// The bytes to upload.
    public var data: [UInt8]
    /// Width in pixels, for photos, videos and stickers.
    public var width: Int?
    /// Height in pixels, for photos, videos and stickers.
    public var height: Int?
    /// Playback length of voice and video, in milliseconds.
    public var duration: Int?

    /// An attachment; the optional dimensions default to unknown.
    public init(kind: Attachment.Kind, data: [UInt8], width: Int? = nil, height: Int? = nil, duration: Int? = nil) {
        self.kind = kind
        self.data = data
        self.width = width
        self.height = height
        self.duration = duration
    }
}
