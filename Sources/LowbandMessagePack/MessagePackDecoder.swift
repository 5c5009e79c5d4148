/// Decodes `Decodable` values from MessagePack, working on the bytes directly.
///
/// No intermediate tree is built: a keyed container indexes its map's keys to value offsets
/// once (with a hash index for large maps, so lookups stay O(1) and decoding stays linear) and
/// each value is read in place. Errors are ``MessagePackError`` values that name the coding
/// path and the byte offset, e.g. `integer 300 does not fit UInt8 at chats[2].unread (byte
/// offset 812)`. Map keys may be strings or integers; with duplicate keys the first one wins.
public struct MessagePackDecoder: Sendable {
    /// Maximum nesting of containers before decoding fails with `.depthLimitExceeded`.
    public var maxDepth: Int

    public init(maxDepth: Int = MessagePackLimits.defaultMaxDepth) {
        self.maxDepth = maxDepth
    }

    /// Decodes one value that must fill `bytes` exactly.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        var reader = MessagePackReader(bytes)
        let value = try decode(type, from: &reader)
        guard reader.isAtEnd else {
            throw MessagePackError(.trailingBytes, "\(reader.remaining) byte(s) follow the value", offset: reader.offset)
        }
        return value
    }

    /// Decodes the next value from `reader` and moves the reader past it.
    public func decode<T: Decodable>(_: T.Type, from reader: inout MessagePackReader) throws -> T {
        let context = DecodingContext(bytes: reader.bytes, maxDepth: maxDepth)
        let start = reader.offset
        var end: Int?
        let value = try context.decodeValue(T.self, at: start, path: [], depth: 0, end: &end)
        if let end {
            reader.seek(to: end)
        } else {
            reader.seek(to: start)
            try reader.skipValue()
        }
        return value
    }
}

/// What every decoder of one input shares.
struct DecodingContext {
    let bytes: [UInt8]
    let maxDepth: Int

    func reader(at offset: Int) -> MessagePackReader {
        MessagePackReader(bytes, offset: offset)
    }

    func decodeValue<T: Decodable>(_ type: T.Type, at offset: Int, path: [any CodingKey], depth: Int) throws -> T {
        var end: Int?
        return try decodeValue(type, at: offset, path: path, depth: depth, end: &end)
    }

    /// Decodes the value at `offset` and sets `end` to where it ends when decoding found out
    /// (a map's index scans to its end); nil means the caller must skip the value to find it.
    func decodeValue<T: Decodable>(_: T.Type, at offset: Int, path: [any CodingKey], depth: Int, end: inout Int?) throws -> T {
        var reader = reader(at: offset)
        do {
            if let special = try SpecialType.decode(T.self, from: &reader, maxDepth: maxDepth - depth) {
                end = reader.offset
                return special
            }
        } catch {
            throw error.at(path)
        }
        let decoder = OffsetDecoder(context: self, offset: offset, codingPath: path, depth: depth)
        let value = try T(from: decoder)
        end = decoder.end
        return value
    }
}

extension MessagePackError {
    /// The same error with the coding path filled in, if it has none yet.
    func at(_ path: [any CodingKey]) -> MessagePackError {
        guard self.path == nil else { return self }
        var copy = self
        copy.path = path.render()
        return copy
    }
}

extension [any CodingKey] {
    /// `chats[3].title`: keys joined by dots, array indices in brackets.
    func render() -> String {
        var text = ""
        for key in self {
            if key is IndexKey, let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text.isEmpty ? "the top-level value" : text
    }
}

/// A decoder positioned at one value of the input.
final class OffsetDecoder: Decoder {
    let context: DecodingContext
    let offset: Int
    let codingPath: [any CodingKey]
    let depth: Int
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// Where the value ends, once a keyed container has indexed it.
    private(set) var end: Int?
    /// The map entry the last key lookup matched: synthesized conformances look keys up in
    /// declaration order, which is the order they were encoded in, so the next key is near.
    var keyHint = 0

    init(context: DecodingContext, offset: Int, codingPath: [any CodingKey], depth: Int) {
        self.context = context
        self.offset = offset
        self.codingPath = codingPath
        self.depth = depth
    }

    func checkedDepth() throws -> Int {
        guard depth < context.maxDepth else {
            throw MessagePackError(.depthLimitExceeded, "containers nest deeper than the limit of \(context.maxDepth)", offset: offset, path: codingPath.render())
        }
        return depth + 1
    }

