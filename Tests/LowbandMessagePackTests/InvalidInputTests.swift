import Foundation
import LowbandMessagePack
import Testing

/// Lengths larger than the input and the unassigned byte 0xc1 fail with the offset of the culprit.
@Suite struct InvalidInputTests {
    @Test(arguments: [
        // array32 / map32 claiming 2^32 - 1 elements in 10 bytes.
        ("dd ff ff ff ff 00 00 00 00 00", 0),
        ("df ff ff ff ff 00 00 00 00 00", 0),
        // str32 / bin32 / ext32 claiming 2^32 - 1 bytes.
        ("db ff ff ff ff 61 62 63 64 65", 0),
        ("c6 ff ff ff ff 61 62 63 64 65", 0),
        ("c9 ff ff ff ff 05 62 63 64 65", 0),
        // The same nested after other values.
        ("93 01 a1 78 dd ff ff ff ff 00", 4),
        ("82 a1 6b dc ff ff 00 00", 3),
        ("81 a1 6b d9 05 61 62", 3),
        ("92 c0 c4 03 01 02", 2),
        ("91 d8 05 00 00 00", 1),
        ("91 c7 03 05 00", 1),
        // A fixarray claiming more elements than bytes remain.
        ("9f 01 02", 0),
        ("8f 01 02", 0),
        // A map needs two bytes per entry: 2 entries cannot fit in 3 bytes.
        ("82 01 02 03", 0),
    ])
    func lengthLargerThanTheInput(input: String, offset: Int) {
        let bytes = fromHex(input)
        let error = #expect(throws: MessagePackError.self) { try MessagePackValue(decoding: bytes) }
        #expect(error?.code == .lengthExceedsInput)
        #expect(error?.offset == offset)

        var skipper = MessagePackReader(bytes)
        let skipError = #expect(throws: MessagePackError.self) { try skipper.skipValue() }
        #expect(skipError?.code == .lengthExceedsInput)

        let codable = #expect(throws: MessagePackError.self) { try MessagePackDecoder().decode(Anything.self, from: bytes) }
        #expect(codable?.code == .lengthExceedsInput)
        #expect(codable?.offset == offset)
    }

    @Test func headersAloneAreCheckedAgainstTheInput() {
        var reader = MessagePackReader(fromHex("dd ff ff ff ff 00 00 00 00 00"))
        let error = #expect(throws: MessagePackError.self) { try reader.readArrayHeader() }
        #expect(error?.code == .lengthExceedsInput)
        #expect(error?.message == "array of 4294967295 elements cannot fit in the 5 bytes that remain")
        #expect(reader.offset == 0)
        var strings = MessagePackReader(fromHex("db ff ff ff ff 61"))
        let stringError = #expect(throws: MessagePackError.self) { try strings.readStringBytes() }
        #expect(stringError?.code == .lengthExceedsInput)
        #expect(strings.offset == 0)
    }

    @Test func skipValueCountsPendingElementsAgainstTheInput() {
        // Each of 15 elements is a 15-element array: the header fits, the promised elements do not.
        var reader = MessagePackReader(fromHex("9f 9f 9f 9f 9f 9f 9f 9f 9f 9f 9f 9f 9f 9f 9f 9f"))
        let error = #expect(throws: MessagePackError.self) { try reader.skipValue() }
        #expect(error?.code == .lengthExceedsInput)
    }

    @Test(arguments: [
        ("c1", 0), ("92 01 c1", 2), ("81 c1 01", 1), ("81 a1 6b c1", 3), ("93 90 80 c1", 3),
    ])
    func byteC1IsNeverAValue(input: String, offset: Int) throws {
        let bytes = fromHex(input)
        let error = #expect(throws: MessagePackError.self) { try MessagePackValue(decoding: bytes) }
        #expect(error?.code == .invalidByte)
        #expect(error?.offset == offset)
        var skipper = MessagePackReader(bytes)
        let skipError = #expect(throws: MessagePackError.self) { try skipper.skipValue() }
        #expect(skipError?.code == .invalidByte)
        #expect(skipError?.offset == offset)
        let codable = #expect(throws: MessagePackError.self) { try MessagePackDecoder().decode(Anything.self, from: bytes) }
        #expect(codable?.code == .invalidByte)
        #expect(codable?.offset == offset)
    }

    @Test func peekingAtC1FailsForEveryReadingFunction() {
        var reader = MessagePackReader([0xc1])
        #expect((try? reader.peekKind()) == nil)
        #expect(throws: MessagePackError.self) { try reader.readNilIfPresent() }
        #expect(throws: MessagePackError.self) { try reader.readInt64() }
        #expect(throws: MessagePackError.self) { try reader.readDouble() }
        #expect(throws: MessagePackError.self) { try reader.readString() }
        #expect(throws: MessagePackError.self) { try reader.readArrayHeader() }
        #expect(reader.offset == 0)
    }

    @Test func byteC1InsideDataIsJustData() throws {
        // As a length, an integer's payload or a bin's content, 0xc1 is an ordinary byte.
        #expect(try MessagePackValue(decoding: fromHex("cc c1")) == 193)
        #expect(try MessagePackValue(decoding: fromHex("c4 01 c1")) == .binary([0xc1]))
        #expect(try MessagePackValue(decoding: fromHex("d4 05 c1")) == .extension(type: 5, data: [0xc1]))
        #expect(try MessagePackValue(decoding: [0xd9, 0xc1] + [UInt8](repeating: 0x61, count: 0xc1)) == .string(String(repeating: "a", count: 193)))
        // In a str it is invalid UTF-8, which readStringBytes still hands over.
        var reader = MessagePackReader(fromHex("a1 c1"))
        #expect(Array(try reader.readStringBytes()) == [0xc1])
    }
}

/// Decodes whatever value comes through the Codable containers, as a schema-less model would.
///
/// Each container kind is tried in turn; only a type mismatch moves on to the next, so any
/// other error (length, truncation, invalid byte) comes out as the decoder reported it.
struct Anything: Decodable {
    init(from decoder: any Decoder) throws {
        if let keyed = try Self.ifMatching({ try decoder.container(keyedBy: AnyKey.self) }) {
            for key in keyed.allKeys {
                _ = try keyed.decode(Anything.self, forKey: key)
            }
            return
        }
        if var unkeyed = try Self.ifMatching({ try decoder.unkeyedContainer() }) {
            while !unkeyed.isAtEnd {
                _ = try unkeyed.decode(Anything.self)
            }
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { return }
        if try Self.ifMatching({ try single.decode(Bool.self) }) != nil { return }
        if try Self.ifMatching({ try single.decode(Int64.self) }) != nil { return }
        if try Self.ifMatching({ try single.decode(UInt64.self) }) != nil { return }
        if try Self.ifMatching({ try single.decode(Double.self) }) != nil { return }
        if try Self.ifMatching({ try single.decode(String.self) }) != nil { return }
        if try Self.ifMatching({ try single.decode(Data.self) }) != nil { return }
        _ = try single.decode(MessagePackTimestamp.self)
    }

    /// The result, or nil when the value has another type than the one asked for.
    private static func ifMatching<T>(_ body: () throws -> T) throws -> T? {
        do {
            return try body()
        } catch let error as MessagePackError where error.code == .typeMismatch {
            return nil
        }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init(intValue: Int) {
            stringValue = String(intValue)
            self.intValue = intValue
        }
    }
}
