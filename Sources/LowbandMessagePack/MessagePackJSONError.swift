/// An error from reading the JSON form of MessagePack: what was wrong and where in the text.
///
/// The code is an extensible struct rather than an enum, so new codes never break callers.
/// `description` reads like `unknown tag "$binary" ... at line 3, column 5 (byte offset 41)`.
public struct MessagePackJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, e.g. `duplicateKey`.
        public let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The text is not JSON: an unexpected character, a malformed number or literal.
        public static let syntax = Code("syntax")
        /// The text ends in the middle of a document.
        public static let unexpectedEnd = Code("unexpectedEnd")
        /// A string holds a bad escape, a raw control character, a lone surrogate or invalid UTF-8.
        public static let invalidString = Code("invalidString")
        /// An integer does not fit Int64 or UInt64, or a float overflows to infinity.
        public static let numberOutOfRange = Code("numberOutOfRange")
        /// Containers nest deeper than the configured limit.
        public static let depthLimitExceeded = Code("depthLimitExceeded")
        /// An object uses a `$` key that is not a known tag, or a tag with the wrong fields.
        public static let invalidTag = Code("invalidTag")
        /// A plain object names the same key twice (write such maps with `$map`).
        public static let duplicateKey = Code("duplicateKey")
        /// Something other than whitespace follows the single document that was expected.
        public static let trailingContent = Code("trailingContent")
    }

    /// What kind of failure it is.
    public var code: Code
    /// What was wrong, in words.
    public var message: String
    /// Offset in the input of the byte where the problem was found.
    public var offset: Int
    /// 1-based line of `offset`.
    public var line: Int
    /// 1-based column of `offset`, counted in Unicode scalars.
    public var column: Int

    /// An error with `code` and `message` at byte `offset`, which is at `line` and `column`.
    public init(_ code: Code, _ message: String, offset: Int, line: Int, column: Int) {
        self.code = code
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    public var description: String {
        "\(message) at line \(line), column \(column) (byte offset \(offset))"
    }
}

extension MessagePackJSONError {
    /// An error at `offset` of `bytes`, with the line and column worked out from the text.
    init(_ code: Code, _ message: String, offset: Int, in bytes: [UInt8]) {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xc0 != 0x80 {
                column += 1
            }
        }
        self.init(code, message, offset: offset, line: line, column: column)
    }
}
