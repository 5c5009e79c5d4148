import LowbandMessagePack
import Testing

/// `userInfo` given to the encoder and decoder reaches every value's `encode(to:)` and
/// `init(from:)`, nested ones included, on the streaming and the tree path alike.
@Suite struct UserInfoTests {
    private static let shout = CodingUserInfoKey(rawValue: "test.shout")!

    /// Writes its word in capitals when the coder's userInfo says so.
    private struct Word: Codable, Equatable {
        var text: String

        init(text: String) { self.text = text }

        init(from decoder: any Decoder) throws {
            let stored = try decoder.singleValueContainer().decode(String.self)
            text = decoder.userInfo[UserInfoTests.shout] as? Bool == true ? stored.lowercased() : stored
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(encoder.userInfo[UserInfoTests.shout] as? Bool == true ? text.uppercased() : text)
        }
    }

    /// Writes to its container after a nested one, which only the tree encoder can follow.
    private struct Sentence: Codable, Equatable {
        var words: [Word]

        enum CodingKeys: String, CodingKey { case words, count }

        init(words: [Word]) { self.words = words }

        init(from decoder: any Decoder) throws {
            words = try decoder.container(keyedBy: CodingKeys.self).decode([Word].self, forKey: .words)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var list = container.nestedUnkeyedContainer(forKey: .words)
            try container.encode(words.count, forKey: .count)
            for word in words { try list.encode(word) }
        }
    }

    @Test func userInfoReachesNestedValuesOnBothEncoderPaths() throws {
        let loud = MessagePackEncoder(userInfo: [Self.shout: true])
        #expect(try loud.encode([Word(text: "hi")]) == [0x91, 0xA2, 0x48, 0x49])
        #expect(try MessagePackEncoder().encode([Word(text: "hi")]) == [0x91, 0xA2, 0x68, 0x69])
        let sentence = Sentence(words: [Word(text: "a"), Word(text: "b")])
        let bytes = try loud.encode(sentence)
        #expect(try MessagePackValue(decoding: bytes)["words"] == .array(["A", "B"]))
        #expect(try MessagePackDecoder(userInfo: [Self.shout: true]).decode(Sentence.self, from: bytes) == sentence)
        #expect(try MessagePackDecoder().decode(Sentence.self, from: bytes) != sentence)
    }
}
