import LowbandMessagePack
import LowbandTestSupport
import Testing

/// Conformance with Python's `msgpack` package, the reference implementation.
///
/// msgpack-python always packs the smallest form, as our writer does, except that it widens
/// float32 to float64; so Python's re-packing of our bytes must equal our encoding of the same
/// value with every float32 widened, byte for byte.
@Suite struct PythonConformanceTests {
    @Test func edgeCasesSurvivePythonByteForByte() async throws {
        let samples = MessagePackSamples.edgeCases
        try await expectPythonRepacks(samples.map(\.value), names: samples.map(\.name))
    }

    @Test func randomSwiftValuesSurvivePythonByteForByte() async throws {
        let withoutFloat32 = MessagePackSamples.randomValues(count: 2000, seed: 0xC0FFEE, options: .init(includeFloat32: false))
        let withFloat32 = MessagePackSamples.randomValues(count: 2000, seed: 0xBEEF, options: .init(maxDepth: 5))
        let values = withoutFloat32 + withFloat32
        try await expectPythonRepacks(values, names: values.indices.map { "random value \($0)" })
    }

    @Test func codableOutputSurvivesPythonByteForByte() async throws {
        let encoder = MessagePackEncoder()
        let records = [
            try encoder.encode(CodableRoundTripTests.chat),
            try encoder.encode(Dictionary(uniqueKeysWithValues: (0 ..< 300).map { ("key \($0 * 37 % 300)", $0) })),
            try encoder.encode(Dictionary(uniqueKeysWithValues: (0 ..< 300).map { ($0 * 7919 - 1_000_000, String($0)) })),
            try MessagePackSamples.messengerSync(chats: 3, messagesPerChat: 20, seed: 5).encoded(),
        ]
        let values = try records.map { try MessagePackValue(decoding: $0) }
        #expect(try values.map { try encoded($0) } == records)
        try await expectPythonRepacks(values, names: ["chat", "[String: Int]", "[Int: String]", "messenger sync"])
    }

    @Test func pythonValuesSurviveSwiftByteForByte() async throws {
        let seed = 20_240_611
        let count = 3000
        let packed = try await PythonPeer.generate(seed: seed, count: count)
        #expect(packed.count == count)
        var reencoded: [[UInt8]] = []
        for (index, bytes) in packed.enumerated() {
            let value = try MessagePackValue(decoding: bytes)
            let again = try value.encoded()
            if again != bytes {
                Issue.record("Python value \(index): Python packed \(hex(bytes.prefix(64))), Swift re-encoded \(hex(again.prefix(64)))")
            }
            var skipper = MessagePackReader(bytes)
            try skipper.skipValue()
            #expect(skipper.isAtEnd)
            reencoded.append(again)
        }
        let complaints = try await PythonPeer.verify(seed: seed, count: count, records: reencoded)
        #expect(complaints.isEmpty, "\(complaints)")
    }

    @Test func pythonVerifierNoticesADifference() async throws {
        // The verifier must not pass everything: flip one value and it has to complain.
        let seed = 7
        var packed = try await PythonPeer.generate(seed: seed, count: 20)
        packed[3] = [0xc0]
        let complaints = try await PythonPeer.verify(seed: seed, count: 20, records: packed)
        #expect(complaints.contains("value 3"))
    }

    @Test func pythonRejectsWhatWeReject() async throws {
        // Invalid UTF-8 and 0xc1: both sides refuse, so neither accepts bytes the other would not.
        let outcomes = try await PythonPeer.repack([fromHex("a2 c3 28"), fromHex("c1"), fromHex("d6 ff 00 00 00 01")])
        guard outcomes.count == 3 else {
            Issue.record("expected three outcomes, got \(outcomes)")
            return
        }
        if case .bytes = outcomes[0] { Issue.record("Python accepted invalid UTF-8") }
        if case .bytes = outcomes[1] { Issue.record("Python accepted 0xc1") }
        #expect(outcomes[2] == .bytes(fromHex("d6 ff 00 00 00 01")))
    }

    /// Sends the encodings of `values` through Python and compares what comes back.
    private func expectPythonRepacks(_ values: [MessagePackValue], names: [String]) async throws {
        let records = try values.map { try encoded($0) }
        let outcomes = try await PythonPeer.repack(records)
        try #require(outcomes.count == values.count, "Python answered \(outcomes.count) of \(values.count) records")
        var failures = 0
        for (index, outcome) in outcomes.enumerated() where failures < 10 {
            let expected = try encoded(values[index].widenedFloats)
            switch outcome {
            case let .bytes(bytes) where bytes == expected:
                continue
            case let .bytes(bytes):
                failures += 1
                Issue.record("\(names[index]): sent \(hex(records[index].prefix(48))), Python repacked \(hex(bytes.prefix(48))), expected \(hex(expected.prefix(48)))")
            case let .error(message):
                failures += 1
                Issue.record("\(names[index]): Python could not unpack \(hex(records[index].prefix(48))): \(message)")
            }
        }
    }
}
