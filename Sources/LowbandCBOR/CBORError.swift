/// A CBOR input that ``CBORReader`` does not take: what was wrong and where.
///
/// The code is an extensible struct rather than an enum, so new codes never break callers.
/// `description` reads like `CBOR: indefinite length is not taken at byte offset 0`.
public struct CBORError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, e.g. `unexpectedEnd`.
        public let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The input ends in the middle of a data item.
        public static let unexpectedEnd = Code("unexpectedEnd")
        /// A length runs past the input, or a text string is not UTF-8.
        public static let malformed = Code("malformed")
        /// Valid CBOR that the reader does not take (indefinite lengths, other tags, other simple
        /// values, a negative integer below `Int64.min`).
        public static let notTaken = Code("notTaken")
        /// Arrays, maps and tags nest deeper than ``CBORReader/maximumDepth``.
        public static let depthLimitExceeded = Code("depthLimitExceeded")
    }

    /// What kind of failure it is.
    public var code: Code
    /// What was wrong, in words.
    public var message: String
    /// Offset in the input of the data item where the problem was found.
    public var offset: Int

    /// An error with `code` and `message` at byte `offset`.
    public init(_ code: Code, _ message: String, offset: Int) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    public var description: String { "CBOR: \(message) at byte offset \(offset)" }
}
