@testable import LowbandMessagePack
import Testing

/// The encoder's two paths — straight into the output, or the value tree when Codable is used
/// in ways one pass cannot follow — must give the same bytes, which are the tree's.
///
/// Every case checks three things: which path finished the value (so a use that needs the tree
/// and is not spotted fails here even if the bytes happened to agree), that
/// ``MessagePackEncoder`` gives exactly the tree encoder's bytes, and fixed bytes for the small
/// cases. Large containers also go through msgpack-python, which packs the smallest headers.
@Suite struct EncoderPathTests {
    // MARK: (a) Writing to a container again after a sibling

    @Test func parentWrittenAfterANestedContainerStaysOnTheDirectPath() throws {
        try expectPaths(ReturnToParent(), direct: true, hex: "82 a1 6e 81 a1 78 01 a1 73 02")
    }

    @Test func nestedKeyedContainerWrittenAfterASiblingFallsBackToTheTree() throws {
        try expectPaths(LateNestedWrite(), direct: false, hex: "82 a1 6e 81 a1 78 01 a1 73 02")
    }

    @Test func nestedUnkeyedContainerWrittenAfterASiblingFallsBackToTheTree() throws {
        try expectPaths(LateNestedList(), direct: false, hex: "82 a1 6c 92 03 04 a1 73 02")
    }

    @Test func containerInsideAnArrayWrittenAfterTheNextElementFallsBackToTheTree() throws {
        try expectPaths(LateElement(), direct: false, hex: "92 81 a1 78 01 05")
    }

    @Test func askingForTheSameContainerTwiceStaysOnTheDirectPath() throws {
        try expectPaths(ContainerTwice(), direct: true, hex: "82 a1 61 81 a2 78 30 01 a1 62 02")
    }

    // MARK: (b) superEncoder

    @Test func superEncoderFallsBackAndNestsTheSuperclassUnderSuper() throws {
        // {"name": "c", "super": {"id": 7}}
        try expectPaths(Child(mode: .superKey), direct: false, hex: "82 a4 6e 61 6d 65 a1 63 a5 73 75 70 65 72 81 a2 69 64 07")
    }

    @Test func superEncoderForKeyUsesThatKey() throws {
        // {"name": "c", "base": {"id": 7}}
        try expectPaths(Child(mode: .namedKey), direct: false, hex: "82 a4 6e 61 6d 65 a1 63 a4 62 61 73 65 81 a2 69 64 07")
    }

    @Test func superEncoderFilledAfterASiblingKeepsItsPlace() throws {
        // {"super": {"id": 7}, "name": "c"}: the entry sits where superEncoder() was called.
        try expectPaths(Child(mode: .filledLate), direct: false, hex: "82 a5 73 75 70 65 72 81 a2 69 64 07 a4 6e 61 6d 65 a1 63")
    }

    @Test func unkeyedSuperEncoderAppendsAnElement() throws {
        try expectPaths(Child(mode: .unkeyed), direct: false, hex: "92 a1 63 81 a2 69 64 07")
    }

    // MARK: (c) A single value written twice

    @Test func singleValueWrittenTwiceKeepsTheLastValueAsTheTreeAlwaysDid() throws {
        // Before the direct path (c5298e3) the second write replaced the first; it still does.
        try expectPaths(TwiceSingle(catchSecond: false), direct: false, hex: "02")
        try expectPaths(Wrapper(inner: TwiceSingle(catchSecond: false)), direct: false, hex: "81 a1 76 02")
    }

    @Test func singleValueSecondWriteCaughtByTheCallerStillEndsAsTheTreeWrote() throws {
        try expectPaths(TwiceSingle(catchSecond: true), direct: false, hex: "02")
    }

    // MARK: (d) An error thrown inside a nested value and caught

    @Test func keyedParentThatCatchesAChildsErrorAndGoesOnLosesOnlyThatEntry() throws {
        try expectPaths(CatchingParent(), direct: false, hex: "82 a1 61 01 a1 62 02")
    }

