// The encoder's slow path: the value is built as a tree of nodes, then written. It handles every
// use of the Codable containers, in any order (see ``StreamingEncoding`` for the fast path and
// for when this one takes over).

/// A value being encoded: a finished scalar, or a container still being filled.
enum EncodingNode {
    case value(MessagePackValue)
    case array(ArrayBox)
    case map(MapBox)

    func write(into writer: inout MessagePackWriter) throws(MessagePackError) {
        switch self {
        case let .value(value):
            try writer.write(value)
        case let .array(box):
            try writer.writeArrayHeader(count: box.elements.count)
            for element in box.elements { try element.write(into: &writer) }
        case let .map(box):
            try writer.writeMapHeader(count: box.entries.count)
            for entry in box.entries {
                try writer.write(entry.key)
                try entry.value.write(into: &writer)
            }
        }
    }
}

/// Containers are reference types because Codable hands out nested containers that the caller
/// fills after the parent has recorded them.
final class ArrayBox {
    var elements: [EncodingNode] = []
}

final class MapBox {
    var entries: [(key: MessagePackValue, value: EncodingNode)] = []

    /// Turns integer keys back into the strings they came from.
    ///
    /// The standard library's coding key for `[String: V]` reports `intValue` 5 for the key
    /// "5", which ``EncodingTree/key(_:)`` would otherwise write as the integer 5.
    func restoreStringKeys() {
        for index in entries.indices {
            if case let .int(number) = entries[index].key {
                entries[index].key = .string(String(number))
            }
        }
    }

    /// Sorts entries by key: integers numerically, then strings in code-point order.
    func sortByKey() {
        entries.sort { Self.precedes($0.key, $1.key) }
    }

    /// The order of dictionary keys: integers numerically, then strings in code-point order.
    static func precedes(_ lhs: MessagePackValue, _ rhs: MessagePackValue) -> Bool {
        switch (lhs, rhs) {
        case let (.int(a), .int(b)): a < b
        case (.int, _): true
        case (_, .int): false
        case let (.string(a), .string(b)): a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
        default: false
        }
    }
}

/// Marks `Dictionary` so the encoder can sort its entries.
protocol UnorderedDictionaryMarker {
    /// Whether the keys are `String`s, which stay str even when they look like integers.
    static var hasStringKeys: Bool { get }
}

extension Dictionary: UnorderedDictionaryMarker {
    static var hasStringKeys: Bool { Key.self == String.self }
}

enum EncodingTree {
    static func node<T: Encodable>(for value: T, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) throws -> EncodingNode {
        if let special = try SpecialType.node(for: value) { return special }
        let encoder = TreeEncoder(codingPath: codingPath, userInfo: userInfo)
        try value.encode(to: encoder)
        let node = encoder.node ?? .map(MapBox())
        if let dictionary = value as? any UnorderedDictionaryMarker {
            sortDictionary(node, stringKeys: type(of: dictionary).hasStringKeys)
        }
        return node
    }

    /// Dictionaries with String or Int keys encode as maps; others as [k0, v0, k1, v1, ...].
    private static func sortDictionary(_ node: EncodingNode, stringKeys: Bool) {
        switch node {
        case let .map(box):
            if stringKeys { box.restoreStringKeys() }
            box.sortByKey()
        case let .array(box):
            var pairs: [(key: [UInt8], pair: ArraySlice<EncodingNode>)] = []
            var index = 0
            while index + 1 < box.elements.count {
                var writer = MessagePackWriter()
                try? box.elements[index].write(into: &writer)
                pairs.append((writer.bytes, box.elements[index ... index + 1]))
                index += 2
            }
            pairs.sort { $0.key.lexicographicallyPrecedes($1.key) }
            box.elements = pairs.flatMap(\.pair)
        case .value:
            break
        }
    }

    static func key(_ key: some CodingKey) -> MessagePackValue {
        if let number = key.intValue, key.stringValue == String(number) {
            return .int(Int64(number))
        }
        return .string(key.stringValue)
    }
}

final class TreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]
    var node: EncodingNode?

    init(codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    /// The key type of the last keyed container asked for (see ``StreamEncoder/dictionaryKeyType``).
    private(set) var keyType: Any.Type?

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        keyType = Key.self
        let box: MapBox
        if case let .map(existing) = node {
            box = existing
        } else {
            box = MapBox()
            node = .map(box)
        }
        return KeyedEncodingContainer(KeyedTreeContainer<Key>(box: box, codingPath: codingPath, userInfo: userInfo))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: ArrayBox
        if case let .array(existing) = node {
            box = existing
        } else {
            box = ArrayBox()
            node = .array(box)
        }
        return UnkeyedTreeContainer(box: box, codingPath: codingPath, userInfo: userInfo)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueTreeContainer(encoder: self)
    }
}

