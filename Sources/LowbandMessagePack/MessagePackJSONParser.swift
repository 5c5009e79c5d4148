/// Reads the JSON form of MessagePack (see ``MessagePackJSON``), one document after another.
///
/// The grammar is strict RFC 8259 (no comments, trailing commas, single quotes, `NaN` or
/// leading zeros); a UTF-8 byte order mark at the very start is skipped. Objects keep their
/// order, integers are read exactly, and containers nest at most `maxDepth` deep, counted the
/// way ``MessagePackReader`` counts them (a `$map` is one level). Errors are
/// ``MessagePackJSONError`` values naming the line, column and byte offset.
public struct MessagePackJSONParser: Sendable {
    /// The whole input.
    public let bytes: [UInt8]
    /// Offset of the next byte to read.
    public internal(set) var offset: Int
    /// Maximum nesting of arrays and maps.
    public let maxDepth: Int

    /// A parser of the JSON text `bytes` (UTF-8; a leading byte-order mark is skipped).
    public init(_ bytes: [UInt8], maxDepth: Int = MessagePackLimits.defaultMaxDepth) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        offset = bytes.starts(with: [0xef, 0xbb, 0xbf]) ? 3 : 0
    }

    /// The next document, or nil when only whitespace remains.
    public mutating func next() throws(MessagePackJSONError) -> MessagePackValue? {
        skipWhitespace()
        guard offset < bytes.count else { return nil }
        return try parseValue(depth: 0)
    }

    /// Fails unless only whitespace remains.
    public mutating func expectEnd() throws(MessagePackJSONError) {
        skipWhitespace()
        guard offset < bytes.count else { return }
        throw failure(.trailingContent, "unexpected \(found()) after the end of the JSON document", at: offset)
    }

    // MARK: Values

    enum FloatHint { case float32, float64 }

    mutating func parseValue(depth: Int, hint: FloatHint? = nil) throws(MessagePackJSONError) -> MessagePackValue {
        guard let byte = peek() else {
            throw failure(.unexpectedEnd, "input ends where a value was expected", at: offset)
        }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"): return try parseNumber(hint: hint)
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .nil)
        case UInt8(ascii: "N"), UInt8(ascii: "I"): throw nonFinite(at: offset)
        default: throw failure(.syntax, "expected a value, found \(found())", at: offset)
        }
    }

    private mutating func literal(_ word: String, _ value: MessagePackValue) throws(MessagePackJSONError) -> MessagePackValue {
        let start = offset
        for char in word.utf8 {
            guard peek() == char else {
                throw failure(peek() == nil ? .unexpectedEnd : .syntax, "expected '\(word)', found \(found())", at: start)
            }
            offset += 1
        }
        return value
    }

    private mutating func parseArray(depth: Int) throws(MessagePackJSONError) -> MessagePackValue {
        let start = offset
        guard depth < maxDepth else { throw tooDeep(at: start) }
        offset += 1
        var elements: [MessagePackValue] = []
        try parseSequence(closer: "]", what: "an array element") { parser throws(MessagePackJSONError) in
            elements.append(try parser.parseValue(depth: depth + 1))
        }
        return .array(elements)
    }

    /// A member of an object, with where its key and value start.
    struct Member {
        var key: String
        var keyOffset: Int
        var value: MessagePackValue
        var valueOffset: Int
    }

    private mutating func parseObject(depth: Int) throws(MessagePackJSONError) -> MessagePackValue {
        let start = offset
        guard depth <= maxDepth else { throw tooDeep(at: start) }
        offset += 1
        var members: [Member] = []
        try parseSequence(closer: "}", what: "an object member") { parser throws(MessagePackJSONError) in
            let keyOffset = parser.offset
            guard parser.peek() == UInt8(ascii: "\"") else {
                throw parser.failure(parser.peek() == nil ? .unexpectedEnd : .syntax, "expected a string key, found \(parser.found())", at: keyOffset)
            }
            let key = try parser.parseString()
            parser.skipWhitespace()
            guard parser.peek() == UInt8(ascii: ":") else {
                throw parser.failure(parser.peek() == nil ? .unexpectedEnd : .syntax, "expected ':' after the key \"\(key)\", found \(parser.found())", at: parser.offset)
            }
            parser.offset += 1
            parser.skipWhitespace()
            let valueOffset = parser.offset
            let value: MessagePackValue = switch key {
            case "$map": try parser.parseMapPairs(depth: depth)
            case "$float32": try parser.parseValue(depth: depth + 1, hint: .float32)
            case "$float64": try parser.parseValue(depth: depth + 1, hint: .float64)
            default: try parser.parseValue(depth: depth + 1)
            }
            members.append(Member(key: key, keyOffset: keyOffset, value: value, valueOffset: valueOffset))
        }
        return try objectValue(members, at: start, depth: depth)
    }

    /// The `[[key, value], ...]` of a `$map`, whose arrays do not count as nesting levels.
    private mutating func parseMapPairs(depth: Int) throws(MessagePackJSONError) -> MessagePackValue {
        guard peek() == UInt8(ascii: "[") else {
            throw failure(.invalidTag, "$map takes an array of [key, value] pairs, found \(found())", at: offset)
        }
        offset += 1
        var entries: [(key: MessagePackValue, value: MessagePackValue)] = []
        try parseSequence(closer: "]", what: "a $map pair") { parser throws(MessagePackJSONError) in
            let pairOffset = parser.offset
            guard parser.peek() == UInt8(ascii: "[") else {
                throw parser.failure(.invalidTag, "each $map entry must be a [key, value] pair, found \(parser.found())", at: pairOffset)
            }
            parser.offset += 1
            var pair: [MessagePackValue] = []
            try parser.parseSequence(closer: "]", what: "a $map pair element") { parser throws(MessagePackJSONError) in
                guard pair.count < 2 else {
                    throw parser.failure(.invalidTag, "a $map pair holds more than a key and a value", at: parser.offset)
                }
                pair.append(try parser.parseValue(depth: depth + 1))
            }
            guard pair.count == 2 else {
                throw parser.failure(.invalidTag, "a $map pair holds \(pair.count) element(s); it needs a key and a value", at: pairOffset)
            }
            entries.append((pair[0], pair[1]))
        }
        return .map(entries)
    }

    /// Parses `element (, element)* closer` or just `closer`, the opener being consumed already.
    private mutating func parseSequence(closer: Character, what: String, element: (inout Self) throws(MessagePackJSONError) -> Void) throws(MessagePackJSONError) {
        let close = closer.asciiValue ?? 0
        skipWhitespace()
        if peek() == close {
            offset += 1
            return
        }
        while true {
            skipWhitespace()
            try element(&self)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                offset += 1
                skipWhitespace()
                if peek() == close {
                    throw failure(.syntax, "trailing comma before '\(closer)'", at: offset)
                }
            case close:
                offset += 1
                return
            case nil:
                throw failure(.unexpectedEnd, "input ends after \(what); expected ',' or '\(closer)'", at: offset)
            default:
                throw failure(.syntax, "expected ',' or '\(closer)' after \(what), found \(found())", at: offset)
            }
        }
    }

    // MARK: Helpers

    func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0a || byte == 0x0d || byte == 0x09 {
            offset += 1
        }
    }

    /// How the byte at `offset` reads in a message: `'x'`, `byte 0xE2` or `the end of the input`.
    func found() -> String {
        guard let byte = peek() else { return "the end of the input" }
        if byte >= 0x20, byte < 0x7f { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    func failure(_ code: MessagePackJSONError.Code, _ message: String, at position: Int) -> MessagePackJSONError {
        MessagePackJSONError(code, message, offset: position, in: bytes)
    }

    func tooDeep(at position: Int) -> MessagePackJSONError {
        failure(.depthLimitExceeded, "containers nest deeper than the limit of \(maxDepth)", at: position)
    }

    func nonFinite(at position: Int) -> MessagePackJSONError {
        failure(.syntax, "NaN and Infinity are not JSON numbers; write {\"$float64\": \"NaN\"}, \"Infinity\" or \"-Infinity\"", at: position)
    }
}
