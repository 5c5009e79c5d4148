import LowbandMessagePack
import Testing

/// The low-level reader: one header or scalar at a time, with the offset of every problem.
@Suite struct ReaderTests {
    @Test(arguments: [
        ("c0", MessagePackKind.nil), ("c2", .bool), ("c3", .bool),
        ("00", .int), ("7f", .int), ("e0", .int), ("ff", .int), ("cc 01", .int), ("cd 00 01", .int),
        ("ce 00 00 00 01", .int), ("cf 00 00 00 00 00 00 00 01", .int), ("d0 80", .int), ("d1 80 00", .int),
        ("d2 80 00 00 00", .int), ("d3 80 00 00 00 00 00 00 00", .int),
        ("ca 00 00 00 00", .float), ("cb 00 00 00 00 00 00 00 00", .float),
        ("a0", .string), ("bf", .string), ("d9 00", .string), ("da 00 00", .string), ("db 00 00 00 00", .string),
        ("c4 00", .binary), ("c5 00 00", .binary), ("c6 00 00 00 00", .binary),
        ("90", .array), ("9f", .array), ("dc 00 00", .array), ("dd 00 00 00 00", .array),
        ("80", .map), ("8f", .map), ("de 00 00", .map), ("df 00 00 00 00", .map),
        ("d4 01 00", .extension), ("d5 01 00 00", .extension), ("d6 01 00 00 00 00", .extension),
        ("d7 01 00 00 00 00 00 00 00 00", .extension), ("d8 01", .extension), ("c7 00 01", .extension),
        ("c8 00 00 01", .extension), ("c9 00 00 00 00 01", .extension),
        ("d6 ff 00 00 00 00", .timestamp), ("d7 ff", .timestamp), ("c7 0c ff", .timestamp),
        ("c8 00 0c ff", .timestamp), ("c9 00 00 00 0c ff", .timestamp), ("d4 ff", .timestamp),
    ])
    func peekKindReadsTheFirstBytes(input: String, kind: MessagePackKind) throws {
        let reader = MessagePackReader(fromHex(input))
        #expect(try reader.peekKind() == kind)
        #expect(reader.offset == 0)
    }

    @Test func integersOfEveryForm() throws {
        var reader = MessagePackReader(fromHex("05 fb cc c8 cd 01 2c ce 00 01 00 00 cf ff ff ff ff ff ff ff ff d0 9c d1 fe d4 d2 ff fe 79 60 d3 80 00 00 00 00 00 00 00"))
        #expect(try reader.readInteger(Int8.self) == 5)
        #expect(try reader.readInteger(Int8.self) == -5)
        #expect(try reader.readInteger(UInt8.self) == 200)
        #expect(try reader.readInteger(Int16.self) == 300)
        #expect(try reader.readInteger(UInt32.self) == 65536)
        #expect(try reader.readUInt64() == UInt64.max)
        #expect(try reader.readInteger(Int8.self) == -100)
        #expect(try reader.readInteger(Int16.self) == -300)
        #expect(try reader.readInteger(Int32.self) == -100_000)
        #expect(try reader.readInt64() == Int64.min)
        #expect(reader.isAtEnd)
    }

    @Test func floatsAndIntegersAsFloats() throws {
        var reader = MessagePackReader(fromHex("ca 3f c0 00 00 cb 3f f8 00 00 00 00 00 00 ca 3f c0 00 00 cb 3f f8 00 00 00 00 00 00 07 f9 cf ff ff ff ff ff ff ff ff"))
        #expect(try reader.readFloat() == 1.5)
        #expect(try reader.readFloat() == 1.5)
        #expect(try reader.readDouble() == 1.5)
        #expect(try reader.readDouble() == 1.5)
        #expect(try reader.readDouble() == 7)
        #expect(try reader.readFloat() == -7)
        // UInt64.max has no exact Double: an error rather than a silently rounded number.
        let error = #expect(throws: MessagePackError.self) { try reader.readDouble() }
        #expect(error?.code == .integerOverflow)
        #expect(error?.offset == 30)
        #expect(reader.offset == 30)
    }

    @Test func stringsAndBinariesAreSlicesOfTheInput() throws {
        var reader = MessagePackReader(fromHex("a3 61 62 63 d9 02 d0 b6 c4 02 01 02 c5 00 01 ff"))
        #expect(try reader.readString() == "abc")
        #expect(try reader.readString() == "ж")
        let binary = try reader.readBinary()
        #expect(Array(binary) == [1, 2])
        #expect(binary.startIndex == 10, "the slice indexes into the input, not a copy")
        #expect(Array(try reader.readBinary()) == [0xff])
        #expect(reader.isAtEnd)
    }