struct KeyedTreeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: MapBox
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    mutating func encodeNil(forKey key: Key) throws { put(.value(.nil), key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.value(.bool(value)), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.value(.string(value)), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(.value(.double(value)), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(.value(.float(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.value(.int(Int64(value))), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(.value(.int(Int64(value))), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(.value(.int(Int64(value))), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(.value(.int(Int64(value))), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(.value(.int(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(.value(.uint(UInt64(value))), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.value(.uint(UInt64(value))), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.value(.uint(UInt64(value))), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.value(.uint(UInt64(value))), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(.value(.uint(value)), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        put(try EncodingTree.node(for: value, codingPath: codingPath + [key], userInfo: userInfo), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = MapBox()
        put(.map(nested), key)
        return KeyedEncodingContainer(KeyedTreeContainer<NestedKey>(box: nested, codingPath: codingPath + [key], userInfo: userInfo))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = ArrayBox()
        put(.array(nested), key)
        return UnkeyedTreeContainer(box: nested, codingPath: codingPath + [key], userInfo: userInfo)
    }

    mutating func superEncoder() -> any Encoder {
        makeSuperEncoder(forKey: NamedKey("super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        makeSuperEncoder(forKey: key)
    }

    private func makeSuperEncoder(forKey key: some CodingKey) -> any Encoder {
        let nested = MapBox()
        put(.map(nested), key)
        let encoder = TreeEncoder(codingPath: codingPath + [key], userInfo: userInfo)
        encoder.node = .map(nested)
        return encoder
    }

    private func put(_ node: EncodingNode, _ key: some CodingKey) {
        box.entries.append((EncodingTree.key(key), node))
    }
}

struct UnkeyedTreeContainer: UnkeyedEncodingContainer {
    let box: ArrayBox
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]
    var count: Int { box.elements.count }

    mutating func encodeNil() throws { box.elements.append(.value(.nil)) }
    mutating func encode(_ value: Bool) throws { box.elements.append(.value(.bool(value))) }
    mutating func encode(_ value: String) throws { box.elements.append(.value(.string(value))) }
    mutating func encode(_ value: Double) throws { box.elements.append(.value(.double(value))) }
    mutating func encode(_ value: Float) throws { box.elements.append(.value(.float(value))) }
    mutating func encode(_ value: Int) throws { box.elements.append(.value(.int(Int64(value)))) }
    mutating func encode(_ value: Int8) throws { box.elements.append(.value(.int(Int64(value)))) }
    mutating func encode(_ value: Int16) throws { box.elements.append(.value(.int(Int64(value)))) }
    mutating func encode(_ value: Int32) throws { box.elements.append(.value(.int(Int64(value)))) }
    mutating func encode(_ value: Int64) throws { box.elements.append(.value(.int(value))) }
    mutating func encode(_ value: UInt) throws { box.elements.append(.value(.uint(UInt64(value)))) }
    mutating func encode(_ value: UInt8) throws { box.elements.append(.value(.uint(UInt64(value)))) }
    mutating func encode(_ value: UInt16) throws { box.elements.append(.value(.uint(UInt64(value)))) }
    mutating func encode(_ value: UInt32) throws { box.elements.append(.value(.uint(UInt64(value)))) }
    mutating func encode(_ value: UInt64) throws { box.elements.append(.value(.uint(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [IndexKey(count)]
        box.elements.append(try EncodingTree.node(for: value, codingPath: path, userInfo: userInfo))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = MapBox()
        let path = codingPath + [IndexKey(count)]
        box.elements.append(.map(nested))
        return KeyedEncodingContainer(KeyedTreeContainer<NestedKey>(box: nested, codingPath: path, userInfo: userInfo))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = ArrayBox()
        let path = codingPath + [IndexKey(count)]
        box.elements.append(.array(nested))
        return UnkeyedTreeContainer(box: nested, codingPath: path, userInfo: userInfo)
    }

    mutating func superEncoder() -> any Encoder {
        let nested = MapBox()
        let encoder = TreeEncoder(codingPath: codingPath + [IndexKey(count)], userInfo: userInfo)
        box.elements.append(.map(nested))
        encoder.node = .map(nested)
        return encoder
    }
}

struct SingleValueTreeContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { encoder.userInfo }

    mutating func encodeNil() throws { encoder.node = .value(.nil) }
    mutating func encode(_ value: Bool) throws { encoder.node = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { encoder.node = .value(.string(value)) }
    mutating func encode(_ value: Double) throws { encoder.node = .value(.double(value)) }
    mutating func encode(_ value: Float) throws { encoder.node = .value(.float(value)) }
    mutating func encode(_ value: Int) throws { encoder.node = .value(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { encoder.node = .value(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { encoder.node = .value(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { encoder.node = .value(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { encoder.node = .value(.int(value)) }
    mutating func encode(_ value: UInt) throws { encoder.node = .value(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { encoder.node = .value(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { encoder.node = .value(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { encoder.node = .value(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { encoder.node = .value(.uint(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.node = try EncodingTree.node(for: value, codingPath: codingPath, userInfo: userInfo)
    }
}

/// The coding-path key of an array element.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue _: String) { nil }
}

/// A coding key with just a name (the `super` key of class hierarchies).
struct NamedKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue _: Int) { nil }
}
