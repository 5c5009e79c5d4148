/// Frames and bytes that went one way over a link.
public struct TrafficCount: Hashable, Sendable, CustomStringConvertible {
    /// Whole frames.
    public var frames: Int
    /// Bytes on the wire: 12-byte headers plus payloads as they travelled (compressed or not).
    public var bytes: Int
    /// Payload bytes before compression, as the application sees them.
    public var payloadBytes: Int

    /// A count; zero by default.
    public init(frames: Int = 0, bytes: Int = 0, payloadBytes: Int = 0) {
        self.frames = frames
        self.bytes = bytes
        self.payloadBytes = payloadBytes
    }

    /// Nothing moved.
    public static let zero = TrafficCount()

    /// Both counts added up, field by field.
    public static func + (lhs: TrafficCount, rhs: TrafficCount) -> TrafficCount {
        TrafficCount(frames: lhs.frames + rhs.frames, bytes: lhs.bytes + rhs.bytes, payloadBytes: lhs.payloadBytes + rhs.payloadBytes)
    }

    /// Adds `rhs` to `lhs`, field by field.
    public static func += (lhs: inout TrafficCount, rhs: TrafficCount) {
        lhs = lhs + rhs
    }

    public var description: String { "\(frames) frames, \(bytes) bytes (\(payloadBytes) payload)" }
}
