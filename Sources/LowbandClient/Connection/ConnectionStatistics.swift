import LowbandWire

/// Counters of one ``Connection``, for tests and reports.
///
/// Byte counts are frame bytes as the application sees them: the 12-byte header plus the
/// uncompressed MessagePack payload (what the wire carries is smaller when LZ4 pays).
public struct ConnectionStatistics: Hashable, Sendable {
    public var connectAttempts = 0
    public var logins = 0
    public var disconnects = 0
    public var pings = 0
    public var pushes = 0
    public var framesSent = 0
    public var framesReceived = 0
    public var bytesSent = 0
    public var bytesReceived = 0
    /// Frames dropped because they answered no request in flight or the wrong one.
    public var unexpectedFrames = 0
    /// Payload bytes of each login reply, in order: the first is the full sync, later ones
    /// the deltas after reconnects.
    public var loginReplyPayloadBytes: [Int] = []

    public init() {}

    mutating func record(sent frame: Frame) {
        framesSent += 1
        bytesSent += FrameHeader.size + frame.payload.count
    }

    mutating func record(received frame: Frame) {
        framesReceived += 1
        bytesReceived += FrameHeader.size + frame.payload.count
    }
}
