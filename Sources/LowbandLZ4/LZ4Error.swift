/// An error from LZ4 compression or decompression: what went wrong and, for frames, where.
///
/// The code is an extensible struct rather than an enum, so new codes never break callers.
public struct LZ4Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as errors print it.
        public let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// A compression level or acceleration outside the range liblz4 supports.
        public static let invalidLevel = Code("invalidLevel")
        /// A size or option that makes no sense, such as a negative size.
        public static let invalidArgument = Code("invalidArgument")
        /// The input is larger than liblz4 can handle in one block (`LZ4Block.maximumInputSize`).
        public static let inputTooLarge = Code("inputTooLarge")
        /// The output buffer given by the caller cannot hold the result.
        public static let outputTooSmall = Code("outputTooSmall")
        /// The decompressed data would be larger than the caller's limit.
        public static let sizeLimitExceeded = Code("sizeLimitExceeded")
        /// Compressed data is malformed (or was compressed with another dictionary).
        public static let corruptInput = Code("corruptInput")
        /// Data decompressed to another size than the one declared.
        public static let sizeMismatch = Code("sizeMismatch")
        /// A frame checksum (content or block) does not match the data.
        public static let checksumMismatch = Code("checksumMismatch")
        /// The input does not start with the magic number of an LZ4 frame or skippable frame.
        public static let notAFrame = Code("notAFrame")
        /// The input is in a format liblz4's frame decoder does not read, such as the legacy format.
        public static let unsupportedFormat = Code("unsupportedFormat")
        /// Any other error reported by liblz4's frame API.
        public static let frame = Code("frame")
        /// The input ended inside a frame.
        public static let truncatedFrame = Code("truncatedFrame")
    }

    /// What kind of failure this is.
    public var code: Code
    /// What was wrong, in words, with the numbers involved.
    public var message: String
    /// Offset in the compressed input where the problem was found, when known (frames only).
    public var inputOffset: Int?

    /// An error of `code` saying `message`, at `inputOffset` in the input when known.
    public init(_ code: Code, _ message: String, inputOffset: Int? = nil) {
        self.code = code
        self.message = message
        self.inputOffset = inputOffset
    }

    public var description: String {
        guard let inputOffset else { return message }
        return "\(message) at input byte \(inputOffset)"
    }
}
