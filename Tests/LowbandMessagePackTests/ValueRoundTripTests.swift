import LowbandMessagePack
import LowbandTestSupport
import Testing

/// Values written by the writer read back equal through the reader, and re-encode byte for byte.
@Suite struct ValueRoundTripTests {
    @Test(arguments: MessagePackSamples.edgeCases)
    func edgeCaseRoundTrips(sample: MessagePackSample) throws {
        let bytes = try encoded(sample.value)
        let decoded = try MessagePackValue(decoding: bytes)
        #expect(decoded == sample.value)
        #expect(try decoded.encoded() == bytes)
        var reader = MessagePackReader(bytes)
        try reader.skipValue()
        #expect(reader.isAtEnd)
    }

    @Test func randomValuesRoundTrip() throws {
        let values = MessagePackSamples.randomValues(count: 3000, seed: 0x5eed_0001, options: .init(extensionTypes: -128 ... 127))
        var writer = MessagePackWriter()
        var ends: [Int] = []
        for value in values {
            try writer.write(value)
            ends.append(writer.bytes.count)
        }
        var reader = MessagePackReader(writer.bytes)
        var skipper = MessagePackReader(writer.bytes)
        for (index, value) in values.enumerated() {
            let start = reader.offset
            let decoded = try reader.readValue()
            #expect(decoded == value, "value \(index)")
            #expect(reader.offset == ends[index])
            #expect(try decoded.encoded() == Array(writer.bytes[start ..< ends[index]]), "value \(index)")
            try skipper.skipValue()
            #expect(skipper.offset == ends[index])
        }
        #expect(reader.isAtEnd)
    }

    @Test func integersCompareByValueAndFloatsByBits() {
        #expect(MessagePackValue.int(5) == .uint(5))
        #expect(MessagePackValue.uint(5) == .int(5))
        #expect(MessagePackValue.int(-1) != .uint(UInt64.max))
        #expect(MessagePackValue.double(.nan) == .double(.nan))
        #expect(MessagePackValue.double(0) != .double(-0.0))
        #expect(MessagePackValue.float(1) != .double(1))
        #expect(MessagePackValue.map([(key: "a", value: 1), (key: "b", value: 2)]) != ["b": 2, "a": 1], "map order matters")
    }

    @Test func readerPrefersIntAndUsesUIntOnlyAboveInt64Max() throws {
        #expect(try MessagePackValue(decoding: fromHex("cf 7f ff ff ff ff ff ff ff")).int64Value == Int64.max)
        guard case .uint(UInt64.max) = try MessagePackValue(decoding: fromHex("cf ff ff ff ff ff ff ff ff")) else {
            Issue.record("UInt64.max should read as .uint")
            return
        }
        guard case .int(200) = try MessagePackValue(decoding: fromHex("cc c8")) else {
            Issue.record("200 should read as .int")
            return
        }
    }

    @Test func negativeExtensionTypesRoundTrip() throws {
        for type in [Int8.min, -2, -1] {
            // Type -1 with data that is not a timestamp's still reads as an error, not as an extension.
            let value = MessagePackValue.extension(type: type, data: [1, 2, 3])
            let bytes = try encoded(value)
            if type == -1 {
                #expect(throws: MessagePackError.self) { try MessagePackValue(decoding: bytes) }
            } else {
                #expect(try MessagePackValue(decoding: bytes) == value)
            }
        }
    }

    @Test func extensionTypeC1IsAnOrdinaryTypeByte() throws {
        // Type -63 is the byte 0xc1, which is only invalid as the first byte of a value.
        for length in [1, 2, 3, 4, 8, 16, 300, 70_000] {
            let value = MessagePackValue.extension(type: -63, data: MessagePackSamples.patternBytes(length))
            let bytes = try encoded(value)
            #expect(try MessagePackValue(decoding: bytes) == value, "length \(length)")
            var reader = MessagePackReader(bytes)
            #expect(try reader.peekKind() == .extension)
            #expect(try reader.readExtension().type == -63)
            reader.seek(to: 0)
            try reader.skipValue()
            #expect(reader.isAtEnd)
        }
    }

    @Test func mapLiteralsKeepTheirOrderAndSubscriptFindsTheFirstKey() throws {
        let value: MessagePackValue = ["z": 1, "a": 2, "m": 3]
        #expect(hex(try encoded(value)) == "83 a1 7a 01 a1 61 02 a1 6d 03")
        #expect(value["a"] == 2)
        #expect(value["q"] == nil)
        let duplicate = try MessagePackValue(decoding: fromHex("82 a1 6b 01 a1 6b 02"))
        #expect(duplicate["k"] == 1)
        guard case let .map(entries) = duplicate else { return }
        #expect(entries.count == 2, "duplicate keys are kept as they are")
    }
}
