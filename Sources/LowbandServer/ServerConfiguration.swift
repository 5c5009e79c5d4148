public import LowbandWire

/// How a messenger server behaves, whatever its data: its limits, where its clock starts and
/// how frames are sized. The data (users, chats, history) is given apart, as a
/// `ServerSnapshot`: the server knows no seeded world (`LowbandFixtures` makes one and hands
/// it over).
public struct ServerConfiguration: Sendable, Hashable {
    /// Server time (ms since the Unix epoch) where a server's clock starts unless told
    /// otherwise: 2026-01-01T00:00:00Z. Seeded data is dated before it.
    public static let standardEpoch: ServerTime = 1_767_225_600_000

    /// Caps on requests: history pages, message and upload sizes.
    public var limits: ServerLimits
    /// Server time (ms since the Unix epoch) when the server's scheduler reads zero.
    public var epoch: ServerTime
    /// Must match the transport's: replies are kept under its maximum payload length.
    public var frame: FrameConfiguration
    /// Caps on connections and sessions: idle and login timeouts, back-pressure, login back-off.
    public var connections: ConnectionLimits

    /// A configuration; every argument has a default.
    public init(
        limits: ServerLimits = ServerLimits(),
        epoch: ServerTime = ServerConfiguration.standardEpoch,
        frame: FrameConfiguration = FrameConfiguration(),
        connections: ConnectionLimits = ConnectionLimits()
    ) {
        self.limits = limits
        self.epoch = epoch
        self.frame = frame
        self.connections = connections
    }
}

/// Caps on every size that comes from the wire, so no client can make the server buffer without
/// bound.
public struct ServerLimits: Sendable, Hashable {
    /// The largest `count` of a history request.
    public var historyPageSize: Int
    /// The longest message text, in UTF-8 bytes.
    public var textBytes: Int
    /// The most attachments on one message.
    public var attachmentsPerMessage: Int
    /// The longest string field of an attachment (id, URL), in UTF-8 bytes.
    public var attachmentFieldBytes: Int
    /// The largest attachment (an upload's `totalSize`).
    public var uploadSize: Int64
    /// The largest piece of one `uploadChunk`.
    public var uploadPieceSize: Int
    /// Unfinished uploads one user may have at a time.
    public var concurrentUploadsPerUser: Int
    /// Bytes of all uploads the server keeps in memory.
    public var storedUploadBytes: Int
    /// The longest upload id, in UTF-8 bytes.
    public var uploadIDBytes: Int
    /// The longest login token, in UTF-8 bytes.
    public var tokenBytes: Int

    /// Limits; every argument has a default.
    public init(
        historyPageSize: Int = 200,
        textBytes: Int = 4096,
        attachmentsPerMessage: Int = 10,
        attachmentFieldBytes: Int = 512,
        uploadSize: Int64 = 16 << 20,
        uploadPieceSize: Int = 256 << 10,
        concurrentUploadsPerUser: Int = 4,
        storedUploadBytes: Int = 256 << 20,
        uploadIDBytes: Int = 128,
        tokenBytes: Int = 256
    ) {
        self.historyPageSize = historyPageSize
        self.textBytes = textBytes
        self.attachmentsPerMessage = attachmentsPerMessage
        self.attachmentFieldBytes = attachmentFieldBytes
        self.uploadSize = uploadSize
        self.uploadPieceSize = uploadPieceSize
        self.concurrentUploadsPerUser = concurrentUploadsPerUser
        self.storedUploadBytes = storedUploadBytes
        self.uploadIDBytes = uploadIDBytes
        self.tokenBytes = tokenBytes
    }
}
