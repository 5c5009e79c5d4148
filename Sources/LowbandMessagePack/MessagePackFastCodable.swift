/// A type that writes and reads its own MessagePack, directly on ``MessagePackWriter`` and
/// ``MessagePackReader``, without the Codable machinery.
///
/// A conformance is the hand-written fast path of a `Codable` type: it must write exactly the
/// bytes ``MessagePackEncoder`` writes for the value, and read everything
/// ``MessagePackDecoder`` accepts for it (keys in any order, unknown keys skipped, absent or nil
/// optionals, the first of duplicate keys winning). ``MessagePackReader/readMapKey()``,
/// ``MessagePackName`` and ``MessagePackReader/readFirst(into:_:)`` are the pieces to build
/// such a reader from.
public protocol MessagePackFastCodable {
    /// Appends the value's MessagePack bytes to `writer`.
    func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError)

    /// Reads the next value from `reader` and moves the reader past it.
    init(messagePack reader: inout MessagePackReader) throws(MessagePackError)

    /// Writes `elements` one after the other (an array's values, after its header).
    ///
    /// The default is right for every type; a requirement so that each conformance gets a copy
    /// of it specialized for its own type (see `Array`'s conformance below).
    static func writeMessagePack(elements: [Self], to writer: inout MessagePackWriter) throws(MessagePackError)

    /// Reads `count` values (an array's, after its header) into `buffer`'s first `count` slots,
    /// counting each one initialized in `initialized`; see ``writeMessagePack(elements:to:)``.
    static func readMessagePack(
        count: Int, into buffer: UnsafeMutableBufferPointer<Self>, initialized: inout Int, from reader: inout MessagePackReader
    ) throws(MessagePackError)
}

extension MessagePackFastCodable {
    @inlinable
    public static func writeMessagePack(elements: [Self], to writer: inout MessagePackWriter) throws(MessagePackError) {
        for index in elements.indices { try elements[index].writeMessagePack(to: &writer) }
    }

    @inlinable
    public static func readMessagePack(
        count: Int, into buffer: UnsafeMutableBufferPointer<Self>, initialized: inout Int, from reader: inout MessagePackReader
    ) throws(MessagePackError) {
        guard let base = buffer.baseAddress else { return }
        while initialized < count {
            (base + initialized).initialize(to: try Self(messagePack: &reader))
            initialized += 1
        }
    }
}

extension MessagePackFastCodable {
    /// The value's MessagePack bytes.
    public func messagePackBytes(reservingCapacity capacity: Int = 256) throws(MessagePackError) -> [UInt8] {
        var writer = MessagePackWriter(reservingCapacity: capacity)
        try writeMessagePack(to: &writer)
        return writer.bytes
    }

    /// Reads one value that must fill `bytes` exactly.
    public init(messagePackBytes bytes: [UInt8]) throws(MessagePackError) {
        var reader = MessagePackReader(bytes)
        self = try Self(messagePack: &reader)
        guard reader.isAtEnd else {
            throw MessagePackError(.trailingBytes, "\(reader.remaining) byte(s) follow the value", offset: reader.offset)
        }
    }
}

extension Array: MessagePackFastCodable where Element: MessagePackFastCodable {
    // The elements are written and read by their element type's own requirements, not here:
    // this conformance runs unspecialized (through the witness table) wherever the element type
    // is not known at the call, as in a codec that takes any `MessagePackFastCodable`, and then
    // each element also went through the witness table. A conformance's copy of the
    // requirements' defaults is specialized for its type: 2–3 % of the fast path's encode and
    // decode of 500 contacts (callgrind, issue 39). Each element is still copied once on either
    // side (docs/BENCHMARKS.md, "Codec speed"). Reading goes into the array's uninitialized
    // capacity, instead of `append`.

    @inlinable
    public func writeMessagePack(to writer: inout MessagePackWriter) throws(MessagePackError) {
        try writer.writeArrayHeader(count: count)
        try Element.writeMessagePack(elements: self, to: &writer)
    }