    func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let index = try MapIndex(context: context, offset: offset, path: codingPath)
        end = index.end
        return KeyedDecodingContainer(KeyedOffsetContainer<Key>(index: index, decoder: self, depth: try checkedDepth()))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        var reader = context.reader(at: offset)
        let count: Int
        do { count = try reader.readArrayHeader() } catch { throw error.at(codingPath) }
        return UnkeyedOffsetContainer(decoder: self, count: count, position: reader.offset, depth: try checkedDepth())
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueOffsetContainer(decoder: self)
    }
}

/// The keys of one map and where each value starts.
///
/// Keys stay in the input as byte ranges (an integer key keeps its decimal text): a lookup
/// compares the wanted key's UTF-8 with them in place, starting at the entry the previous
/// lookup matched, so decoding a struct builds no key strings.
struct MapIndex {
    struct Entry {
        /// Where the str key's UTF-8 bytes start in the input.
        var keyStart: Int
        var keyCount: Int
        /// The decimal text of an integer key; nil for a str key.
        var integerKey: String?
        /// Where the entry's value starts.
        var offset: Int
        /// Length and first and last byte of the key, to rule out most mismatches at once.
        var signature: Int
    }

    let bytes: [UInt8]
    private(set) var entries: [Entry] = []
    /// Where the map ends in the input.
    let end: Int
    /// For large maps: each key's text and its first entry.
    private var hashed: [String: Int]?
    /// Whether a key occurs twice; lookups then always start at the first entry (the first wins).
    private var hasDuplicates = false

    init(context: DecodingContext, offset: Int, path: [any CodingKey]) throws {
        bytes = context.bytes
        var reader = context.reader(at: offset)
        do throws(MessagePackError) {
            let count = try reader.readMapHeader()
            entries.reserveCapacity(count)
            for _ in 0 ..< count {
                let keyOffset = reader.offset
                switch try reader.peekKind() {
                case .string:
                    let utf8 = try reader.readStringBytes()
                    if !utf8.allSatisfy({ $0 < 0x80 }) {
                        var check = context.reader(at: keyOffset)
                        _ = try check.readString()
                    }
                    entries.append(Entry(keyStart: utf8.startIndex, keyCount: utf8.count, integerKey: nil, offset: 0, signature: Self.signature(utf8)))
                case .int:
                    // A uint64 key may exceed Int64.max; it is still a key (of fields no type has).
                    let isUInt64 = reader.bytes[reader.offset] == 0xcf
                    let text = isUInt64 ? String(try reader.readUInt64()) : String(try reader.readInt64())
                    entries.append(Entry(keyStart: 0, keyCount: 0, integerKey: text, offset: 0, signature: Self.signature(Array(text.utf8))))
                case let kind:
                    throw MessagePackError(.unsupportedKey, "map key is \(kind.rawValue); only string and integer keys decode into Codable types", offset: keyOffset)
                }
                entries[entries.count - 1].offset = reader.offset
                try reader.skipValue()
            }
        } catch {
            throw error.at(path)
        }
        end = reader.offset
        if entries.count > 12 {
            hashed = Dictionary(entries.indices.map { (keyText($0), $0) }, uniquingKeysWith: { first, _ in first })
        } else {
            hasDuplicates = findDuplicates()
        }
    }

    /// The text of the key of entry `index`.
    func keyText(_ index: Int) -> String {
        let entry = entries[index]
        if let integerKey = entry.integerKey { return integerKey }
        return String(decoding: bytes[entry.keyStart ..< entry.keyStart + entry.keyCount], as: UTF8.self)
    }

    func isInteger(_ index: Int) -> Bool {
        entries[index].integerKey != nil
    }

    /// The entry whose key is `key` (the first, if the key repeats), searching from `hint` on.
    func entryIndex(of key: String, hint: Int) -> Int? {
        if let hashed { return hashed[key] }
        let count = entries.count
        guard count > 0 else { return nil }
        var key = key
        return key.withUTF8 { utf8 in
            let signature = Self.signature(utf8)
            var index = hasDuplicates || hint >= count ? 0 : hint
            for _ in 0 ..< count {
                if entries[index].signature == signature, matches(index, utf8) { return index }
                index = index + 1 == count ? 0 : index + 1
            }
            return nil
        }
    }

