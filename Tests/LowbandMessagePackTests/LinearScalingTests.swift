import LowbandMessagePack
import LowbandTestSupport
import Testing

/// Nothing in the codec is quadratic: 4 MiB take about four times the work of 1 MiB.
///
/// Work is the number of CPU instructions retired (see ``InstructionCounter``), not time. Each
/// larger input holds exactly four times the elements of the smaller one, so linear code gives a
/// ratio near 4 and a quadratic step (re-skipping an array's elements from its start, scanning a
/// large map's keys for every lookup, rebuilding `allKeys` per key) gives about 16.
@Suite(.enabled(if: InstructionCounter.isAvailable, "this machine hides the CPU instruction counter (perf_event_open), so linearity cannot be counted here"))
struct LinearScalingTests {
    struct Message: Codable, Equatable {
        var id: Int
        var from: Int
        var text: String
        var read: Bool
    }

    static func messages(_ count: Int) -> [Message] {
        (0 ..< count).map { Message(id: $0, from: $0 % 977, text: "message \($0) · Привет, как дела? 👍 see you soon", read: $0 % 3 == 0) }
    }

    static func directory(_ count: Int) -> [String: String] {
        Dictionary(uniqueKeysWithValues: (0 ..< count).map { ("user-\($0)", "Имя Фамилия \($0) <user\($0)@example.org>") })
    }

    @Test func decodingAnArrayOfStructs() throws {
        #expect(try MessagePackDecoder().decode([Message].self, from: MessagePackEncoder().encode(Self.messages(100))) == Self.messages(100))
        try expectLinear("decoding [Message]", elements: 12_000) { count in
            try MessagePackEncoder().encode(Self.messages(count))
        } work: { bytes in
            _ = try MessagePackDecoder().decode([Message].self, from: bytes)
        }
    }

    @Test func decodingALargeDictionary() throws {
        #expect(try MessagePackDecoder().decode([String: String].self, from: MessagePackEncoder().encode(Self.directory(100))) == Self.directory(100))
        try expectLinear("decoding [String: String]", elements: 18_000) { count in
            try MessagePackEncoder().encode(Self.directory(count))
        } work: { bytes in
            _ = try MessagePackDecoder().decode([String: String].self, from: bytes)
        }
    }

    @Test func readingAValueTree() throws {
        try expectLinear("reading a MessagePackValue", elements: 8) { chats in
            try MessagePackSamples.messengerSync(chats: chats, messagesPerChat: 1000, seed: 1).encoded()
        } work: { bytes in
            _ = try MessagePackValue(decoding: bytes)
        }
    }

    @Test func skippingAValue() throws {
        try expectLinear("skipping a value", elements: 8) { chats in
            try MessagePackSamples.messengerSync(chats: chats, messagesPerChat: 1000, seed: 1).encoded()
        } work: { bytes in
            var reader = MessagePackReader(bytes)
            try reader.skipValue()
            #expect(reader.isAtEnd)
        }
    }

    @Test func encoding() throws {
        try expectLinearSteps("encoding [Message]", elements: 12_000, prepare: Self.messages) { messages in
            _ = try MessagePackEncoder().encode(messages)
        }
        // Sorting the keys is n log n: allow for the log factor (log 72k / log 18k ≈ 1.14).
        try expectLinearSteps("encoding [String: String]", elements: 18_000, limit: 5.5, prepare: Self.directory) { directory in
            _ = try MessagePackEncoder().encode(directory)
        }
    }

    /// Expects `work` on bytes of `elements` elements (at least 1 MiB) and of four times as many
    /// to take about 1x and 4x the instructions.
    private func expectLinear(
        _ what: String, elements: Int, limit: Double = 5, sourceLocation: SourceLocation = #_sourceLocation,
        prepare: (Int) throws -> [UInt8], work: ([UInt8]) throws -> Void
    ) throws {
        try expectLinearSteps(what, elements: elements, limit: limit, sourceLocation: sourceLocation, prepare: { count in
            let bytes = try prepare(count)
            if count == elements {
                #expect(bytes.count >= 1 << 20, "\(what): the base input has only \(bytes.count) bytes", sourceLocation: sourceLocation)
            }
            return bytes
        }, work: work)
    }

    /// Measures `work` on inputs of n/16, n/4, n and 4n elements and expects each 4x step to take
    /// about 4x the instructions. The small pair runs first, so a quadratic regression fails in
    /// seconds instead of grinding through the large pair for hours.
    private func expectLinearSteps<Input>(
        _ what: String, elements: Int, limit: Double = 5, sourceLocation: SourceLocation = #_sourceLocation,
        prepare: (Int) throws -> Input, work: (Input) throws -> Void
    ) throws {
        let counter = try InstructionCounter()
        for (small, large) in [(max(elements / 16, 1), max(elements / 4, 4)), (elements, 4 * elements)] {
            let smallInput = try prepare(small)
            let smallInstructions = try counter.measure { try work(smallInput) }.instructions
            let largeInput = try prepare(large)
            let largeInstructions = try counter.measure { try work(largeInput) }.instructions
            try #require(smallInstructions > 100_000, "\(what): the counter saw only \(smallInstructions) instructions", sourceLocation: sourceLocation)
            let ratio = Double(largeInstructions) / Double(smallInstructions)
            #expect(
                ratio < limit,
                "\(what): \(large) elements took \(ratio)x the instructions of \(small) (\(smallInstructions) → \(largeInstructions)); linear is about 4",
                sourceLocation: sourceLocation
            )
            guard ratio < limit else { return }
        }
    }
}