    @inlinable
    public init(messagePack reader: inout MessagePackReader) throws(MessagePackError) {
        let count = try reader.readArrayHeader()
        var failure: MessagePackError?
        self = Array(unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(MessagePackError) {
                try Element.readMessagePack(count: count, into: buffer, initialized: &initialized, from: &reader)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}

/// The UTF-8 bytes of a map key or enum name, matched against literals without building a
/// `String`: `switch name { case "id": … }`.
public struct MessagePackName: Sendable {
    /// The str's bytes; empty for an integer key.
    public let utf8: ArraySlice<UInt8>
    /// Whether the key was an integer, which matches no name.
    public let isInteger: Bool

    /// The name whose bytes are `utf8`, or an integer key when `isInteger`.
    @inlinable public init(utf8: ArraySlice<UInt8>, isInteger: Bool = false) {
        self.utf8 = utf8
        self.isInteger = isInteger
    }

    /// Whether `name` is the str `pattern`.
    @inlinable public static func ~= (pattern: StaticString, name: MessagePackName) -> Bool {
        guard !name.isInteger, pattern.utf8CodeUnitCount == name.utf8.count else { return false }
        return pattern.withUTF8Buffer { literal in
            name.utf8.withUnsafeBufferPointer { literal.elementsEqual($0) }
        }
    }
}

extension MessagePackReader {
    /// Reads a map key for a hand-written decoder.
    ///
    /// A str key comes back as its bytes. An integer key (a field no hand-written type has) is
    /// consumed and matches no name, so its value is skipped as unknown; any other kind fails
    /// with `.unsupportedKey`, and a str key that is not UTF-8, known or not, with
    /// `.invalidUTF8`, as both do in ``MessagePackDecoder``.
    public mutating func readMapKey() throws(MessagePackError) -> MessagePackName {
        let start = offset
        switch try peekKind() {
        case .string:
            let range = try readStringRange()
            let valid = bytes.withUnsafeBufferPointer { input in
                let utf8 = UnsafeBufferPointer(rebasing: input[range])
                return utf8.allSatisfy { $0 < 0x80 } || Self.validatedString(utf8) != nil
            }
            guard valid else {
                offset = start
                throw MessagePackError(.invalidUTF8, "map key of \(range.count) bytes is not valid UTF-8", offset: start)
            }
            return MessagePackName(utf8: bytes[range])
        case .int:
            try skipValue()
            return MessagePackName(utf8: [], isInteger: true)
        case let kind:
            throw MessagePackError(.unsupportedKey, "map key is \(kind.rawValue); only string and integer keys decode into Codable types", offset: start)
        }
    }

    /// Reads a str and matches it against names without allocating; see ``MessagePackName``.
    public mutating func readName() throws(MessagePackError) -> MessagePackName {
        MessagePackName(utf8: try readStringBytes())
    }

    /// Reads a map value into `slot`, or skips it when an earlier entry with the same key filled
    /// the slot: the first of duplicate keys wins, as in ``MessagePackDecoder``.
    @inlinable
    public mutating func readFirst<T>(into slot: inout T?, _ read: (inout MessagePackReader) throws(MessagePackError) -> T) throws(MessagePackError) {
        if slot == nil {
            slot = try read(&self)
        } else {
            try skipValue()
        }
    }
}

extension MessagePackWriter {
    /// Writes a str from a literal, e.g. a map key.
    public mutating func write(name: StaticString) throws(MessagePackError) {
        try writeStringHeader(count: name.utf8CodeUnitCount)
        name.withUTF8Buffer { writeRaw($0) }
    }
}

extension MessagePackError {
    /// The error for a map that lacks the required key `key`; `offset` is where the map starts.
    public static func keyNotFound(_ key: String, mapOffset offset: Int) -> MessagePackError {
        MessagePackError(.keyNotFound, "no value for key \"\(key)\"", offset: offset)
    }

    /// The error for a str that names no case of an enumeration.
    public static func unknownName(_ name: MessagePackName, of type: String, offset: Int) -> MessagePackError {
        let text = String(decoding: name.utf8, as: UTF8.self)
        return MessagePackError(.typeMismatch, "\"\(text)\" is not a case of \(type)", offset: offset)
    }
}
