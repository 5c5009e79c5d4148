import LowbandMessagePack
import LowbandTestSupport
import Testing

/// The writer picks the smallest encoding of every format family; these pin the exact bytes.
@Suite struct WriterFormatTests {
    @Test func nilAndBool() throws {
        var writer = MessagePackWriter()
        writer.writeNil()
        writer.write(false)
        writer.write(true)
        #expect(writer.bytes == [0xc0, 0xc2, 0xc3])
    }

    @Test(arguments: [
        (UInt64(0), "00"), (1, "01"), (127, "7f"),
        (128, "cc 80"), (255, "cc ff"),
        (256, "cd 01 00"), (65535, "cd ff ff"),
        (65536, "ce 00 01 00 00"), (0xFFFF_FFFF, "ce ff ff ff ff"),
        (0x1_0000_0000, "cf 00 00 00 01 00 00 00 00"),
        (UInt64(Int64.max), "cf 7f ff ff ff ff ff ff ff"),
        (UInt64.max, "cf ff ff ff ff ff ff ff ff"),
    ])
    func unsignedIntegers(number: UInt64, expected: String) throws {
        var writer = MessagePackWriter()
        writer.write(number)
        #expect(hex(writer.bytes) == expected)
        if let signed = Int64(exactly: number) {
            // Non-negative signed integers use the same unsigned forms, as msgpack-python does.
            var signedWriter = MessagePackWriter()
            signedWriter.write(signed)
            #expect(hex(signedWriter.bytes) == expected)
            #expect(try encoded(.int(signed)) == writer.bytes)
        }
        #expect(try encoded(.uint(number)) == writer.bytes)
    }

    @Test(arguments: [
        (Int64(-1), "ff"), (-32, "e0"),
        (-33, "d0 df"), (-128, "d0 80"),
        (-129, "d1 ff 7f"), (-32768, "d1 80 00"),
        (-32769, "d2 ff ff 7f ff"), (Int64(Int32.min), "d2 80 00 00 00"),
        (Int64(Int32.min) - 1, "d3 ff ff ff ff 7f ff ff ff"),
        (Int64.min, "d3 80 00 00 00 00 00 00 00"),
    ])
    func negativeIntegers(number: Int64, expected: String) throws {
        var writer = MessagePackWriter()
        writer.write(number)
        #expect(hex(writer.bytes) == expected)
        var intWriter = MessagePackWriter()
        intWriter.write(Int(number))
        #expect(intWriter.bytes == writer.bytes)
    }

    @Test func floatsKeepTheirWidthAndBits() throws {
        var writer = MessagePackWriter()
        writer.write(Float(1.5))
        #expect(hex(writer.bytes) == "ca 3f c0 00 00")
        writer.removeAll()
        writer.write(1.5)
        #expect(hex(writer.bytes) == "cb 3f f8 00 00 00 00 00 00")
        writer.removeAll()
        writer.write(-0.0)
        #expect(hex(writer.bytes) == "cb 80 00 00 00 00 00 00 00")
        writer.removeAll()
        writer.write(Double(bitPattern: 0x7ff4_0000_0000_0001))
        #expect(hex(writer.bytes) == "cb 7f f4 00 00 00 00 00 01", "a signalling NaN's payload survives")
        writer.removeAll()
        writer.write(-Float.infinity)
        #expect(hex(writer.bytes) == "ca ff 80 00 00")
        // A whole-number double is still a float64, never shortened to an integer.
        #expect(hex(try encoded(.double(2))) == "cb 40 00 00 00 00 00 00 00")
    }

    @Test(arguments: [
        (0, "a0"), (1, "a1"), (31, "bf"),
        (32, "d9 20"), (255, "d9 ff"),
        (256, "da 01 00"), (65535, "da ff ff"),
        (65536, "db 00 01 00 00"),
    ])
    func stringHeaders(length: Int, header: String) throws {
        let text = String(repeating: "x", count: length)
        let bytes = try encoded(.string(text))
        let headerBytes = fromHex(header)
        #expect(hex(bytes.prefix(headerBytes.count)) == header)
        #expect(bytes.count == headerBytes.count + length)
        #expect(bytes.suffix(length).allSatisfy { $0 == UInt8(ascii: "x") })
    }

