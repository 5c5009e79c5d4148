/// An error from reading or writing MessagePack: what went wrong and at which byte offset.
///
/// The code is an extensible struct rather than an enum, so new codes never break callers.
public struct MessagePackError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, e.g. `typeMismatch`.
        public let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The input ended in the middle of a value.
        public static let truncated = Code("truncated")
        /// The byte 0xc1, which the MessagePack spec never assigns.
        public static let invalidByte = Code("invalidByte")
        /// A value has another type than the one asked for.
        public static let typeMismatch = Code("typeMismatch")
        /// A string, binary, extension or container claims more bytes or elements than remain.
        public static let lengthExceedsInput = Code("lengthExceedsInput")
        /// Containers nest deeper than the configured limit.
        public static let depthLimitExceeded = Code("depthLimitExceeded")
        /// A str value holds bytes that are not valid UTF-8.
        public static let invalidUTF8 = Code("invalidUTF8")
        /// An integer does not fit the type it is decoded into.
        public static let integerOverflow = Code("integerOverflow")
        /// An extension of type -1 that is not a valid timestamp.
        public static let invalidTimestamp = Code("invalidTimestamp")
        /// Bytes remain after the value that was expected to fill the input.
        public static let trailingBytes = Code("trailingBytes")
        /// A keyed container has no value for a required key.
        public static let keyNotFound = Code("keyNotFound")
        /// A value is too large to be written (a length over 2^32 - 1).
        public static let valueTooLarge = Code("valueTooLarge")
        /// A map key is not a string or integer where one is required.
        public static let unsupportedKey = Code("unsupportedKey")
    }

    /// What kind of failure it is.
    public var code: Code
    /// What was wrong, in words.
    public var message: String
    /// Offset in the input of the byte where the problem was found, when reading.
    public var offset: Int?
    /// The Codable coding path, when the error comes from the Codable layer (e.g. `chats[3].title`).
    public var path: String?

    /// An error with `code` and `message`, and where when known.
    public init(_ code: Code, _ message: String, offset: Int? = nil, path: String? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
        self.path = path
    }

    public var description: String {
        var text = message
        if let path, !path.isEmpty { text += " at \(path)" }
        if let offset { text += " (byte offset \(offset))" }
        return text
    }
}
