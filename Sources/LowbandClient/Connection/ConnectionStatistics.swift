import LowbandWire

/// Counters of one ``Connection``, for tests and reports.
///
/// Byte counts are frame bytes as the application sees them: the 12-byte header plus the
/// uncompressed MessagePack payload (what the wire carries is smaller when LZ4 pays).
public struct ConnectionStatistics: Hashable, Sendable {
    /// Links the connection tried to open.
    public var connectAttempts = 0
    /// Logins that succeeded.
    public var logins = 0
    /// Sessions that ended (link lost, dead or closed).
    public var disconnects = 0
    /// Heartbeat pings sent.
    public var pings = 0
    /// Server pushes received.
    public var pushes = 0
    /// Frames sent (requests, logins, pings).
    public var framesSent = 0
    /// Frames received (replies and pushes).
    public var framesReceived = 0
    /// Frame bytes sent: header plus uncompressed payload.
    public var bytesSent = 0
    /// Frame bytes received: header plus uncompressed payload.
    public var bytesReceived = 0
    /// Frames dropped because they answered no request in flight or the wrong one.
    public var unexpectedFrames = 0
    /// Payload bytes of each login reply, in order: the first is the full sync, later ones
    /// the deltas after reconnects.
    public var loginReplyPayloadBytes: [Int] = []

    /// All counters at zero.
    package init() {}

    mutating func record(sent frame: Frame) {
        framesSent += 1
        bytesSent += FrameHeader.size + frame.payload.count
    }

    mutating func record(received frame: Frame) {
        framesReceived += 1
        bytesReceived += FrameHeader.size + frame.payload.count
    }
}