    @Test func stringLengthCountsUTF8Bytes() throws {
        // 16 Cyrillic letters are 32 UTF-8 bytes: str8, not fixstr.
        #expect(hex(try encoded(.string(String(repeating: "ё", count: 15))).prefix(1)) == "be")
        #expect(hex(try encoded(.string(String(repeating: "ё", count: 16))).prefix(2)) == "d9 20")
        #expect(hex(try encoded("😀")) == "a4 f0 9f 98 80")
    }

    @Test(arguments: [
        (0, "c4 00"), (1, "c4 01"), (255, "c4 ff"),
        (256, "c5 01 00"), (65535, "c5 ff ff"),
        (65536, "c6 00 01 00 00"),
    ])
    func binaryHeaders(length: Int, header: String) throws {
        let data = MessagePackSamples.patternBytes(length)
        let bytes = try encoded(.binary(data))
        let headerBytes = fromHex(header)
        #expect(hex(bytes.prefix(headerBytes.count)) == header)
        #expect(Array(bytes.dropFirst(headerBytes.count)) == data)
    }

    @Test(arguments: [
        (0, "90"), (1, "91"), (15, "9f"),
        (16, "dc 00 10"), (65535, "dc ff ff"),
        (65536, "dd 00 01 00 00"),
    ])
    func arrayHeaders(count: Int, header: String) throws {
        let bytes = try encoded(.array(Array(repeating: .nil, count: count)))
        let headerBytes = fromHex(header)
        #expect(hex(bytes.prefix(headerBytes.count)) == header)
        #expect(bytes.count == headerBytes.count + count)
    }

    @Test(arguments: [
        (0, "80"), (1, "81"), (15, "8f"),
        (16, "de 00 10"), (65535, "de ff ff"),
        (65536, "df 00 01 00 00"),
    ])
    func mapHeaders(count: Int, header: String) throws {
        let bytes = try encoded(.map(Array(repeating: (key: .nil, value: .nil), count: count)))
        let headerBytes = fromHex(header)
        #expect(hex(bytes.prefix(headerBytes.count)) == header)
        #expect(bytes.count == headerBytes.count + 2 * count)
    }

    @Test(arguments: [
        (0, "c7 00 05"), (1, "d4 05"), (2, "d5 05"), (3, "c7 03 05"), (4, "d6 05"),
        (5, "c7 05 05"), (8, "d7 05"), (9, "c7 09 05"), (16, "d8 05"), (17, "c7 11 05"),
        (255, "c7 ff 05"), (256, "c8 01 00 05"), (65535, "c8 ff ff 05"),
        (65536, "c9 00 01 00 00 05"),
    ])
    func extensionHeaders(length: Int, header: String) throws {
        let data = MessagePackSamples.patternBytes(length)
        let bytes = try encoded(.extension(type: 5, data: data))
        let headerBytes = fromHex(header)
        #expect(hex(bytes.prefix(headerBytes.count)) == header)
        #expect(Array(bytes.dropFirst(headerBytes.count)) == data)
    }

    @Test func extensionTypeIsASignedByte() throws {
        #expect(hex(try encoded(.extension(type: -128, data: [1]))) == "d4 80 01")
        #expect(hex(try encoded(.extension(type: 127, data: [1]))) == "d4 7f 01")
    }

    @Test func headersForBodiesWrittenRaw() throws {
        var writer = MessagePackWriter()
        try writer.writeStringHeader(count: 3)
        writer.writeRaw("abc".utf8)
        try writer.writeBinaryHeader(count: 2)
        writer.writeRaw([9, 8])
        #expect(hex(writer.bytes) == "a3 61 62 63 c4 02 09 08")
    }

    @Test func lengthsOver32BitsAreRejected() {
        var writer = MessagePackWriter()
        let error = #expect(throws: MessagePackError.self) { try writer.writeArrayHeader(count: 1 << 32) }
        #expect(error?.code == .valueTooLarge)
        #expect(throws: MessagePackError.self) { try writer.writeMapHeader(count: 1 << 32) }
        #expect(throws: MessagePackError.self) { try writer.writeStringHeader(count: 1 << 32) }
        #expect(throws: MessagePackError.self) { try writer.writeBinaryHeader(count: 1 << 32) }
        #expect(writer.bytes.isEmpty, "nothing is written for a rejected header")
        var atLimit = MessagePackWriter()
        try? atLimit.writeArrayHeader(count: (1 << 32) - 1)
        #expect(hex(atLimit.bytes) == "dd ff ff ff ff")
    }
}
