#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `Encoder` handed to one value's `encode(to:)` on the streaming path.
final class StreamEncoder: Encoder {
    let storage: StreamStorage
    /// Where this value's container sits on the stack of open containers.
    let level: Int
    /// Output length when the value began: nothing written means an empty map.
    private(set) var start: Int
    /// The container this value opened; 0 for none.
    var containerID = 0
    var wroteSingleValue = false
    /// The type of the value being encoded.
    private(set) var valueType: any Encodable.Type
    /// Set when the value is a `Dictionary`: whether its keys are `String`s.
    private(set) var dictionaryStringKeys: Bool?

    init(storage: StreamStorage, level: Int, start: Int, valueType: any Encodable.Type) {
        self.storage = storage
        self.level = level
        self.start = start
        self.valueType = valueType
    }

    func reset(start: Int, valueType: any Encodable.Type) {
        self.start = start
        self.valueType = valueType
        containerID = 0
        wroteSingleValue = false
        dictionaryStringKeys = nil
    }

    var codingPath: [any CodingKey] { storage.path(level: level) }
    var userInfo: [CodingUserInfoKey: Any] { storage.state.pointee.userInfo }

    /// The key type `Dictionary` encodes String, Int and `CodingKeyRepresentable` keys with
    /// (the standard library's `_DictionaryCodingKey`), found once by asking a dictionary.
    ///
    /// Only a keyed container with this key type, or an unkeyed one, can belong to a
    /// dictionary: the costlier check of the value's type is left for those.
    static let dictionaryKeyType: ObjectIdentifier? = {
        let probe = TreeEncoder(codingPath: [], userInfo: [:])
        try? [String: Int]().encode(to: probe)
        return probe.keyType.map { ObjectIdentifier($0) }
    }()

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        if containerID == 0, ObjectIdentifier(Key.self) == Self.dictionaryKeyType { checkForDictionary() }
        return KeyedEncodingContainer(KeyedStreamContainer<Key>(storage: storage, level: level, id: storage.openContainer(for: self, isMap: true)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if containerID == 0 { checkForDictionary() }
        return UnkeyedStreamContainer(storage: storage, level: level, id: storage.openContainer(for: self, isMap: false))
    }

    private func checkForDictionary() {
        // Every `Dictionary` is one reference wide: comparing sizes first spares the other values
        // the conformance lookup, about 4 % of encoding a one-message push (perf, issue 13).
        guard Self.size(of: valueType) == MemoryLayout<[Int: Int]>.size else { return }
        if let dictionary = valueType as? any UnorderedDictionaryMarker.Type {
            dictionaryStringKeys = dictionary.hasStringKeys
        }
    }

    private static func size<T: Encodable>(of _: T.Type) -> Int {
        MemoryLayout<T>.size
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueStreamContainer(encoder: self)
    }

    /// Claims the single value slot; throws when something was written for this value already.
    func beginSingleValue() throws {
        guard storage.state.pointee.current == ObjectIdentifier(self), !wroteSingleValue, containerID == 0,
              storage.state.pointee.writer.count == start
        else { throw storage.fallback() }
        wroteSingleValue = true
    }
}

struct KeyedStreamContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: StreamStorage
    let level: Int
    let id: Int

    var codingPath: [any CodingKey] { storage.path(level: level) }

    @inline(__always)
    private func begin(_ key: Key) throws {
        try storage.beginEntryOrThrow(level: level, id: id)
        try storage.writeKey(key, level: level)
    }

