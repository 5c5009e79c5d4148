/// One protocol frame as the application sees it: flags, command, sequence and the
/// uncompressed MessagePack payload.
///
/// Whether the payload travels compressed is the wire layer's business: the encoder's
/// ``CompressionPolicy`` decides (a `.compressed` flag set by the caller is ignored), and the
/// decoder decompresses and leaves `.compressed` out of `flags`. What the wire carried is in the
/// ``FrameHeader`` that ``FrameDecoder/nextFrame(from:)`` returns beside the frame.
public struct Frame: Hashable, Sendable {
    public var flags: FrameFlags
    public var command: Command
    public var sequence: UInt32
    public var payload: [UInt8]

    public init(flags: FrameFlags = [], command: Command, sequence: UInt32, payload: [UInt8]) {
        self.flags = flags
        self.command = command
        self.sequence = sequence
        self.payload = payload
    }
}
