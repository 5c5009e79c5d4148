/// Reads MessagePack values from bytes, one header or scalar at a time.
///
/// The reader never allocates for scalars, headers, `readStringBytes()` or `readBinary()` (those
/// return slices of the input). Every length read from the input is checked against the bytes
/// that remain before it is used, and a container's element count against the smallest size its
/// elements could have, so no input makes a caller allocate more than the input could hold.
/// Errors are ``MessagePackError`` values carrying the byte offset of the problem.
///
/// Choice on invalid UTF-8: `readString()` rejects it with `.invalidUTF8` (as msgpack-python
/// does with `raw=False`); `readStringBytes()` hands the raw bytes to callers who want them.
public struct MessagePackReader: Sendable {
    /// The whole input.
    public let bytes: [UInt8]
    /// Offset of the next byte to read.
    public internal(set) var offset: Int

    /// A reader of `bytes`, starting at `offset`.
    public init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Bytes left to read.
    @inlinable public var remaining: Int { bytes.count - offset }
    /// True when every byte has been read.
    @inlinable public var isAtEnd: Bool { offset >= bytes.count }

    /// Moves the reader to `offset` (for decoders that index values and come back to them).
    public mutating func seek(to offset: Int) {
        precondition(offset >= 0 && offset <= bytes.count, "offset \(offset) is outside the input")
        self.offset = offset
    }

    // MARK: Peeking

    /// The kind of the next value, without consuming it.
    public func peekKind() throws(MessagePackError) -> MessagePackKind {
        let first = try peekByte()
        switch first {
        case 0x00 ... 0x7f, 0xe0 ... 0xff, 0xcc ... 0xd3: return .int
        case 0x80 ... 0x8f, 0xde, 0xdf: return .map
        case 0x90 ... 0x9f, 0xdc, 0xdd: return .array
        case 0xa0 ... 0xbf, 0xd9 ... 0xdb: return .string
        case 0xc0: return .nil
        case 0xc2, 0xc3: return .bool
        case 0xc4 ... 0xc6: return .binary
        case 0xca, 0xcb: return .float
        case 0xd6, 0xd7: return try byte(at: offset + 1) == 0xff ? .timestamp : .extension
        case 0xc7: return try byte(at: offset + 2) == 0xff ? .timestamp : .extension
        case 0xc8, 0xc9, 0xd4, 0xd5, 0xd8: return try extensionTypeIsTimestamp(first) ? .timestamp : .extension
        default: throw invalidByte(at: offset)
        }
    }

    /// Consumes a nil if one is next and tells whether it did.
    public mutating func readNilIfPresent() throws(MessagePackError) -> Bool {
        guard try peekByte() == 0xc0 else { return false }
        offset += 1
        return true
    }

    // MARK: Scalars

    /// Reads a nil.
    ///
    /// - Throws: `typeMismatch` (the reader stays put) when the next value is not nil, `truncated`
    ///   at the end of the input.
    public mutating func readNil() throws(MessagePackError) {
        let start = offset
        guard try readByte() == 0xc0 else {
            offset = start
            throw mismatch("nil", at: start)
        }
    }

    /// Reads a boolean.
    ///
    /// - Throws: `typeMismatch` (the reader stays put) when the next value is not a boolean,
    ///   `truncated` at the end of the input.
    public mutating func readBool() throws(MessagePackError) -> Bool {
        let start = offset
        switch try readByte() {
        case 0xc2: return false
        case 0xc3: return true
        default:
            offset = start
            throw mismatch("bool", at: start)
        }
    }

    /// Reads any integer form as `Int64`; a uint64 above `Int64.max` is an overflow error.
    public mutating func readInt64() throws(MessagePackError) -> Int64 {
        try readInteger(Int64.self)
    }