    @Test func invalidUTF8IsRejectedByReadStringButNotByReadStringBytes() throws {
        // "a", then a lone continuation byte, then an overlong encoding of "/".
        let input = fromHex("91 a4 61 80 c0 af")
        var reader = MessagePackReader(input)
        _ = try reader.readArrayHeader()
        let error = #expect(throws: MessagePackError.self) { try reader.readString() }
        #expect(error?.code == .invalidUTF8)
        #expect(error?.offset == 1)
        #expect(reader.offset == 1)
        #expect(Array(try reader.readStringBytes()) == [0x61, 0x80, 0xc0, 0xaf])
        #expect(reader.isAtEnd)

        let valueError = #expect(throws: MessagePackError.self) { try MessagePackValue(decoding: input) }
        #expect(valueError?.code == .invalidUTF8)
        #expect(valueError?.offset == 1)
        let codableError = #expect(throws: MessagePackError.self) { try MessagePackDecoder().decode([String].self, from: input) }
        #expect(codableError?.code == .invalidUTF8)
        #expect(codableError?.offset == 1)
        #expect(codableError?.path == "[0]")
    }

    @Test func surrogateCodePointsAreInvalidUTF8() {
        // U+D800 encoded as ed a0 80 is not valid UTF-8.
        let error = #expect(throws: MessagePackError.self) { try MessagePackValue(decoding: fromHex("a3 ed a0 80")) }
        #expect(error?.code == .invalidUTF8)
    }

    @Test func containerHeadersAndExtensions() throws {
        var reader = MessagePackReader(fromHex("92 01 02 81 a1 6b c0 d5 07 aa bb c7 00 f0"))
        #expect(try reader.readArrayHeader() == 2)
        #expect(try reader.readInt64() == 1)
        #expect(try reader.readInt64() == 2)
        #expect(try reader.readMapHeader() == 1)
        #expect(try reader.readString() == "k")
        #expect(try reader.readNilIfPresent())
        #expect(try !reader.readNilIfPresent())
        let ext = try reader.readExtension()
        #expect(ext.type == 7)
        #expect(Array(ext.data) == [0xaa, 0xbb])
        let empty = try reader.readExtension()
        #expect(empty.type == -16)
        #expect(empty.data.isEmpty)
        #expect(reader.isAtEnd)
    }

    @Test func typeMismatchNamesBothKindsAndKeepsTheOffset() throws {
        var reader = MessagePackReader(fromHex("c0 a1 61"))
        reader.seek(to: 1)
        let error = #expect(throws: MessagePackError.self) { try reader.readInt64() }
        #expect(error?.code == .typeMismatch)
        #expect(error?.offset == 1)
        #expect(error?.message == "expected integer, found string")
        #expect(reader.offset == 1)
        #expect(throws: MessagePackError.self) { try reader.readBool() }
        #expect(throws: MessagePackError.self) { try reader.readBinary() }
        #expect(throws: MessagePackError.self) { try reader.readArrayHeader() }
        #expect(throws: MessagePackError.self) { try reader.readMapHeader() }
        #expect(throws: MessagePackError.self) { try reader.readExtension() }
        #expect(throws: MessagePackError.self) { try reader.readNil() }
        #expect(reader.offset == 1)
        #expect(try reader.readString() == "a")
    }

    @Test func skipValueStepsOverWholeNestedValues() throws {
        let first: MessagePackValue = ["a": [1, 2, ["b": .binary([1, 2, 3])]], "t": .timestamp(MessagePackTimestamp(seconds: -1)), "e": .extension(type: 3, data: [1, 2, 3])]
        let second: MessagePackValue = [.double(2.5), .float(1), "x", .uint(UInt64.max), -100_000]
        var input = try encoded(first)
        let firstCount = input.count
        input += try encoded(second)
        var reader = MessagePackReader(input)
        try reader.skipValue()
        #expect(reader.offset == firstCount)
        try reader.skipValue()
        #expect(reader.isAtEnd)
    }

    @Test func trailingBytesAfterATopLevelValueAreAnError() {
        let error = #expect(throws: MessagePackError.self) { try MessagePackValue(decoding: fromHex("01 02")) }
        #expect(error?.code == .trailingBytes)
        #expect(error?.offset == 1)
        let codable = #expect(throws: MessagePackError.self) { try MessagePackDecoder().decode(Int.self, from: fromHex("91 01 c0")) }
        #expect(codable?.code == .typeMismatch, "an array is not an Int")
        let trailing = #expect(throws: MessagePackError.self) { try MessagePackDecoder().decode([Int].self, from: fromHex("91 01 c0")) }
        #expect(trailing?.code == .trailingBytes)
        #expect(trailing?.offset == 2)
    }

    @Test func decoderReadsOneValueFromAStreamAndMovesPastIt() throws {
        var reader = MessagePackReader(fromHex("92 01 02 a1 78 c0"))
        #expect(try MessagePackDecoder().decode([Int].self, from: &reader) == [1, 2])
        #expect(reader.offset == 3)
        #expect(try MessagePackDecoder().decode(String.self, from: &reader) == "x")
        #expect(try MessagePackDecoder().decode(Int?.self, from: &reader) == nil)
        #expect(reader.isAtEnd)
    }
}