    @Test func unkeyedParentThatCatchesAChildsErrorAndGoesOnLosesOnlyThatElement() throws {
        try expectPaths(CatchingList(), direct: false, hex: "92 01 02")
    }

    @Test func anUncaughtErrorReachesTheCallerAndLeavesTheWriterAsItWas() throws {
        var writer = MessagePackWriter()
        writer.writeNil()
        #expect(throws: Boom.self) { try MessagePackEncoder().encode(Failing(), into: &writer) }
        #expect(writer.bytes == [0xc0])
        #expect(throws: Boom.self) { try MessagePackEncoder().encode(Wrapper(inner: Failing())) }
        #expect(throws: Boom.self) { try MessagePackEncoder().encode([Wrapper(inner: Failing())]) }
    }

    // MARK: (e) Headers widened past 15 and 65,535 entries

    @Test(arguments: [(0, "80"), (15, "8f"), (16, "de 00 10"), (65535, "de ff ff"), (65536, "df 00 01 00 00")])
    func keyedContainerHeadersWiden(count: Int, header: String) throws {
        let bytes = try expectPaths(Entries(count: count), direct: true)
        #expect(hex(bytes.prefix(header.count / 3 + 1)) == header)
    }

    @Test(arguments: [(0, "90"), (15, "9f"), (16, "dc 00 10"), (65535, "dc ff ff"), (65536, "dd 00 01 00 00")])
    func unkeyedContainerHeadersWiden(count: Int, header: String) throws {
        let bytes = try expectPaths(Elements(count: count), direct: true)
        #expect(hex(bytes.prefix(header.count / 3 + 1)) == header)
        let array = try expectPaths([Int8](repeating: 1, count: count), direct: true)
        #expect(hex(array.prefix(header.count / 3 + 1)) == header)
    }

    @Test func widenedContainersAmongSiblingsAndInsideDictionaries() async throws {
        let mixed = Mixed(small: Elements(count: 20), large: Entries(count: 70000), tail: Entries(count: 17))
        let dictionary = Dictionary(uniqueKeysWithValues: (0 ..< 70000).map { ($0 * 7919 % 70001 - 35000, Elements(count: $0 % 40)) })
        let fallback = Mixed(small: Elements(count: 20), large: Entries(count: 70000), tail: Entries(count: 17), superEncoded: true)
        let records = [
            try expectPaths(mixed, direct: true),
            try expectPaths(dictionary, direct: true),
            try expectPaths(fallback, direct: false),
        ]
        #expect(hex(records[1].prefix(5)) == "df 00 01 11 70")
        try await expectPythonRepacksUnchanged(records)
    }

    @Test func smallHeadersAreWhatPythonPacks() async throws {
        let records = try [15, 16, 65535, 65536].flatMap { count in
            [try expectPaths(Entries(count: count), direct: true), try expectPaths(Elements(count: count), direct: true)]
        }
        try await expectPythonRepacksUnchanged(records)
    }

    // MARK: (f) Dictionaries: key order at every level

    @Test func nestedDictionariesWithStringThenIntKeys() throws {
        // "10" < "9" < "b" as str; inside, -1 < 2 numerically. Numeric-looking strings stay str.
        let value: [String: [Int: String]] = ["b": [2: "t", -1: "m"], "10": [:], "9": [0: "z"]]
        try expectPaths(value, direct: true, hex: "83 a2 31 30 80 a1 39 81 00 a1 7a a1 62 82 ff a1 6d 02 a1 74")
    }

    @Test func nestedDictionariesWithIntThenStringKeys() throws {
        let value: [Int: [String: Int]] = [3: ["b": 1, "a": 2], -5: ["10": 0], 0: [:]]
        try expectPaths(value, direct: true, hex: "83 fb 81 a2 31 30 00 00 80 03 82 a1 61 02 a1 62 01")
    }

    @Test func dictionariesInsideStructsAndArraysAreSorted() throws {
        let value = [Holder(table: ["b": 1, "a": 2], numbers: [2: 0, 1: 0]), Holder(table: [:], numbers: [:])]
        try expectPaths(value, direct: true, hex: "92 82 a1 74 82 a1 61 02 a1 62 01 a1 6e 82 01 00 02 00 82 a1 74 80 a1 6e 80")
    }

