public import LowbandWire

/// A connection's session on the server, from the moment it is accepted until it closes.
public struct SessionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The session's number, from 1 in accept order.
    public let rawValue: UInt64
    /// The session numbered `rawValue`.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (lhs: SessionID, rhs: SessionID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "session \(rawValue)" }
}

/// A frame the server sends, and the session it goes to.
public struct Outbound: Hashable, Sendable {
    /// The session the frame goes to.
    public var session: SessionID
    /// The frame to send.
    public var frame: Frame

    /// A frame for `session`.
    public init(session: SessionID, frame: Frame) {
        self.session = session
        self.frame = frame
    }
}

/// What a server has done so far.
public struct ServerStatistics: Hashable, Sendable {
    /// Request frames handled (answered with a reply or an error reply).
    public var requests = 0
    /// Error replies among them.
    public var errorReplies = 0
    /// Push frames sent (one per receiving session).
    public var pushes = 0
    /// Frames that could not be answered (pushes sent by a client) and were dropped.
    public var ignoredFrames = 0
    /// Messages created (sent or posted); idempotent retries are not counted.
    public var messagesCreated = 0

    /// Nothing done yet.
    public init() {}
}

extension ErrorReply.Code {
    /// 429: too many unfinished uploads (``ServerLimits/concurrentUploadsPerUser``).
    public static let tooManyRequests = ErrorReply.Code(rawValue: 429)
}

extension ErrorReply {
    init(_ code: Code, _ text: String) {
        self.init(code: code, text: text)
    }
}
