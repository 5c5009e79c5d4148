/// A framing error: what was wrong with the byte stream and where.
///
/// After any of these the stream cannot be trusted, so the connection is closed.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reason of a ``WireError``; compare with the static members, e.g. `.frameTooLarge`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, e.g. `frameTooLarge`.
        public let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The header's version byte is not one this build speaks.
        public static let unsupportedVersion = Code("unsupportedVersion")
        /// Reserved flag bits are set, or flags contradict each other (a dictionary id on a
        /// payload that is not compressed, too).
        public static let invalidFlags = Code("invalidFlags")
        /// The command code is not in the catalogue.
        public static let unknownCommand = Code("unknownCommand")
        /// The payload on the wire is longer than the configured maximum.
        public static let frameTooLarge = Code("frameTooLarge")
        /// A compressed payload declares an uncompressed size over the maximum.
        public static let decompressedTooLarge = Code("decompressedTooLarge")
        /// A compressed payload does not decompress to its declared size.
        public static let decompressionFailed = Code("decompressionFailed")
        /// A frame names a wire dictionary this peer does not have.
        public static let unknownDictionary = Code("unknownDictionary")
        /// The stream ended inside a frame.
        public static let truncatedStream = Code("truncatedStream")
        /// A payload is not the MessagePack the command calls for.
        public static let malformedPayload = Code("malformedPayload")
    }

    /// What was wrong.
    public var code: Code
    /// What was wrong and where, for a human.
    public var message: String
    /// Offset in the byte stream (counted from its first byte) of the frame at fault.
    public var streamOffset: Int?
    /// The header of the frame at fault, when its 12 bytes were read.
    public var header: FrameHeader?

    /// An error with `code` and `message`, and where in the stream when known.
    public init(_ code: Code, _ message: String, streamOffset: Int? = nil, header: FrameHeader? = nil) {
        self.code = code
        self.message = message
        self.streamOffset = streamOffset
        self.header = header
    }

    public var description: String {
        guard let streamOffset else { return message }
        return "\(message) (frame at stream byte offset \(streamOffset))"
    }
}