    @Test func largeAndUnusualDictionariesMatchTheTree() throws {
        let strings = Dictionary(uniqueKeysWithValues: (0 ..< 300).map { ("k\($0 * 37 % 300)", [$0: "v\($0)"]) })
        let integers = Dictionary(uniqueKeysWithValues: (0 ..< 300).map { ($0 * 7919 - 1_000_000, ["x\($0)": $0]) })
        try expectPaths(strings, direct: true)
        try expectPaths(integers, direct: true)
        // Keys neither String nor Int: an array of key, value, … sorted by the keys' bytes.
        try expectPaths([2.5: 1, -1.0: 2], direct: true, hex: "94 cb 40 04 00 00 00 00 00 00 01 cb bf f0 00 00 00 00 00 00 02")
    }

    // MARK: (g) Empty containers

    @Test func emptyContainers() throws {
        try expectPaths(Nothing(), direct: true, hex: "80")
        try expectPaths(EmptyKeyed(), direct: true, hex: "80")
        try expectPaths(Elements(count: 0), direct: true, hex: "90")
        try expectPaths(EmptyNested(), direct: true, hex: "82 a1 6b 80 a1 75 90")
        try expectPaths([Nothing(), Nothing()], direct: true, hex: "92 80 80")
        try expectPaths([String: Int](), direct: true, hex: "80")
        try expectPaths([Double: Int](), direct: true, hex: "90")
        try expectPaths([[Int8]()], direct: true, hex: "91 90")
        try expectPaths(["a": [Int8]()], direct: true, hex: "81 a1 61 90")
        try expectPaths(["a": Nothing()], direct: true, hex: "81 a1 61 80")
    }

    // MARK: Checking

    /// Encodes `value` on both paths and returns the bytes. `direct` says whether the direct
    /// path must finish the value by itself (false: it must hand over to the tree).
    @discardableResult
    func expectPaths<T: Encodable>(_ value: T, direct: Bool, hex expected: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        var tree = MessagePackWriter()
        try EncodingTree.node(for: value, codingPath: [], userInfo: [:]).write(into: &tree)

        var streamed = MessagePackWriter()
        streamed.writeNil()
        let finished = try StreamingEncoding.encode(value, userInfo: [:], into: &streamed)
        #expect(finished == direct, "direct path finished: \(finished)", sourceLocation: sourceLocation)
        if finished {
            #expect(Array(streamed.bytes.dropFirst()) == tree.bytes, "direct path differs from the tree", sourceLocation: sourceLocation)
        } else {
            #expect(streamed.bytes == [0xc0], "a value handed to the tree left bytes behind", sourceLocation: sourceLocation)
        }

        let bytes = try MessagePackEncoder().encode(value)
        #expect(bytes == tree.bytes, "encoder \(hex(bytes.prefix(48))) vs tree \(hex(tree.bytes.prefix(48)))", sourceLocation: sourceLocation)
        if let expected {
            #expect(hex(bytes) == expected, sourceLocation: sourceLocation)
        }
        return bytes
    }

    /// msgpack-python unpacks and packs each record again; it must get the same bytes.
    func expectPythonRepacksUnchanged(_ records: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let outcomes = try await PythonPeer.repack(records)
        try #require(outcomes.count == records.count, sourceLocation: sourceLocation)
        for (index, outcome) in outcomes.enumerated() {
            #expect(outcome == .bytes(records[index]), "record \(index) (\(records[index].count) bytes) repacked differently", sourceLocation: sourceLocation)
        }
    }
}

// MARK: - Types with hand-written encode(to:)

private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue _: Int) { nil }
}

private struct Boom: Error {}

private struct ReturnToParent: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        var nested = container.nestedContainer(keyedBy: Key.self, forKey: Key("n"))
        try nested.encode(1, forKey: Key("x"))
        try container.encode(2, forKey: Key("s"))
    }
}

private struct LateNestedWrite: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        var nested = container.nestedContainer(keyedBy: Key.self, forKey: Key("n"))
        try container.encode(2, forKey: Key("s"))
        try nested.encode(1, forKey: Key("x"))
    }
}

