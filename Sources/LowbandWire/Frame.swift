/// One protocol frame as the application sees it: flags, command, sequence and the
/// uncompressed MessagePack payload.
///
/// Whether the payload travels compressed is decided by the encoder's ``CompressionPolicy``;
/// a `.compressed` flag set by the caller is ignored on the way out. On the way in, the decoder
/// keeps `.compressed` in `flags` so callers can see what the wire carried.
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
