// The decoder's containers. Each holds one reference (its decoder), so the standard library's
// container boxes copy them for one retain; all reading goes through the shared reader.

struct KeyedValueContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    private var depth: Int { decoder.depth + 1 }
    private var shared: UnsafeMutablePointer<DecodingState> { decoder.shared }

    var allKeys: [Key] {
        let input = shared.pointee.input
        let map = decoder.state.pointee.map
        return map.entries.indices.compactMap { entry in
            let text = map.keyText(entry, in: input)
            if map.isInteger(entry), let number = Int(text), let key = Key(intValue: number) { return key }
            return Key(stringValue: text)
        }
    }

    func contains(_ key: Key) -> Bool {
        offset(of: key.stringValue) != nil
    }

    private func offset(of key: String) -> Int? {
        guard let entry = decoder.state.pointee.map.entryIndex(of: key, in: shared.pointee.input) else { return nil }
        return decoder.state.pointee.map.entries[entry].offset
    }

    private func valueOffset(_ key: Key) throws -> Int {
        guard let offset = offset(of: key.stringValue) else {
            throw MessagePackError(.keyNotFound, "no value for key \"\(key.stringValue)\"", offset: decoder.offset, path: codingPath.render())
        }
        return offset
    }

    @inline(__always)
    private func read<T>(_ key: Key, _ body: (inout MessagePackReader) throws(MessagePackError) -> T) throws -> T {
        let offset = try valueOffset(key)
        do { return try shared.pointee.read(at: offset, body) } catch { throw error.at(codingPath + [key]) }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try read(key) { reader throws(MessagePackError) in try reader.readNilIfPresent() }
    }

    func decode(_: Bool.Type, forKey key: Key) throws -> Bool { try read(key) { reader throws(MessagePackError) in try reader.readBool() } }
    func decode(_: String.Type, forKey key: Key) throws -> String { try read(key) { reader throws(MessagePackError) in try reader.readString() } }
    func decode(_: Double.Type, forKey key: Key) throws -> Double { try read(key) { reader throws(MessagePackError) in try reader.readDouble() } }
    func decode(_: Float.Type, forKey key: Key) throws -> Float { try read(key) { reader throws(MessagePackError) in try reader.readFloat() } }
    func decode(_: Int.Type, forKey key: Key) throws -> Int { try read(key) { reader throws(MessagePackError) in try reader.readInteger(Int.self) } }
    func decode(_: Int8.Type, forKey key: Key) throws -> Int8 { try read(key) { reader throws(MessagePackError) in try reader.readInteger(Int8.self) } }
    func decode(_: Int16.Type, forKey key: Key) throws -> Int16 { try read(key) { reader throws(MessagePackError) in try reader.readInteger(Int16.self) } }
    func decode(_: Int32.Type, forKey key: Key) throws -> Int32 { try read(key) { reader throws(MessagePackError) in try reader.readInteger(Int32.self) } }
    func decode(_: Int64.Type, forKey key: Key) throws -> Int64 { try read(key) { reader throws(MessagePackError) in try reader.readInteger(Int64.self) } }
    func decode(_: UInt.Type, forKey key: Key) throws -> UInt { try read(key) { reader throws(MessagePackError) in try reader.readInteger(UInt.self) } }
    func decode(_: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(key) { reader throws(MessagePackError) in try reader.readInteger(UInt8.self) } }
    func decode(_: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(key) { reader throws(MessagePackError) in try reader.readInteger(UInt16.self) } }
    func decode(_: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(key) { reader throws(MessagePackError) in try reader.readInteger(UInt32.self) } }
    func decode(_: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(key) { reader throws(MessagePackError) in try reader.readInteger(UInt64.self) } }

    // One lookup for an optional instead of the default contains + decodeNil + decode.
    @inline(__always)
    private func readIfPresent<T>(_ key: Key, _ body: (inout MessagePackReader) throws(MessagePackError) -> T) throws -> T? {
        guard let offset = offset(of: key.stringValue) else { return nil }
        do {
            return try shared.pointee.read(at: offset) { reader throws(MessagePackError) -> T? in
                if try reader.readNilIfPresent() { return nil }
                return try body(&reader)
            }
        } catch {
            throw error.at(codingPath + [key])
        }
    }

    func decodeIfPresent(_: Bool.Type, forKey key: Key) throws -> Bool? { try readIfPresent(key) { reader throws(MessagePackError) in try reader.readBool() } }
    func decodeIfPresent(_: String.Type, forKey key: Key) throws -> String? { try readIfPresent(key) { reader throws(MessagePackError) in try reader.readString() } }
    func decodeIfPresent(_: Double.Type, forKey key: Key) throws -> Double? { try readIfPresent(key) { reader throws(MessagePackError) in try reader.readDouble() } }
    func decodeIfPresent(_: Float.Type, forKey key: Key) throws -> Float? { try readIfPresent(key) { reader throws(MessagePackError) in try reader.readFloat() } }
    func decodeIfPresent(_: Int.Type, forKey key: Key) throws -> Int? { try readIfPresent(key) { reader throws(MessagePackError) in try reader.readInteger(Int.self) } }
    func decodeIfPresent(_: Int8.Type, forKey key: Key) throws -> Int8? { try readIfPresent(key) { reader throws(MessagePackError) in try reader.readInteger(Int8.self) } }
    func decodeIfPresent(_: Int16.Type, forKey key: Key) throws -> Int16? { try readIfPresent(key) { reader throws(MessagePackError) in try reader.readInteger(Int16.self) } }
    func decodeIfPresent(_: Int32.Type, forKey key: Key) throws -> Int32? { try readIfPresent(key) { reader throws(MessagePackError) in try reader.readInteger(Int32.self) } }
    func decodeIfPresent(_: Int64.Type, forKey key: Key) throws -> Int64? { try readIfPresent(key) { reader throws(MessagePackError) in try reader.readInteger(Int64.self) } }
    func decodeIfPresent(_: UInt.Type, forKey key: Key) throws -> UInt? { try readIfPresent(key) { reader throws(MessagePackError) in try reader.readInteger(UInt.self) } }
    func decodeIfPresent(_: UInt8.Type, forKey key: Key) throws -> UInt8? { try readIfPresent(key) { reader throws(MessagePackError) in try reader.readInteger(UInt8.self) } }
    func decodeIfPresent(_: UInt16.Type, forKey key: Key) throws -> UInt16? { try readIfPresent(key) { reader throws(MessagePackError) in try reader.readInteger(UInt16.self) } }
    func decodeIfPresent(_: UInt32.Type, forKey key: Key) throws -> UInt32? { try readIfPresent(key) { reader throws(MessagePackError) in try reader.readInteger(UInt32.self) } }
    func decodeIfPresent(_: UInt64.Type, forKey key: Key) throws -> UInt64? { try readIfPresent(key) { reader throws(MessagePackError) in try reader.readInteger(UInt64.self) } }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let offset = offset(of: key.stringValue) else { return nil }
        do {
            if try shared.pointee.read(at: offset, { reader throws(MessagePackError) in try reader.readNilIfPresent() }) { return nil }
        } catch {
            throw error.at(codingPath + [key])
        }
        var end: Int?
        return try decoder.withStorage { try $0.decodeValue(type, at: offset, depth: depth, parent: decoder, key: .key(key), end: &end) }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        var end: Int?
        let offset = try valueOffset(key)
        return try decoder.withStorage { try $0.decodeValue(type, at: offset, depth: depth, parent: decoder, key: .key(key), end: &end) }
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
        return decoder.child(at: offset, key: .key(NamedKey("super")))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try child(key)
    }

    private func child(_ key: Key) throws -> ValueDecoder {
        decoder.child(at: try valueOffset(key), key: .key(key))
    }
}