private struct LateNestedList: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        var list = container.nestedUnkeyedContainer(forKey: Key("l"))
        try container.encode(2, forKey: Key("s"))
        try list.encode(3)
        try list.encode(4)
    }
}

private struct LateElement: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        var nested = container.nestedContainer(keyedBy: Key.self)
        try container.encode(5)
        try nested.encode(1, forKey: Key("x"))
    }
}

private struct ContainerTwice: Encodable {
    func encode(to encoder: any Encoder) throws {
        var first = encoder.container(keyedBy: Key.self)
        try first.encode(Entries(count: 1, prefix: "x", value: 1), forKey: Key("a"))
        var second = encoder.container(keyedBy: Key.self)
        try second.encode(2, forKey: Key("b"))
    }
}

private class Base: Encodable {
    let id = 7
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(id, forKey: Key("id"))
    }
}

private final class Child: Base {
    enum Mode { case superKey, namedKey, filledLate, unkeyed }
    let mode: Mode
    init(mode: Mode) { self.mode = mode }

    override func encode(to encoder: any Encoder) throws {
        switch mode {
        case .superKey:
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("c", forKey: Key("name"))
            try super.encode(to: container.superEncoder())
        case .namedKey:
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("c", forKey: Key("name"))
            try super.encode(to: container.superEncoder(forKey: Key("base")))
        case .filledLate:
            var container = encoder.container(keyedBy: Key.self)
            let superEncoder = container.superEncoder()
            try container.encode("c", forKey: Key("name"))
            try super.encode(to: superEncoder)
        case .unkeyed:
            var container = encoder.unkeyedContainer()
            try container.encode("c")
            try super.encode(to: container.superEncoder())
        }
    }
}

private struct TwiceSingle: Encodable {
    var catchSecond: Bool
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(1)
        if catchSecond { try? container.encode(2) } else { try container.encode(2) }
    }
}

private struct Wrapper<Inner: Encodable>: Encodable {
    var inner: Inner
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(inner, forKey: Key("v"))
    }
}

private struct Failing: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(1, forKey: Key("x"))
        throw Boom()
    }
}

private struct CatchingParent: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(1, forKey: Key("a"))
        do { try container.encode(Failing(), forKey: Key("f")) } catch {}
        try container.encode(2, forKey: Key("b"))
    }
}

private struct CatchingList: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(1)
        try? container.encode(Failing())
        try container.encode(2)
    }
}

/// A keyed container of `count` entries "k0", "k1", … (through the generic encode, not a shortcut).
private struct Entries: Encodable {
    var count: Int
    var prefix = "k"
    var value: Int8?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for index in 0 ..< count {
            try container.encode(value ?? Int8(truncatingIfNeeded: index), forKey: Key("\(prefix)\(index)"))
        }
    }
}

/// An unkeyed container of `count` small integers.
private struct Elements: Encodable {
    var count: Int
    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for index in 0 ..< count { try container.encode(Int8(truncatingIfNeeded: index)) }
    }
}

private struct Mixed: Encodable {
    var small: Elements
    var large: Entries
    var tail: Entries
    var superEncoded = false

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(small, forKey: Key("small"))
        try container.encode(large, forKey: Key("large"))
        if superEncoded {
            try tail.encode(to: container.superEncoder(forKey: Key("tail")))
        } else {
            try container.encode(tail, forKey: Key("tail"))
        }
        try container.encode(true, forKey: Key("end"))
    }
}

private struct Holder: Encodable {
    var table: [String: Int]
    var numbers: [Int: Int]
    enum CodingKeys: String, CodingKey { case table = "t", numbers = "n" }
}

private struct Nothing: Encodable {
    func encode(to _: any Encoder) throws {}
}

private struct EmptyKeyed: Encodable {
    func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: Key.self)
    }
}

private struct EmptyNested: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        _ = container.nestedContainer(keyedBy: Key.self, forKey: Key("k"))
        _ = container.nestedUnkeyedContainer(forKey: Key("u"))
    }
}