    /// Reads any integer form as `Int`; a value outside `Int`'s range is an overflow error.
    ///
    /// ``readInteger(_:)`` with `Int.self`, compiled here: called from another module the
    /// generic function runs unspecialized, which costs about a hundred instructions a value.
    public mutating func readInt() throws(MessagePackError) -> Int {
        try readInteger(Int.self)
    }

    /// Reads any integer form as `UInt64`; a negative value is an overflow error.
    public mutating func readUInt64() throws(MessagePackError) -> UInt64 {
        try readInteger(UInt64.self)
    }

    /// Reads any integer form into `T`, failing with `.integerOverflow` when it does not fit.
    public mutating func readInteger<T: FixedWidthInteger>(_: T.Type) throws(MessagePackError) -> T {
        // A positive fixint fits every integer type: most counts, codes and small ids.
        if offset < bytes.count, bytes[offset] <= 0x7f {
            defer { offset += 1 }
            return T(truncatingIfNeeded: bytes[offset])
        }
        // uint8…uint64 and int8…int64 whose bytes are all there and whose value fits: ids,
        // times, sizes. One load and one check; every other case, errors included, below.
        if let field = fixedWidthInteger(), let value = field.isUnsigned ? T(exactly: field.unsigned) : T(exactly: field.value) {
            offset += 1 + field.size
            return value
        }
        let start = offset
        let raw = try readRawInteger()
        let result: T?
        switch raw {
        case let .signed(value): result = T(exactly: value)
        case let .unsigned(value): result = T(exactly: value)
        }
        guard let result else {
            offset = start
            throw MessagePackError(.integerOverflow, "integer \(raw) does not fit \(T.self)", offset: start)
        }
        return result
    }

    /// The integer of the form 0xcc…0xd3 at `offset` and the size of its field, when all of it
    /// is there; nil for anything else. Not generic, so that a caller that is (``readInteger(_:)``
    /// called from another module) builds no metadata for it.
    @inline(__always)
    private func fixedWidthInteger() -> (value: Int64, unsigned: UInt64, isUnsigned: Bool, size: Int)? {
        bytes.withUnsafeBytes { input -> (value: Int64, unsigned: UInt64, isUnsigned: Bool, size: Int)? in
            guard offset < input.count else { return nil }
            let header = input[offset]
            guard header >= 0xcc, header <= 0xd3 else { return nil }
            let size = 1 << Int((header - 0xcc) & 3)
            guard input.count - offset > size else { return nil }
            let field = offset + 1
            switch header {
            case 0xcc: return (0, UInt64(input[field]), true, size)
            case 0xcd: return (0, UInt64(UInt16(bigEndian: input.loadUnaligned(fromByteOffset: field, as: UInt16.self))), true, size)
            case 0xce: return (0, UInt64(UInt32(bigEndian: input.loadUnaligned(fromByteOffset: field, as: UInt32.self))), true, size)
            case 0xcf: return (0, UInt64(bigEndian: input.loadUnaligned(fromByteOffset: field, as: UInt64.self)), true, size)
            case 0xd0: return (Int64(Int8(bitPattern: input[field])), 0, false, size)
            case 0xd1: return (Int64(Int16(bigEndian: input.loadUnaligned(fromByteOffset: field, as: Int16.self))), 0, false, size)
            case 0xd2: return (Int64(Int32(bigEndian: input.loadUnaligned(fromByteOffset: field, as: Int32.self))), 0, false, size)
            default: return (Int64(bigEndian: input.loadUnaligned(fromByteOffset: field, as: Int64.self)), 0, false, size)
            }
        }
    }

    /// Reads a float64, a float32 (widened) or an integer that a `Double` holds exactly.
    public mutating func readDouble() throws(MessagePackError) -> Double {
        let start = offset
        switch try peekByte() {
        case 0xca:
            offset += 1
            return Double(Float(bitPattern: try readBigEndian(UInt32.self)))
        case 0xcb:
            offset += 1
            return Double(bitPattern: try readBigEndian(UInt64.self))
        default:
            let raw = try readRawInteger(expected: "float")
            let value: Double? = switch raw {
            case let .signed(number): Double(exactly: number)
            case let .unsigned(number): Double(exactly: number)
            }
            guard let value else {
                offset = start
                throw MessagePackError(.integerOverflow, "integer \(raw) has no exact Double value", offset: start)
            }
            return value
        }
    }