    private func matches(_ index: Int, _ utf8: some Collection<UInt8>) -> Bool {
        let entry = entries[index]
        if let integerKey = entry.integerKey { return integerKey.utf8.elementsEqual(utf8) }
        return bytes[entry.keyStart ..< entry.keyStart + entry.keyCount].elementsEqual(utf8)
    }

    private func findDuplicates() -> Bool {
        for later in entries.indices {
            for earlier in 0 ..< later where entries[earlier].signature == entries[later].signature {
                let entry = entries[later]
                let matched = if let integerKey = entry.integerKey {
                    matches(earlier, Array(integerKey.utf8))
                } else {
                    matches(earlier, bytes[entry.keyStart ..< entry.keyStart + entry.keyCount])
                }
                if matched { return true }
            }
        }
        return false
    }

    private static func signature(_ utf8: some Collection<UInt8>) -> Int {
        guard let first = utf8.first else { return 0 }
        var last = first
        for byte in utf8 { last = byte }
        return utf8.count << 16 | Int(first) << 8 | Int(last)
    }
}

struct KeyedOffsetContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let index: MapIndex
    let decoder: OffsetDecoder
    let depth: Int

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] {
        index.entries.indices.compactMap { entry in
            let text = index.keyText(entry)
            if index.isInteger(entry), let number = Int(text), let key = Key(intValue: number) { return key }
            return Key(stringValue: text)
        }
    }

    func contains(_ key: Key) -> Bool {
        offset(of: key.stringValue) != nil
    }

    private func offset(of key: String) -> Int? {
        guard let entry = index.entryIndex(of: key, hint: decoder.keyHint) else { return nil }
        decoder.keyHint = entry
        return index.entries[entry].offset
    }

    private func valueOffset(_ key: Key) throws -> Int {
        guard let offset = offset(of: key.stringValue) else {
            throw MessagePackError(.keyNotFound, "no value for key \"\(key.stringValue)\"", offset: decoder.offset, path: codingPath.render())
        }
        return offset
    }

    private func read<T>(_ key: Key, _ body: (inout MessagePackReader) throws(MessagePackError) -> T) throws -> T {
        var reader = decoder.context.reader(at: try valueOffset(key))
        do { return try body(&reader) } catch { throw error.at(codingPath + [key]) }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try read(key) { reader throws(MessagePackError) in try reader.readNilIfPresent() }
    }

    func decode(_: Bool.Type, forKey key: Key) throws -> Bool { try read(key) { reader throws(MessagePackError) in try reader.readBool() } }
    func decode(_: String.Type, forKey key: Key) throws -> String { try read(key) { reader throws(MessagePackError) in try reader.readString() } }
    func decode(_: Double.Type, forKey key: Key) throws -> Double { try read(key) { reader throws(MessagePackError) in try reader.readDouble() } }
    func decode(_: Float.Type, forKey key: Key) throws -> Float { try read(key) { reader throws(MessagePackError) in try reader.readFloat() } }
    func decode(_: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

    private func integer<T: FixedWidthInteger>(_ key: Key) throws -> T {
        try read(key) { reader throws(MessagePackError) in try reader.readInteger(T.self) }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.context.decodeValue(type, at: try valueOffset(key), path: codingPath + [key], depth: depth)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        guard let offset = offset(of: "super") else {
            throw MessagePackError(.keyNotFound, "no value for key \"super\"", offset: decoder.offset, path: codingPath.render())
        }
        return OffsetDecoder(context: decoder.context, offset: offset, codingPath: codingPath + [NamedKey("super")], depth: depth)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try child(key)
    }

    private func child(_ key: Key) throws -> OffsetDecoder {
        OffsetDecoder(context: decoder.context, offset: try valueOffset(key), codingPath: codingPath + [key], depth: depth)
    }
}

struct UnkeyedOffsetContainer: UnkeyedDecodingContainer {
    let decoder: OffsetDecoder
    let count: Int?
    private(set) var currentIndex = 0
    private var position: Int
    let depth: Int

