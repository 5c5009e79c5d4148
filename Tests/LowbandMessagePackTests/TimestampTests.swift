import Foundation
import LowbandMessagePack
import Testing

/// The timestamp extension (type -1) in its 32-, 64- and 96-bit forms.
@Suite struct TimestampTests {
    @Test(arguments: [
        (Int64(0), UInt32(0), "d6 ff 00 00 00 00"),
        (1, 0, "d6 ff 00 00 00 01"),
        (0xFFFF_FFFF, 0, "d6 ff ff ff ff ff"),
        (0x1_0000_0000, 0, "d7 ff 00 00 00 01 00 00 00 00"),
        (0, 1, "d7 ff 00 00 00 04 00 00 00 00"),
        (1, 1, "d7 ff 00 00 00 04 00 00 00 01"),
        (0x3_FFFF_FFFF, 999_999_999, "d7 ff ee 6b 27 ff ff ff ff ff"),
        (0x4_0000_0000, 0, "c7 0c ff 00 00 00 00 00 00 00 04 00 00 00 00"),
        (253_402_300_799, 0, "c7 0c ff 00 00 00 00 00 00 00 3a ff f4 41 7f"),
        (-1, 0, "c7 0c ff 00 00 00 00 ff ff ff ff ff ff ff ff"),
        (-1, 500_000_000, "c7 0c ff 1d cd 65 00 ff ff ff ff ff ff ff ff"),
        (-31_536_000, 0, "c7 0c ff 00 00 00 00 ff ff ff ff fe 1e cc 80"),
        (-62_135_596_800, 999_999_999, "c7 0c ff 3b 9a c9 ff ff ff ff f1 88 6e 09 00"),
        (Int64.min, 0, "c7 0c ff 00 00 00 00 80 00 00 00 00 00 00 00"),
    ])
    func smallestForm(seconds: Int64, nanoseconds: UInt32, expected: String) throws {
        let timestamp = MessagePackTimestamp(seconds: seconds, nanoseconds: nanoseconds)
        var writer = MessagePackWriter()
        writer.write(timestamp)
        #expect(hex(writer.bytes) == expected)
        #expect(timestamp.encodedDataLength == writer.bytes.count - (writer.bytes[0] == 0xc7 ? 3 : 2))
        #expect(hex(timestamp.extensionData) == hex(writer.bytes.suffix(timestamp.encodedDataLength)))

        var reader = MessagePackReader(writer.bytes)
        #expect(try reader.peekKind() == .timestamp)
        #expect(try reader.readTimestamp() == timestamp)
        #expect(reader.isAtEnd)
        #expect(try MessagePackValue(decoding: writer.bytes) == .timestamp(timestamp))
    }

    @Test func longerFormsThanNeededStillDecode() throws {
        // 1 s written in the 64- and 96-bit forms: readers accept any valid form.
        var reader = MessagePackReader(fromHex("d7 ff 00 00 00 00 00 00 00 01 c7 0c ff 00 00 00 00 00 00 00 00 00 00 00 01"))
        #expect(try reader.readTimestamp() == MessagePackTimestamp(seconds: 1))
        #expect(try reader.readTimestamp() == MessagePackTimestamp(seconds: 1))
    }

    @Test(arguments: [
        // 64-bit form with nanoseconds 1_000_000_000 (0x3b9aca00 << 2 in the top 30 bits).
        "d7 ff ee 6b 28 00 00 00 00 00",
        // 96-bit form with nanoseconds 0xffffffff.
        "c7 0c ff ff ff ff ff 00 00 00 00 00 00 00 00",
        // Type -1 with a length that is not 4, 8 or 12.
        "d4 ff 00", "d5 ff 00 00", "d8 ff 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00", "c7 05 ff 00 00 00 00 00", "c7 00 ff",
    ])
    func malformedTimestamps(input: String) throws {
        let input = [0x92, 0xc0] + fromHex(input)
        let error = #expect(throws: MessagePackError.self) { try MessagePackValue(decoding: input) }
        #expect(error?.code == .invalidTimestamp)
        #expect(error?.offset == 2)
    }

    @Test func otherExtensionTypesAreNotTimestamps() throws {
        var reader = MessagePackReader(fromHex("d6 05 00 00 00 00"))
        #expect(try reader.peekKind() == .extension)
        let error = #expect(throws: MessagePackError.self) { try reader.readTimestamp() }
        #expect(error?.code == .typeMismatch)
        #expect(reader.offset == 0, "a failed read leaves the reader where it was")
    }

    @Test func datesBecomeTimestamps() throws {
        let encoder = MessagePackEncoder()
        #expect(hex(try encoder.encode(Date(timeIntervalSince1970: 0))) == "d6 ff 00 00 00 00")
        #expect(hex(try encoder.encode(Date(timeIntervalSince1970: 1.5))) == "d7 ff 77 35 94 00 00 00 00 01")
        #expect(hex(try encoder.encode(Date(timeIntervalSince1970: -0.5))) == "c7 0c ff 1d cd 65 00 ff ff ff ff ff ff ff ff")
    }

    @Test(arguments: [0, 1.5, -0.5, -1, 1_700_000_000.25, -62_135_596_800, 253_402_300_799, 4_294_967_296.5])
    func datesRoundTrip(interval: Double) throws {
        let date = Date(timeIntervalSince1970: interval)
        let bytes = try MessagePackEncoder().encode(date)
        #expect(try MessagePackDecoder().decode(Date.self, from: bytes) == date)
        #expect(try MessagePackDecoder().decode(MessagePackTimestamp.self, from: bytes) == MessagePackTimestamp(
            seconds: Int64(interval.rounded(.down)),
            nanoseconds: UInt32(((interval - interval.rounded(.down)) * 1e9).rounded())
        ))
    }

    @Test(arguments: [Double.infinity, -.infinity, .nan, 1e19, -1e19])
    func datesWithoutATimestampFailToEncode(interval: Double) {
        let error = #expect(throws: MessagePackError.self) { try MessagePackEncoder().encode([Date(timeIntervalSince1970: interval)]) }
        #expect(error?.code == .valueTooLarge)
    }

    @Test func timestampsEncodeAsTheExtensionThroughCodable() throws {
        let timestamp = MessagePackTimestamp(seconds: -1, nanoseconds: 1)
        let bytes = try MessagePackEncoder().encode([timestamp])
        #expect(hex(bytes) == "91 c7 0c ff 00 00 00 01 ff ff ff ff ff ff ff ff")
        #expect(try MessagePackDecoder().decode([MessagePackTimestamp].self, from: bytes) == [timestamp])
    }
}