    /// Reads a float32, or a float64 or integer rounded to the nearest `Float`.
    public mutating func readFloat() throws(MessagePackError) -> Float {
        if try peekByte() == 0xca {
            offset += 1
            return Float(bitPattern: try readBigEndian(UInt32.self))
        }
        return Float(try readDouble())
    }

    // MARK: Strings and binaries

    /// Reads a str, validating its UTF-8.
    public mutating func readString() throws(MessagePackError) -> String {
        let start = offset
        let range = try readStringRange()
        // Through a buffer pointer: a slice of `bytes` would retain and release the array.
        let text = bytes.withUnsafeBufferPointer { Self.validatedString(UnsafeBufferPointer(rebasing: $0[range])) }
        guard let text else {
            offset = start
            throw MessagePackError(.invalidUTF8, "string of \(range.count) bytes is not valid UTF-8", offset: start)
        }
        return text
    }

    /// The UTF-8 in `utf8` as a `String`, or nil when it is not valid UTF-8.
    ///
    /// The standard library's own check-and-copy, which validates once (ASCII first, eight
    /// bytes at a time) and builds the string from what it learned. `String(validating:as:)`
    /// reaches the same function through a generic layer that looks metadata up on every call;
    /// `String(decoding:as:)` repairs instead of failing, so telling valid from repaired needed
    /// a scan of our own before it (ASCII) or a comparison after it, which with the generic
    /// layer was about a fifth of the fast path's decode of 500 contacts (callgrind, issue 39).
    /// `_tryFromUTF8` is public (underscored: swift-foundation's `String(data:encoding:)` calls
    /// it) and part of the standard library's ABI.
    @inline(__always)
    static func validatedString(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
        String._tryFromUTF8(utf8)
    }

    /// Reads a str's bytes without decoding them (no allocation, no UTF-8 check).
    public mutating func readStringBytes() throws(MessagePackError) -> ArraySlice<UInt8> {
        bytes[try readStringRange()]
    }

    /// Reads a str header and moves past its bytes, returning where they are in `bytes`.
    mutating func readStringRange() throws(MessagePackError) -> Range<Int> {
        let start = offset
        // A fixstr whose bytes are all there (nearly every key and field): one check, then the
        // checked path below for the other forms and for every error.
        if start < bytes.count {
            let header = bytes[start]
            let count = Int(header & 0x1f)
            if header & 0xe0 == 0xa0, count < bytes.count - start {
                offset = start + 1 + count
                return start + 1 ..< offset
            }
        }
        let byte = try readByte()
        let count: Int
        switch byte {
        case 0xa0 ... 0xbf: count = Int(byte & 0x1f)
        case 0xd9: count = Int(try readBigEndian(UInt8.self))
        case 0xda: count = Int(try readBigEndian(UInt16.self))
        case 0xdb: count = Int(try readBigEndian(UInt32.self))
        default:
            offset = start
            throw mismatch("string", at: start)
        }
        return try readRange(count, of: "string", start: start)
    }

    /// Reads a bin's bytes as a slice of the input.
    public mutating func readBinary() throws(MessagePackError) -> ArraySlice<UInt8> {
        let start = offset
        let count: Int
        switch try readByte() {
        case 0xc4: count = Int(try readBigEndian(UInt8.self))
        case 0xc5: count = Int(try readBigEndian(UInt16.self))
        case 0xc6: count = Int(try readBigEndian(UInt32.self))
        default:
            offset = start
            throw mismatch("binary", at: start)
        }
        return try readSlice(count, of: "binary", start: start)
    }

    // MARK: Containers

