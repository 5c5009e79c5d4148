import LowbandMessagePack
import Testing

/// Integers that do not fit the type decoded into fail with the coding path and the offset.
@Suite struct IntegerOverflowTests {
    struct Counters: Decodable {
        var small: UInt8?
        var unsigned: UInt32?
        var signed: Int64?
        var tiny: Int8?
    }

    struct Inbox: Decodable {
        struct Chat: Decodable { var unread: UInt8 }
        var chats: [Chat]
    }

    @Test(arguments: [
        // {"small": 300}: the integer starts at byte 7.
        ("81 a5 73 6d 61 6c 6c cd 01 2c", "integer 300 does not fit UInt8", "small", 7),
        // {"unsigned": -1}
        ("81 a8 75 6e 73 69 67 6e 65 64 ff", "integer -1 does not fit UInt32", "unsigned", 10),
        // {"signed": UInt64.max}
        ("81 a6 73 69 67 6e 65 64 cf ff ff ff ff ff ff ff ff", "integer 18446744073709551615 does not fit Int64", "signed", 8),
        // {"tiny": -129}
        ("81 a4 74 69 6e 79 d1 ff 7f", "integer -129 does not fit Int8", "tiny", 6),
    ])
    func fieldOverflow(input: String, message: String, path: String, offset: Int) {
        let error = #expect(throws: MessagePackError.self) { try MessagePackDecoder().decode(Counters.self, from: fromHex(input)) }
        #expect(error?.code == .integerOverflow)
        #expect(error?.message == message)
        #expect(error?.path == path)
        #expect(error?.offset == offset)
        #expect(error?.description == "\(message) at \(path) (byte offset \(offset))")
    }

    @Test func pathThroughArraysAndNestedStructs() {
        // {"chats": [{"unread": 1}, {"unread": 2}, {"unread": 300}]}
        let input = fromHex("81 a5 63 68 61 74 73 93 81 a6 75 6e 72 65 61 64 01 81 a6 75 6e 72 65 61 64 02 81 a6 75 6e 72 65 61 64 cd 01 2c")
        let error = #expect(throws: MessagePackError.self) { try MessagePackDecoder().decode(Inbox.self, from: input) }
        #expect(error?.code == .integerOverflow)
        #expect(error?.description == "integer 300 does not fit UInt8 at chats[2].unread (byte offset 34)")
    }

    @Test func pathOfArrayElementsAndTopLevelValues() {
        let elements = #expect(throws: MessagePackError.self) { try MessagePackDecoder().decode([UInt8].self, from: fromHex("92 01 cd 01 2c")) }
        #expect(elements?.code == .integerOverflow)
        #expect(elements?.path == "[1]")
        #expect(elements?.offset == 2)
        let top = #expect(throws: MessagePackError.self) { try MessagePackDecoder().decode(UInt32.self, from: fromHex("ff")) }
        #expect(top?.code == .integerOverflow)
        #expect(top?.offset == 0)
        #expect(top?.description == "integer -1 does not fit UInt32 at the top-level value (byte offset 0)")
    }

    @Test(arguments: [
        ("cc ff", "UInt8", true), ("cd 01 00", "UInt8", false),
        ("7f", "Int8", true), ("cc 80", "Int8", false), ("d0 80", "Int8", true), ("d1 ff 7f", "Int8", false),
        ("cd ff ff", "UInt16", true), ("ce 00 01 00 00", "UInt16", false),
        ("cd 7f ff", "Int16", true), ("cd 80 00", "Int16", false), ("d1 80 00", "Int16", true), ("d2 ff ff 7f ff", "Int16", false),
        ("ce ff ff ff ff", "UInt32", true), ("cf 00 00 00 01 00 00 00 00", "UInt32", false), ("e0", "UInt32", false),
        ("ce 7f ff ff ff", "Int32", true), ("ce 80 00 00 00", "Int32", false), ("d2 80 00 00 00", "Int32", true),
        ("d3 ff ff ff ff 7f ff ff ff", "Int32", false),
        ("cf ff ff ff ff ff ff ff ff", "UInt64", true), ("d0 ff", "UInt64", false),
        ("cf 7f ff ff ff ff ff ff ff", "Int64", true), ("cf 80 00 00 00 00 00 00 00", "Int64", false), ("d3 80 00 00 00 00 00 00 00", "Int64", true),
    ])
    func readerChecksEveryWidth(input: String, typeName: String, fits: Bool) throws {
        let types: [String: any FixedWidthInteger.Type] = [
            "Int8": Int8.self, "Int16": Int16.self, "Int32": Int32.self, "Int64": Int64.self,
            "UInt8": UInt8.self, "UInt16": UInt16.self, "UInt32": UInt32.self, "UInt64": UInt64.self,
        ]
        let type = try #require(types[typeName])
        func read<T: FixedWidthInteger>(_: T.Type) throws {
            var reader = MessagePackReader(fromHex(input))
            do {
                _ = try reader.readInteger(T.self)
            } catch {
                #expect(reader.offset == 0, "a failed read leaves the reader at the integer")
                throw error
            }
        }
        if fits {
            #expect(throws: Never.self) { try read(type) }
        } else {
            let error = #expect(throws: MessagePackError.self) { try read(type) }
            #expect(error?.code == .integerOverflow)
            #expect(error?.offset == 0)
            #expect(error?.message.hasSuffix("does not fit \(typeName)") == true)
        }
    }
}
