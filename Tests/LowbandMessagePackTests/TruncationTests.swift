import LowbandMessagePack
import LowbandTestSupport
import Testing

/// Every prefix of a value fails with `.truncated` or `.lengthExceedsInput`, reported at the
/// first byte of the value that is cut short, and never crashes.
@Suite struct TruncationTests {
    @Test(arguments: [
        ("", MessagePackError.Code.truncated, 0),
        ("cd 01", .truncated, 0),
        ("92 01 cd 01", .truncated, 2),
        ("91 cf 00 00 00 00 00 00 00", .truncated, 1),
        ("91 ca 00 00", .truncated, 1),
        ("91 cb 00", .truncated, 1),
        ("d9", .truncated, 0),
        ("91 da 00", .truncated, 1),
        ("91 c6 00 00", .truncated, 1),
        ("91 dc 00", .truncated, 1),
        ("91 df 00 00 00", .truncated, 1),
        ("91 c8 00 05", .truncated, 1),
        ("91 c7 03", .truncated, 1),
        ("91 d4", .truncated, 1),
        ("81 a1 6b", .truncated, 3),
        ("d9 05 61", .lengthExceedsInput, 0),
        ("92 c0 a5 61", .lengthExceedsInput, 2),
        ("d6 ff 00", .lengthExceedsInput, 0),
        ("91 c4 02 00", .lengthExceedsInput, 1),
        ("92 01", .lengthExceedsInput, 0),
    ])
    func cutValuesReportTheirFirstByte(input: String, code: MessagePackError.Code, offset: Int) {
        let bytes = fromHex(input)
        let error = #expect(throws: MessagePackError.self) { try MessagePackValue(decoding: bytes) }
        #expect(error?.code == code)
        #expect(error?.offset == offset)
        var skipper = MessagePackReader(bytes)
        let skipError = #expect(throws: MessagePackError.self) { try skipper.skipValue() }
        // Skipping counts the values still owed, so it may see a cut as a length problem first.
        #expect(skipError?.code == .truncated || skipError?.code == .lengthExceedsInput)
        #expect(skipError?.offset == offset)
        let codable = #expect(throws: MessagePackError.self) { try MessagePackDecoder().decode(Anything.self, from: bytes) }
        #expect(codable?.code == code)
        #expect(codable?.offset == offset)
    }

    @Test func failedScalarReadsLeaveTheReaderAtTheValue() {
        for input in ["cd 01", "ca 00", "cb 00", "d9", "c5 00", "dd 00 00", "df", "c9 00 00", "c7 03", "d4"] {
            var reader = MessagePackReader(fromHex(input))
            let error = #expect(throws: MessagePackError.self, "\(input)") {
                switch reader.peekKindOrNil() {
                case .int: _ = try reader.readInt64()
                case .float: _ = try reader.readDouble()
                case .string: _ = try reader.readStringBytes()
                case .binary: _ = try reader.readBinary()
                case .array: _ = try reader.readArrayHeader()
                case .map: _ = try reader.readMapHeader()
                default: _ = try reader.readExtension()
                }
            }
            #expect(error?.code == .truncated, "\(input)")
            #expect(error?.offset == 0, "\(input)")
            #expect(reader.offset == 0, "\(input)")
        }
    }

    @Test func everyPrefixOfAMessengerPayloadFails() throws {
        let bytes = try encoded(MessagePackSamples.messengerSync(chats: 2, messagesPerChat: 12, seed: 11))
        #expect(bytes.count > 2000)
        #expect(try MessagePackValue(decoding: bytes) == MessagePackSamples.messengerSync(chats: 2, messagesPerChat: 12, seed: 11))
        for cut in 0 ..< bytes.count {
            let prefix = Array(bytes[..<cut])
            expectTruncated(cut: cut) { _ = try MessagePackValue(decoding: prefix) }
            expectTruncated(cut: cut) {
                var reader = MessagePackReader(prefix)
                try reader.skipValue()
            }
            expectTruncated(cut: cut) { _ = try MessagePackDecoder().decode(Anything.self, from: prefix) }
        }
    }

    @Test func everyPrefixOfACodableModelFails() throws {
        let bytes = try MessagePackEncoder().encode(CodableRoundTripTests.chat)
        for cut in 0 ..< bytes.count {
            let prefix = Array(bytes[..<cut])
            expectTruncated(cut: cut) { _ = try MessagePackDecoder().decode(CodableRoundTripTests.Chat.self, from: prefix) }
        }
    }

    @Test func everyPrefixOfRandomValuesFails() throws {
        for (index, value) in MessagePackSamples.randomValues(count: 200, seed: 77, options: .init(maxDepth: 3, maxCount: 5, maxLength: 20)).enumerated() {
            let bytes = try encoded(value)
            for cut in 0 ..< bytes.count {
                expectTruncated(cut: cut, "random value \(index)") { _ = try MessagePackValue(decoding: Array(bytes[..<cut])) }
            }
        }
    }

    private func expectTruncated(cut: Int, _ context: String = "", sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("prefix of \(cut) bytes decoded \(context)", sourceLocation: sourceLocation)
        } catch let error as MessagePackError {
            if error.code != .truncated && error.code != .lengthExceedsInput {
                Issue.record("prefix of \(cut) bytes: \(error.code) \(error) \(context)", sourceLocation: sourceLocation)
            }
            if let offset = error.offset, offset >= 0 && offset <= cut {
                return
            }
            Issue.record("prefix of \(cut) bytes: offset \(String(describing: error.offset)) is outside the input \(context)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("prefix of \(cut) bytes: \(error) is not a MessagePackError \(context)", sourceLocation: sourceLocation)
        }
    }
}

extension MessagePackReader {
    /// The kind of the next value, or nil when its first bytes are cut off.
    fileprivate func peekKindOrNil() -> MessagePackKind? {
        try? peekKind()
    }
}
