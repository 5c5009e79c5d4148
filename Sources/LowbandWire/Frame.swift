/// One protocol frame as the application sees it: flags, command, sequence and the
/// uncompressed MessagePack payload.
///
/// Whether the payload travels compressed is the wire layer's business: the encoder's
/// ``CompressionPolicy`` decides (a `.compressed` flag set by the caller is ignored), and the
/// decoder decompresses and leaves `.compressed` out of `flags`. What the wire carried is in the
/// ``FrameHeader`` that ``FrameDecoder/nextFrame(from:)`` returns beside the frame.
public struct Frame: Hashable, Sendable {
    /// Response, error and push flags (`.compressed` is the wire's business, see above).
    public var flags: FrameFlags
    /// What the frame asks for or carries.
    public var command: Command
    /// Links a response to its request; pushes carry the server's push counter.
    public var sequence: UInt32
    /// The MessagePack payload, uncompressed.
    public var payload: [UInt8]

    /// A frame; no flags (a request) by default.
    public init(flags: FrameFlags = [], command: Command, sequence: UInt32, payload: [UInt8]) {
        self.flags = flags
        self.command = command
        self.sequence = sequence
        self.payload = payload
    }
}