    /// Reads an array header and returns the element count, checked against the remaining bytes.
    public mutating func readArrayHeader() throws(MessagePackError) -> Int {
        let start = offset
        let byte = try readByte()
        let count: Int
        switch byte {
        case 0x90 ... 0x9f: count = Int(byte & 0x0f)
        case 0xdc: count = Int(try readBigEndian(UInt16.self))
        case 0xdd: count = Int(try readBigEndian(UInt32.self))
        default:
            offset = start
            throw mismatch("array", at: start)
        }
        guard count <= remaining else {
            let available = remaining
            offset = start
            throw MessagePackError(.lengthExceedsInput, "array of \(count) elements cannot fit in the \(available) bytes that remain", offset: start)
        }
        return count
    }

    /// Reads a map header and returns the entry count, checked against the remaining bytes.
    public mutating func readMapHeader() throws(MessagePackError) -> Int {
        let start = offset
        let byte = try readByte()
        let count: Int
        switch byte {
        case 0x80 ... 0x8f: count = Int(byte & 0x0f)
        case 0xde: count = Int(try readBigEndian(UInt16.self))
        case 0xdf: count = Int(try readBigEndian(UInt32.self))
        default:
            offset = start
            throw mismatch("map", at: start)
        }
        guard count * 2 <= remaining else {
            let available = remaining
            offset = start
            throw MessagePackError(.lengthExceedsInput, "map of \(count) entries cannot fit in the \(available) bytes that remain", offset: start)
        }
        return count
    }

    // MARK: Extensions

    /// Reads any extension, including timestamps, as its type code and data slice.
    public mutating func readExtension() throws(MessagePackError) -> (type: Int8, data: ArraySlice<UInt8>) {
        let start = offset
        let count: Int
        switch try readByte() {
        case 0xd4: count = 1
        case 0xd5: count = 2
        case 0xd6: count = 4
        case 0xd7: count = 8
        case 0xd8: count = 16
        case 0xc7: count = Int(try readBigEndian(UInt8.self))
        case 0xc8: count = Int(try readBigEndian(UInt16.self))
        case 0xc9: count = Int(try readBigEndian(UInt32.self))
        default:
            offset = start
            throw mismatch("extension", at: start)
        }
        // The type byte is data: 0xc1 (type -63) is as valid here as any other.
        guard offset < bytes.count else {
            let needed = offset - start + 1
            offset = start
            throw truncated(needing: needed, at: start)
        }
        let type = Int8(bitPattern: bytes[offset])
        offset += 1
        return (type, try readSlice(count, of: "extension", start: start))
    }

    /// Reads a timestamp extension (type -1) in its 32-, 64- or 96-bit form.
    public mutating func readTimestamp() throws(MessagePackError) -> MessagePackTimestamp {
        let start = offset
        let (type, data) = try readExtension()
        guard type == MessagePackTimestamp.extensionType else {
            offset = start
            throw mismatch("timestamp", at: start)
        }
        guard let timestamp = MessagePackTimestamp(extensionData: data) else {
            offset = start
            throw MessagePackError(.invalidTimestamp, "timestamp extension of \(data.count) bytes is not a valid 32-, 64- or 96-bit timestamp (or its nanoseconds exceed 999999999)", offset: start)
        }
        return timestamp
    }

    // MARK: Whole values

    /// Skips the next value whatever its kind, without recursion and without allocating.
    public mutating func skipValue() throws(MessagePackError) {
        var pending = 1
        while pending > 0 {
            pending -= 1
            let start = offset
            switch try peekKind() {
            case .nil, .bool, .int, .float:
                offset += Self.scalarSize(of: bytes[offset])
                guard offset <= bytes.count else {
                    offset = start
                    throw truncated(needing: Self.scalarSize(of: bytes[start]), at: start)
                }
            case .string: _ = try readStringRange()
            case .binary: _ = try readBinary()
            case .extension, .timestamp: _ = try readExtension()
            case .array: pending += try readArrayHeader()
            case .map: pending += try readMapHeader() * 2
            }
            if pending > remaining {
                throw MessagePackError(.lengthExceedsInput, "\(pending) more values cannot fit in the \(remaining) bytes that remain", offset: offset)
            }
        }
    }