struct UnkeyedValueContainer: UnkeyedDecodingContainer {
    let decoder: ValueDecoder
    private(set) var currentIndex = 0
    private var position: Int

    init(decoder: ValueDecoder, position: Int) {
        self.decoder = decoder
        self.position = position
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { decoder.state.pointee.arrayCount }
    var isAtEnd: Bool { currentIndex >= decoder.state.pointee.arrayCount }
    private var depth: Int { decoder.depth + 1 }
    private var shared: UnsafeMutablePointer<DecodingState> { decoder.shared }
    private var elementPath: [any CodingKey] { codingPath + [IndexKey(currentIndex)] }

    /// Moves to the next element; past the last one, the array's end is known.
    private mutating func advance(to end: Int) {
        position = end
        currentIndex += 1
        if currentIndex == decoder.state.pointee.arrayCount { decoder.state.pointee.end = end }
    }

    private func noElement() -> MessagePackError {
        MessagePackError(.truncated, "array has no element \(currentIndex); it holds \(count ?? 0)", offset: position, path: elementPath.render())
    }

    @inline(__always)
    private mutating func read<T>(_ body: (inout MessagePackReader) throws(MessagePackError) -> T) throws -> T {
        guard !isAtEnd else { throw noElement() }
        let state = shared
        state.pointee.reader.offset = position
        do {
            let value = try body(&state.pointee.reader)
            advance(to: state.pointee.reader.offset)
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
        let state = shared
        state.pointee.reader.offset = position
        guard try state.pointee.reader.readNilIfPresent() else { return false }
        advance(to: state.pointee.reader.offset)
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
        let offset = try currentOffset()
        let (depth, index) = (depth, currentIndex)
        let value = try decoder.withStorage { try $0.decodeValue(type, at: offset, depth: depth, parent: decoder, key: .index(index), end: &end) }
        if let end {
            advance(to: end)
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
        guard !isAtEnd else { throw noElement() }
        return position
    }

    private func childDecoder() throws -> ValueDecoder {
        decoder.child(at: try currentOffset(), key: .index(currentIndex))
    }
}

struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: ValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    private func read<T>(_ body: (inout MessagePackReader) throws(MessagePackError) -> T) throws -> T {
        do { return try decoder.shared.pointee.read(at: decoder.offset, body) } catch { throw error.at(codingPath) }
    }

    func decodeNil() -> Bool {
        let offset = decoder.offset
        let bytes = decoder.shared.pointee.reader.bytes
        return offset < bytes.count && bytes[offset] == 0xc0
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
        var end: Int?
        let value = try decoder.withStorage { try $0.decodeValue(
            type, at: decoder.offset, depth: decoder.depth, parent: decoder.state.pointee.parent, key: decoder.state.pointee.key, end: &end
        ) }
        if let end { decoder.state.pointee.end = end }
        return value
    }
}