    mutating func encodeNil(forKey key: Key) throws { try begin(key); storage.state.pointee.writer.writeNil() }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try begin(key); storage.state.pointee.writer.write(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { try begin(key); try storage.writeString(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try begin(key); storage.state.pointee.writer.write(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try begin(key); storage.state.pointee.writer.write(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try begin(key); storage.state.pointee.writer.write(Int64(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try begin(key); storage.state.pointee.writer.write(Int64(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try begin(key); storage.state.pointee.writer.write(Int64(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try begin(key); storage.state.pointee.writer.write(Int64(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try begin(key); storage.state.pointee.writer.write(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try begin(key); storage.state.pointee.writer.write(UInt64(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try begin(key); storage.state.pointee.writer.write(UInt64(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try begin(key); storage.state.pointee.writer.write(UInt64(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try begin(key); storage.state.pointee.writer.write(UInt64(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try begin(key); storage.state.pointee.writer.write(value) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try begin(key)
        if try storage.writeScalar(value) { return }
        storage.state.pointee.open[level].pathKey = .key(key)
        try storage.encodeComposite(value, level: level + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedStreamContainer<NestedKey>(storage: storage, level: level + 1, id: nested(key, isMap: true)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        UnkeyedStreamContainer(storage: storage, level: level + 1, id: nested(key, isMap: false))
    }

    private func nested(_ key: Key, isMap: Bool) -> Int {
        guard storage.beginEntry(level: level, id: id), (try? storage.writeKey(key, level: level)) != nil else { return 0 }
        storage.state.pointee.open[level].pathKey = .key(key)
        return storage.push(isMap: isMap)
    }

    mutating func superEncoder() -> any Encoder {
        deadEncoder()
    }

    mutating func superEncoder(forKey _: Key) -> any Encoder {
        deadEncoder()
    }

    /// `superEncoder` hands out an encoder the caller fills later, which only the tree can follow.
    private func deadEncoder() -> any Encoder {
        _ = storage.fallback()
        return StreamEncoder(storage: storage, level: level + 1, start: -1, valueType: Bool.self)
    }
}

struct UnkeyedStreamContainer: UnkeyedEncodingContainer {
    let storage: StreamStorage
    let level: Int
    let id: Int

    var codingPath: [any CodingKey] { storage.path(level: level) }

    var count: Int {
        guard level < storage.state.pointee.open.count, storage.state.pointee.open[level].id == id else { return 0 }
        return storage.state.pointee.open[level].count
    }

    @inline(__always)
    private func begin() throws {
        try storage.beginEntryOrThrow(level: level, id: id)
    }

    mutating func encodeNil() throws { try begin(); storage.state.pointee.writer.writeNil() }
    mutating func encode(_ value: Bool) throws { try begin(); storage.state.pointee.writer.write(value) }
    mutating func encode(_ value: String) throws { try begin(); try storage.writeString(value) }
    mutating func encode(_ value: Double) throws { try begin(); storage.state.pointee.writer.write(value) }
    mutating func encode(_ value: Float) throws { try begin(); storage.state.pointee.writer.write(value) }
    mutating func encode(_ value: Int) throws { try begin(); storage.state.pointee.writer.write(Int64(value)) }
    mutating func encode(_ value: Int8) throws { try begin(); storage.state.pointee.writer.write(Int64(value)) }
    mutating func encode(_ value: Int16) throws { try begin(); storage.state.pointee.writer.write(Int64(value)) }
    mutating func encode(_ value: Int32) throws { try begin(); storage.state.pointee.writer.write(Int64(value)) }
    mutating func encode(_ value: Int64) throws { try begin(); storage.state.pointee.writer.write(value) }
    mutating func encode(_ value: UInt) throws { try begin(); storage.state.pointee.writer.write(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { try begin(); storage.state.pointee.writer.write(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { try begin(); storage.state.pointee.writer.write(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { try begin(); storage.state.pointee.writer.write(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { try begin(); storage.state.pointee.writer.write(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try begin()
        if try storage.writeScalar(value) { return }
        storage.state.pointee.open[level].pathKey = .index(storage.state.pointee.open[level].count - 1)
        try storage.encodeComposite(value, level: level + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedStreamContainer<NestedKey>(storage: storage, level: level + 1, id: nested(isMap: true)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedStreamContainer(storage: storage, level: level + 1, id: nested(isMap: false))
    }

    private func nested(isMap: Bool) -> Int {
        guard storage.beginEntry(level: level, id: id) else { return 0 }
        storage.state.pointee.open[level].pathKey = .index(storage.state.pointee.open[level].count - 1)
        return storage.push(isMap: isMap)
    }

    mutating func superEncoder() -> any Encoder {
        _ = storage.fallback()
        return StreamEncoder(storage: storage, level: level + 1, start: -1, valueType: Bool.self)
    }
}

struct SingleValueStreamContainer: SingleValueEncodingContainer {
    let encoder: StreamEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    private var storage: StreamStorage { encoder.storage }

    mutating func encodeNil() throws { try encoder.beginSingleValue(); storage.state.pointee.writer.writeNil() }
    mutating func encode(_ value: Bool) throws { try encoder.beginSingleValue(); storage.state.pointee.writer.write(value) }
    mutating func encode(_ value: String) throws { try encoder.beginSingleValue(); try storage.writeString(value) }
    mutating func encode(_ value: Double) throws { try encoder.beginSingleValue(); storage.state.pointee.writer.write(value) }
    mutating func encode(_ value: Float) throws { try encoder.beginSingleValue(); storage.state.pointee.writer.write(value) }
    mutating func encode(_ value: Int) throws { try encoder.beginSingleValue(); storage.state.pointee.writer.write(Int64(value)) }
    mutating func encode(_ value: Int8) throws { try encoder.beginSingleValue(); storage.state.pointee.writer.write(Int64(value)) }
    mutating func encode(_ value: Int16) throws { try encoder.beginSingleValue(); storage.state.pointee.writer.write(Int64(value)) }
    mutating func encode(_ value: Int32) throws { try encoder.beginSingleValue(); storage.state.pointee.writer.write(Int64(value)) }
    mutating func encode(_ value: Int64) throws { try encoder.beginSingleValue(); storage.state.pointee.writer.write(value) }
    mutating func encode(_ value: UInt) throws { try encoder.beginSingleValue(); storage.state.pointee.writer.write(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { try encoder.beginSingleValue(); storage.state.pointee.writer.write(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { try encoder.beginSingleValue(); storage.state.pointee.writer.write(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { try encoder.beginSingleValue(); storage.state.pointee.writer.write(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { try encoder.beginSingleValue(); storage.state.pointee.writer.write(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.beginSingleValue()
        try storage.encodeValue(value, level: encoder.level)
    }
}

extension StreamStorage {
    /// Writes the types with a direct MessagePack form without an encoder of their own: the
    /// scalars, `String`, arrays of common scalars, and the types ``SpecialType`` knows.
    /// False for every other type.
    @inline(__always)
    func writeScalar<T: Encodable>(_ value: T) throws -> Bool {
        if T.self == String.self {
            try writeString(reinterpret(value, as: String.self))
        } else if T.self == Int64.self {
            state.pointee.writer.write(reinterpret(value, as: Int64.self))
        } else if T.self == Int.self {
            state.pointee.writer.write(Int64(reinterpret(value, as: Int.self)))
        } else if T.self == Bool.self {
            state.pointee.writer.write(reinterpret(value, as: Bool.self))
        } else if T.self == Double.self {
            state.pointee.writer.write(reinterpret(value, as: Double.self))
        } else if T.self == UInt64.self {
            state.pointee.writer.write(reinterpret(value, as: UInt64.self))
        } else if ObjectIdentifier(T.self) == CodingTypes.int64Array {
            try writeArray(reinterpret(value, as: [Int64].self)) { $0.write($1) }
        } else if ObjectIdentifier(T.self) == CodingTypes.stringArray {
            let strings = reinterpret(value, as: [String].self)
            try writeArray(strings) { writer, text throws(MessagePackError) in try writer.write(text) }
        } else if ObjectIdentifier(T.self) == CodingTypes.intArray {
            try writeArray(reinterpret(value, as: [Int].self)) { $0.write(Int64($1)) }
        } else {
            return try writeSpecial(value)
        }
        return true
    }

    private func writeSpecial<T: Encodable>(_ value: T) throws -> Bool {
        if T.self == Int32.self {
            state.pointee.writer.write(Int64(reinterpret(value, as: Int32.self)))
        } else if T.self == UInt32.self {
            state.pointee.writer.write(UInt64(reinterpret(value, as: UInt32.self)))
        } else if T.self == Float.self {
            state.pointee.writer.write(reinterpret(value, as: Float.self))
        } else if T.self == Date.self || T.self == Data.self || T.self == MessagePackTimestamp.self || T.self == MessagePackValue.self {
            do {
                guard let node = try SpecialType.node(for: value), case let .value(special) = node else { return false }
                try state.pointee.writer.write(special)
            } catch {
                state.pointee.needsTree = true
                throw error
            }
        } else {
            return false
        }
        return true
    }

    private func writeArray<Element>(_ elements: [Element], _ write: (inout MessagePackWriter, Element) throws(MessagePackError) -> Void) throws {
        do {
            try state.pointee.writer.writeArrayHeader(count: elements.count)
            for element in elements { try write(&state.pointee.writer, element) }
        } catch {
            state.pointee.needsTree = true
            throw error
        }
    }
}

/// `value` as the type `U` that the caller checked `T` to be.
@inline(__always)
func reinterpret<T, U>(_ value: T, as _: U.Type) -> U {
    withUnsafePointer(to: value) { $0.withMemoryRebound(to: U.self, capacity: 1) { $0.pointee } }
}