    /// Reads the next value as a tree, failing past `maxDepth` nested containers.
    public mutating func readValue(maxDepth: Int = MessagePackLimits.defaultMaxDepth) throws(MessagePackError) -> MessagePackValue {
        try readValue(depth: 0, maxDepth: maxDepth)
    }

    private mutating func readValue(depth: Int, maxDepth: Int) throws(MessagePackError) -> MessagePackValue {
        let start = offset
        switch try peekKind() {
        case .nil:
            offset += 1
            return .nil
        case .bool: return .bool(try readBool())
        case .int:
            switch try readRawInteger() {
            case let .signed(value): return .int(value)
            case let .unsigned(value): return value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
            }
        case .float:
            if bytes[offset] == 0xca { return .float(try readFloat()) }
            return .double(try readDouble())
        case .string: return .string(try readString())
        case .binary: return .binary(Array(try readBinary()))
        case .timestamp: return .timestamp(try readTimestamp())
        case .extension:
            let (type, data) = try readExtension()
            return .extension(type: type, data: Array(data))
        case .array:
            guard depth < maxDepth else { throw tooDeep(maxDepth, at: start) }
            let count = try readArrayHeader()
            var elements: [MessagePackValue] = []
            elements.reserveCapacity(count)
            for _ in 0 ..< count {
                elements.append(try readValue(depth: depth + 1, maxDepth: maxDepth))
            }
            return .array(elements)
        case .map:
            guard depth < maxDepth else { throw tooDeep(maxDepth, at: start) }
            let count = try readMapHeader()
            var entries: [(key: MessagePackValue, value: MessagePackValue)] = []
            entries.reserveCapacity(count)
            for _ in 0 ..< count {
                let key = try readValue(depth: depth + 1, maxDepth: maxDepth)
                let value = try readValue(depth: depth + 1, maxDepth: maxDepth)
                entries.append((key, value))
            }
            return .map(entries)
        }
    }

    // MARK: Primitives

    enum RawInteger: CustomStringConvertible {
        case signed(Int64)
        case unsigned(UInt64)
        var description: String {
            switch self {
            case let .signed(value): "\(value)"
            case let .unsigned(value): "\(value)"
            }
        }
    }

    private mutating func readRawInteger(expected: String = "integer") throws(MessagePackError) -> RawInteger {
        let start = offset
        let byte = try readByte()
        switch byte {
        case 0x00 ... 0x7f: return .unsigned(UInt64(byte))
        case 0xe0 ... 0xff: return .signed(Int64(Int8(bitPattern: byte)))
        case 0xcc: return .unsigned(UInt64(try readBigEndian(UInt8.self)))
        case 0xcd: return .unsigned(UInt64(try readBigEndian(UInt16.self)))
        case 0xce: return .unsigned(UInt64(try readBigEndian(UInt32.self)))
        case 0xcf: return .unsigned(try readBigEndian(UInt64.self))
        case 0xd0: return .signed(Int64(Int8(bitPattern: try readBigEndian(UInt8.self))))
        case 0xd1: return .signed(Int64(Int16(bitPattern: try readBigEndian(UInt16.self))))
        case 0xd2: return .signed(Int64(Int32(bitPattern: try readBigEndian(UInt32.self))))
        case 0xd3: return .signed(Int64(bitPattern: try readBigEndian(UInt64.self)))
        default:
            offset = start
            throw mismatch(expected, at: start)
        }
    }

    @inline(__always)
    private func peekByte() throws(MessagePackError) -> UInt8 {
        try byte(at: offset)
    }

