import LowbandMessagePack
import Testing

/// Nesting beyond the limit fails cleanly with the offset of the first container too deep.
@Suite struct DepthLimitTests {
    /// Decodes nested arrays into itself, as a recursive model type would.
    struct Tree: Decodable {
        var children: [Tree]

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            children = []
            while !container.isAtEnd {
                children.append(try container.decode(Tree.self))
            }
        }
    }

    /// Decodes `{"next": {"next": … nil}}` into a linked list.
    final class Link: Decodable {
        let next: Link?
    }

    @Test func valueReaderStopsAtTheDefaultLimit() {
        let error = #expect(throws: MessagePackError.self) { try MessagePackValue(decoding: nestedArrays(100_000)) }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.offset == MessagePackLimits.defaultMaxDepth)
    }

    @Test func valueReaderAcceptsExactlyTheLimit() throws {
        let limit = MessagePackLimits.defaultMaxDepth
        var value = try MessagePackValue(decoding: nestedArrays(limit))
        for _ in 0 ..< limit {
            guard case let .array(elements) = value, elements.count == 1 else {
                Issue.record("expected a one-element array")
                return
            }
            value = elements[0]
        }
        #expect(value == .nil)
        let error = #expect(throws: MessagePackError.self) { try MessagePackValue(decoding: nestedArrays(limit + 1)) }
        #expect(error?.offset == limit)
    }

    @Test func valueReaderLimitCountsMapsToo() {
        // {"": {"": … }}: each level is 2 bytes (81 a0), so level 5 starts at byte 10.
        let input = Array([[UInt8]](repeating: [0x81, 0xa0], count: 100_000).joined()) + [0xc0]
        var reader = MessagePackReader(input)
        let error = #expect(throws: MessagePackError.self) { try reader.readValue(maxDepth: 5) }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.offset == 10)
        let deep = #expect(throws: MessagePackError.self) { try MessagePackValue(decoding: input) }
        #expect(deep?.offset == 2 * MessagePackLimits.defaultMaxDepth)
    }

    @Test func skipValueNeedsNoDepthLimit() throws {
        // Skipping is iterative: 100_000 levels are skipped without recursion.
        var reader = MessagePackReader(nestedArrays(100_000))
        try reader.skipValue()
        #expect(reader.isAtEnd)
    }

    @Test func codableDecoderStopsAtTheDefaultLimit() {
        let error = #expect(throws: MessagePackError.self) { try MessagePackDecoder().decode(Tree.self, from: nestedArrays(100_000)) }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.offset == MessagePackLimits.defaultMaxDepth)
        #expect(error?.path == String(repeating: "[0]", count: MessagePackLimits.defaultMaxDepth))
    }

    @Test func codableDecoderAcceptsExactlyTheLimit() throws {
        let limit = MessagePackLimits.defaultMaxDepth
        var tree = try MessagePackDecoder().decode(Tree.self, from: [UInt8](repeating: 0x91, count: limit - 1) + [0x90])
        var depth = 1
        while let child = tree.children.first {
            tree = child
            depth += 1
        }
        #expect(depth == limit)
    }

    @Test func codableDecoderLimitIsConfigurable() {
        let error = #expect(throws: MessagePackError.self) {
            try MessagePackDecoder(maxDepth: 3).decode([[[[Int]]]].self, from: fromHex("91 91 91 91 01"))
        }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.offset == 3)
        #expect(error?.path == "[0][0][0]")
        #expect(throws: Never.self) { try MessagePackDecoder(maxDepth: 4).decode([[[[Int]]]].self, from: fromHex("91 91 91 91 01")) }
    }

    @Test func codableDecoderLimitCountsKeyedContainers() {
        // {"next": {"next": … nil}}: each level is 6 bytes (81 a4 n e x t).
        let level: [UInt8] = [0x81, 0xa4] + Array("next".utf8)
        let input = Array([[UInt8]](repeating: level, count: 10_000).joined()) + [0xc0]
        let error = #expect(throws: MessagePackError.self) { try MessagePackDecoder(maxDepth: 20).decode(Link.self, from: input) }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.offset == 20 * level.count)
        #expect(error?.path == Array(repeating: "next", count: 20).joined(separator: "."))
    }
}