    init(decoder: OffsetDecoder, count: Int, position: Int, depth: Int) {
        self.decoder = decoder
        self.count = count
        self.position = position
        self.depth = depth
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    private var elementPath: [any CodingKey] { codingPath + [IndexKey(currentIndex)] }

    private mutating func read<T>(_ body: (inout MessagePackReader) throws(MessagePackError) -> T) throws -> T {
        guard !isAtEnd else {
            throw MessagePackError(.truncated, "array has no element \(currentIndex); it holds \(count ?? 0)", offset: position, path: elementPath.render())
        }
        var reader = decoder.context.reader(at: position)
        do {
            let value = try body(&reader)
            position = reader.offset
            currentIndex += 1
            return value
        } catch {
            throw error.at(elementPath)
        }
    }

    /// Moves past the current element whatever it holds.
    private mutating func skipCurrent() throws {
        _ = try read { reader throws(MessagePackError) in try reader.skipValue() }
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        var reader = decoder.context.reader(at: position)
        guard try reader.readNilIfPresent() else { return false }
        position = reader.offset
        currentIndex += 1
        return true
    }

    mutating func decode(_: Bool.Type) throws -> Bool { try read { reader throws(MessagePackError) in try reader.readBool() } }
    mutating func decode(_: String.Type) throws -> String { try read { reader throws(MessagePackError) in try reader.readString() } }
    mutating func decode(_: Double.Type) throws -> Double { try read { reader throws(MessagePackError) in try reader.readDouble() } }
    mutating func decode(_: Float.Type) throws -> Float { try read { reader throws(MessagePackError) in try reader.readFloat() } }
    mutating func decode(_: Int.Type) throws -> Int { try integer() }
    mutating func decode(_: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_: UInt64.Type) throws -> UInt64 { try integer() }

    private mutating func integer<T: FixedWidthInteger>() throws -> T {
        try read { reader throws(MessagePackError) in try reader.readInteger(T.self) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        var end: Int?
        let value = try decoder.context.decodeValue(type, at: try currentOffset(), path: elementPath, depth: depth, end: &end)
        if let end {
            position = end
            currentIndex += 1
        } else {
            try skipCurrent()
        }
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try childDecoder().container(keyedBy: type)
        try skipCurrent()
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try childDecoder().unkeyedContainer()
        try skipCurrent()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let child = try childDecoder()
        try skipCurrent()
        return child
    }

    private func currentOffset() throws -> Int {
        guard !isAtEnd else {
            throw MessagePackError(.truncated, "array has no element \(currentIndex); it holds \(count ?? 0)", offset: position, path: elementPath.render())
        }
        return position
    }

    private func childDecoder() throws -> OffsetDecoder {
        OffsetDecoder(context: decoder.context, offset: try currentOffset(), codingPath: elementPath, depth: depth)
    }
}

struct SingleValueOffsetContainer: SingleValueDecodingContainer {
    let decoder: OffsetDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    private func read<T>(_ body: (inout MessagePackReader) throws(MessagePackError) -> T) throws -> T {
        var reader = decoder.context.reader(at: decoder.offset)
        do { return try body(&reader) } catch { throw error.at(codingPath) }
    }

    func decodeNil() -> Bool {
        decoder.offset < decoder.context.bytes.count && decoder.context.bytes[decoder.offset] == 0xc0
    }

    func decode(_: Bool.Type) throws -> Bool { try read { reader throws(MessagePackError) in try reader.readBool() } }
    func decode(_: String.Type) throws -> String { try read { reader throws(MessagePackError) in try reader.readString() } }
    func decode(_: Double.Type) throws -> Double { try read { reader throws(MessagePackError) in try reader.readDouble() } }
    func decode(_: Float.Type) throws -> Float { try read { reader throws(MessagePackError) in try reader.readFloat() } }
    func decode(_: Int.Type) throws -> Int { try integer() }
    func decode(_: Int8.Type) throws -> Int8 { try integer() }
    func decode(_: Int16.Type) throws -> Int16 { try integer() }
    func decode(_: Int32.Type) throws -> Int32 { try integer() }
    func decode(_: Int64.Type) throws -> Int64 { try integer() }
    func decode(_: UInt.Type) throws -> UInt { try integer() }
    func decode(_: UInt8.Type) throws -> UInt8 { try integer() }
    func decode(_: UInt16.Type) throws -> UInt16 { try integer() }
    func decode(_: UInt32.Type) throws -> UInt32 { try integer() }
    func decode(_: UInt64.Type) throws -> UInt64 { try integer() }

    private func integer<T: FixedWidthInteger>() throws -> T {
        try read { reader throws(MessagePackError) in try reader.readInteger(T.self) }
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.context.decodeValue(type, at: decoder.offset, path: codingPath, depth: decoder.depth)
    }
}