    @inline(__always)
    private func byte(at index: Int) throws(MessagePackError) -> UInt8 {
        guard index < bytes.count else { throw truncated(needing: index - offset + 1, at: offset) }
        let byte = bytes[index]
        if byte == 0xc1, index == offset { throw invalidByte(at: index) }
        return byte
    }

    @inline(__always)
    private mutating func readByte() throws(MessagePackError) -> UInt8 {
        let byte = try peekByte()
        offset += 1
        return byte
    }

    /// Reads the big-endian field that follows the one-byte header just consumed. When the input
    /// is too short it moves back to that header and reports the truncation there, so every
    /// truncated value is reported at its first byte, whichever function read it.
    @inline(__always)
    private mutating func readBigEndian<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) throws(MessagePackError) -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else {
            offset -= 1
            throw truncated(needing: 1 + size, at: offset)
        }
        // One unaligned load instead of a bounds-checked read per byte.
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        offset += size
        return T(bigEndian: value)
    }

    private mutating func readSlice(_ count: Int, of what: String, start: Int) throws(MessagePackError) -> ArraySlice<UInt8> {
        bytes[try readRange(count, of: what, start: start)]
    }

    private mutating func readRange(_ count: Int, of what: String, start: Int) throws(MessagePackError) -> Range<Int> {
        guard count <= remaining else {
            let available = remaining
            offset = start
            throw MessagePackError(.lengthExceedsInput, "\(what) of \(count) bytes is longer than the \(available) bytes that remain", offset: start)
        }
        defer { offset += count }
        return offset ..< offset + count
    }

    private func extensionTypeIsTimestamp(_ first: UInt8) throws(MessagePackError) -> Bool {
        let typeOffset = switch first {
        case 0xc8: offset + 3
        case 0xc9: offset + 5
        default: offset + 1
        }
        return try byte(at: typeOffset) == 0xff
    }

    private static func scalarSize(of byte: UInt8) -> Int {
        switch byte {
        case 0xcc, 0xd0: 2
        case 0xcd, 0xd1: 3
        case 0xca, 0xce, 0xd2: 5
        case 0xcb, 0xcf, 0xd3: 9
        default: 1
        }
    }

    private func truncated(needing count: Int, at position: Int) -> MessagePackError {
        MessagePackError(.truncated, "input ends \(bytes.count - position) byte(s) into a value that needs at least \(count)", offset: position)
    }

    private func invalidByte(at position: Int) -> MessagePackError {
        MessagePackError(.invalidByte, "byte 0xc1 is never used in MessagePack", offset: position)
    }

    private func mismatch(_ expected: String, at position: Int) -> MessagePackError {
        let found = (try? peekKindAt(position)).map { $0.rawValue } ?? "invalid byte"
        return MessagePackError(.typeMismatch, "expected \(expected), found \(found)", offset: position)
    }

    private func tooDeep(_ maxDepth: Int, at position: Int) -> MessagePackError {
        MessagePackError(.depthLimitExceeded, "containers nest deeper than the limit of \(maxDepth)", offset: position)
    }

    private func peekKindAt(_ position: Int) throws(MessagePackError) -> MessagePackKind {
        var probe = self
        probe.offset = position
        return try probe.peekKind()
    }
}

/// Limits that keep hostile input from exhausting the stack.
public enum MessagePackLimits {
    /// Default maximum nesting of arrays and maps.
    public static let defaultMaxDepth = 256
}

extension MessagePackValue {
    /// Decodes exactly one value that fills `bytes`.
    public init(decoding bytes: [UInt8], maxDepth: Int = MessagePackLimits.defaultMaxDepth) throws(MessagePackError) {
        var reader = MessagePackReader(bytes)
        self = try reader.readValue(maxDepth: maxDepth)
        guard reader.isAtEnd else {
            throw MessagePackError(.trailingBytes, "\(reader.remaining) byte(s) follow the value", offset: reader.offset)
        }
    }
}
