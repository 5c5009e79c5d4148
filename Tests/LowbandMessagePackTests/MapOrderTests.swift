import LowbandMessagePack
import Testing

/// Map keys come out in the order they were encoded, never in `Dictionary` order.
@Suite struct MapOrderTests {
    struct Message: Codable, Equatable {
        var zulu: Int
        var alpha: String
        var mike: Bool
        var bravo: [Int]
        var yankee: Double?
    }

    @Test func structFieldsAppearInDeclarationOrder() throws {
        let message = Message(zulu: 1, alpha: "a", mike: true, bravo: [2], yankee: 0.5)
        let bytes = try MessagePackEncoder().encode(message)
        let value = try MessagePackValue(decoding: bytes)
        guard case let .map(entries) = value else {
            Issue.record("expected a map, got \(value)")
            return
        }
        #expect(entries.map(\.key) == ["zulu", "alpha", "mike", "bravo", "yankee"])
        #expect(hex(bytes.prefix(8)) == "85 a4 7a 75 6c 75 01 a5")
    }

    @Test func manyFieldsKeepTheirOrderToo() throws {
        // Past 12 keys the decoder hashes them; the encoder's order must not change.
        let keys = (0 ..< 40).map { "field\(39 - $0)" }
        let bytes = try MessagePackEncoder().encode(OrderedFields(keys: keys))
        guard case let .map(entries) = try MessagePackValue(decoding: bytes) else {
            Issue.record("expected a map")
            return
        }
        #expect(entries.map { $0.key.stringValue ?? "" } == keys)
    }

    @Test func dictionariesEncodeSortedWhateverTheirInsertionOrder() throws {
        let keys = (0 ..< 200).map { "key-\($0 * 7919 % 1000)" }
        var forward: [String: Int] = [:]
        for (index, key) in keys.enumerated() { forward[key] = index }
        var backward: [String: Int] = [:]
        for (index, key) in keys.enumerated().reversed() { backward[key] = index }
        var grown: [String: Int] = [:]
        grown.reserveCapacity(10_000)
        for (index, key) in keys.enumerated().shuffled() { grown[key] = index }
        #expect(forward == backward && backward == grown)

        let bytes = try MessagePackEncoder().encode(forward)
        #expect(try MessagePackEncoder().encode(backward) == bytes)
        #expect(try MessagePackEncoder().encode(grown) == bytes)
        guard case let .map(entries) = try MessagePackValue(decoding: bytes) else {
            Issue.record("expected a map")
            return
        }
        #expect(entries.map { $0.key.stringValue ?? "" } == keys.sorted())
        #expect(try MessagePackDecoder().decode([String: Int].self, from: bytes) == forward)
    }

    @Test func smallDictionaryBytesArePinned() throws {
        let dictionary = ["b": 2, "a": 1, "é": 3, "Z": 0]
        // Sorted by Unicode scalars: "Z" (U+5A) < "a" < "b" < "é" (U+E9).
        #expect(hex(try MessagePackEncoder().encode(dictionary)) == "84 a1 5a 00 a1 61 01 a1 62 02 a2 c3 a9 03")
    }

    @Test func integerKeyedDictionariesSortNumericallyAsIntegerKeys() throws {
        let dictionary = [10: "ten", -1: "minus one", 2: "two"]
        let bytes = try MessagePackEncoder().encode(dictionary)
        #expect(hex(bytes) == "83 ff a9 6d 69 6e 75 73 20 6f 6e 65 02 a3 74 77 6f 0a a3 74 65 6e")
        #expect(try MessagePackDecoder().decode([Int: String].self, from: bytes) == dictionary)
    }

    @Test func numericStringKeysStayStrings() throws {
        // A [String: V] key that looks like a number is still a str on the wire.
        let dictionary = ["10": 1, "2": 2, "x": 3]
        let bytes = try MessagePackEncoder().encode(dictionary)
        #expect(hex(bytes) == "83 a2 31 30 01 a1 32 02 a1 78 03")
        #expect(try MessagePackDecoder().decode([String: Int].self, from: bytes) == dictionary)
    }

    @Test func nestedDictionariesAreSortedAtEveryLevel() throws {
        let value = ["b": ["y": 1, "x": 2], "a": ["d": 3, "c": 4]]
        let bytes = try MessagePackEncoder().encode(value)
        #expect(try mapKeys(bytes) == ["a", "c", "d", "b", "x", "y"])
    }

    /// A struct whose keys are decided at run time, encoded in the order given.
    struct OrderedFields: Encodable {
        var keys: [String]
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue _: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (index, key) in keys.enumerated() {
                try container.encode(index, forKey: Key(stringValue: key))
            }
        }
    }

    /// Every string map key in reading order, depth first.
    func mapKeys(_ bytes: [UInt8]) throws -> [String] {
        func keys(of value: MessagePackValue) -> [String] {
            switch value {
            case let .map(entries): entries.flatMap { [$0.key.stringValue ?? "?"] + keys(of: $0.value) }
            case let .array(elements): elements.flatMap(keys(of:))
            default: []
            }
        }
        return keys(of: try MessagePackValue(decoding: bytes))
    }
}
