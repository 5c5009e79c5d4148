/// One protocol frame as the application sees it: flags, command, sequence and the
/// uncompressed MessagePack payload.
///
/// Whether the payload travels compressed is the wire layer's business: the encoder's
/// ``CompressionPolicy`` decides (a `.compressed` flag set by the caller is ignored), and the
/// decoder decompresses and leaves `.compressed` out of `flags`. What the wire carried is in the
/// ``FrameHeader`` that ``FrameDecoder/nextFrame(from:)`` returns beside the frame.
///
/// ``compressionDictionary`` is the one exception the application decides: the wire dictionary
/// agreed at login, which the encoder compresses the payload with when it compresses it. A
/// decoded frame carries the dictionary its payload was compressed with, nil when it came plain
/// or as plain LZ4, so a peer can check that it was the agreed one.
public struct Frame: Hashable, Sendable {
    /// Response, error and push flags (`.compressed` is the wire's business, see above).
    public var flags: FrameFlags
    /// What the frame asks for or carries.
    public var command: Command
    /// Links a response to its request; pushes carry the server's push counter.
    public var sequence: UInt32
    /// The MessagePack payload, uncompressed.
    public var payload: [UInt8]
    /// Sending: the wire dictionary to compress the payload with, if it is compressed (the one
    /// agreed at login). Received: the dictionary it was compressed with; nil for none.
    public var compressionDictionary: WireDictionary.ID?

    /// A frame; no flags (a request) and no dictionary by default.
    public init(flags: FrameFlags = [], command: Command, sequence: UInt32, payload: [UInt8], compressionDictionary: WireDictionary.ID? = nil) {
        self.flags = flags
        self.command = command
        self.sequence = sequence
        self.payload = payload
        self.compressionDictionary = compressionDictionary
    }
}
