/// Limits and choices shared by the frame encoder and decoder of one connection.
public struct FrameConfiguration: Hashable, Sendable {
    /// The most payload bytes a frame may carry, on the wire and after decompression alike.
    /// Checked before anything is allocated. Default 1 MiB.
    public var maximumPayloadLength: Int
    /// When payloads are compressed on the way out.
    public var compression: CompressionPolicy
    /// Commands the decoder accepts; any other code is an `unknownCommand` error.
    public var knownCommands: Set<Command>
    /// Header versions the decoder accepts; any other is an `unsupportedVersion` error. A peer
    /// only ever accepts the version it speaks (``FrameHeader/currentVersion``); tools that read
    /// captures, like `lowband frames decode`, accept every version (``WireFormat``).
    public var acceptedVersions: ClosedRange<UInt8>

    /// A configuration; defaults: 1 MiB payloads, the default compression, this catalogue's
    /// commands and this build's version.
    ///
    /// - Precondition: `maximumPayloadLength` is 1 ... 2³²−1.
    public init(
        maximumPayloadLength: Int = 1 << 20,
        compression: CompressionPolicy = CompressionPolicy(),
        knownCommands: Set<Command> = Set(Command.catalogue.keys),
        acceptedVersions: ClosedRange<UInt8> = FrameHeader.currentVersion ... FrameHeader.currentVersion
    ) {
        precondition(maximumPayloadLength > 0 && maximumPayloadLength <= Int(UInt32.max), "maximumPayloadLength must be 1 ... 2^32-1")
        self.maximumPayloadLength = maximumPayloadLength
        self.compression = compression
        self.knownCommands = knownCommands
        self.acceptedVersions = acceptedVersions
    }
}
