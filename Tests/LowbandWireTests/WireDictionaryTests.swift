import LowbandFixtures
import LowbandTestSupport
import LowbandWire
import NIOCore
import Testing

/// Frames that name a wire dictionary: the header carries its id, the payload shrinks, the
/// decoder restores it, and a frame naming a dictionary the peer lacks is a typed error.
@Suite struct WireDictionaryTests {
    static let dictionary = WireDictionary.messenger1

    /// Pushes of a seed the dictionary was not built from.
    static func pushes(_ count: Int, seed: UInt64 = 7) throws -> [Frame] {
        var fixtures = MessengerFixtures(seed: seed)
        var frames: [Frame] = []
        for index in 0 ..< count {
            let push = fixtures.newMessagePush(chatID: Int64(1 + index % 50), senderID: Int64(2 + index % 7))
            frames.append(try Frame.push(push, sequence: UInt32(index + 1)))
        }
        return frames
    }

    static func named(_ frame: Frame, _ id: WireDictionary.ID? = dictionary.id) -> Frame {
        var frame = frame
        frame.compressionDictionary = id
        return frame
    }

    @Test func aFrameNamingTheDictionaryCarriesItsIDAndRoundTrips() throws {
        let frame = Self.named(try Self.pushes(1)[0])
        var wire = try FrameEncoder().bytes(of: frame)
        // push (0x04) | compressed (0x08), dictionary 1 in the high four bits.
        #expect(wire.getInteger(at: 1, as: UInt8.self) == 0x1C)
        var decoder = FrameDecoder()
        let decoded = try #require(try decoder.nextFrame(from: &wire))
        #expect(decoded.header.dictionary == Self.dictionary.id)
        #expect(decoded.frame == frame, "payload, flags and the dictionary it came with")
    }

    @Test func theDictionaryHalvesAStreamOfPushes() throws {
        let frames = try Self.pushes(1_000)
        let encoder = FrameEncoder()
        var plain = 0
        var named = 0
        var payload = 0
        for frame in frames {
            payload += frame.payload.count
            plain += try encoder.bytes(of: frame).readableBytes
            named += try encoder.bytes(of: Self.named(frame)).readableBytes
        }
        #expect(Double(named) < 0.75 * Double(plain), "\(named) bytes with the dictionary, \(plain) without, \(payload) payload bytes")
    }

    @Test func aPayloadTheDictionaryCannotShrinkGoesAsItIs() throws {
        let frame = Self.named(Frame(flags: .response, command: .ping, sequence: 1, payload: [0x91, 0x05]))
        var wire = try FrameEncoder().bytes(of: frame)
        #expect(wire.getInteger(at: 1, as: UInt8.self) == 0x01, "no dictionary id without compression")
        var decoder = FrameDecoder()
        #expect(try decoder.nextFrame(from: &wire)?.frame.compressionDictionary == nil)
    }

    @Test func theEncoderRefusesADictionaryItDoesNotHave() throws {
        let frame = Self.named(try Self.pushes(1)[0], WireDictionary.ID(rawValue: 9))
        #expect {
            try FrameEncoder().bytes(of: frame)
        } throws: { error in
            let error = error as? WireError
            return error?.code == .unknownDictionary && error?.message.contains("dictionary 9") == true
        }
    }

    @Test func aFrameNamingAnUnknownDictionaryIsRefusedNamingIt() throws {
        var wire = try FrameEncoder().bytes(of: Self.named(try Self.pushes(1)[0]))
        wire.setInteger(UInt8(0x9C), at: wire.readerIndex + 1)
        var decoder = FrameDecoder()
        #expect {
            try decoder.nextFrame(from: &wire)
        } throws: { error in
            let error = error as? WireError
            return error?.code == .unknownDictionary && error?.message.contains("wire dictionary 9") == true
                && error?.message.contains("it has 1") == true && error?.streamOffset == 0
        }
    }

    @Test func aPeerWithoutDictionariesRefusesEveryNamedFrame() throws {
        var wire = try FrameEncoder().bytes(of: Self.named(try Self.pushes(1)[0]))
        var decoder = FrameDecoder(configuration: FrameConfiguration(compression: CompressionPolicy(dictionaries: [])))
        #expect {
            try decoder.nextFrame(from: &wire)
        } throws: { error in
            let error = error as? WireError
            return error?.code == .unknownDictionary && error?.message.contains("it has none") == true
        }
    }

    @Test func aDictionaryIDWithoutCompressionIsContradictoryFlags() throws {
        var wire = try FrameEncoder().bytes(of: Frame(flags: .response, command: .ping, sequence: 1, payload: [0x91, 0x05]))
        wire.setInteger(UInt8(0x11), at: wire.readerIndex + 1)
        var decoder = FrameDecoder()
        #expect {
            try decoder.nextFrame(from: &wire)
        } throws: { error in
            (error as? WireError)?.code == .invalidFlags
        }
    }

    @Test func loginsThatAgreeNoDictionaryAreTheOldLayoutByteForByte() throws {
        // LoginRequest [token, lastSync] and LoginReply [userID, serverTime, contacts, chats]:
        // what every client and server wrote before dictionaries existed.
        #expect(try LoginRequest(token: "t", lastSync: 5).messagePackBytes() == [0x92, 0xA1, 0x74, 0x05])
        #expect(try LoginRequest(messagePackBytes: [0x92, 0xA1, 0x74, 0x05]).compressionDictionaries == [])
        let reply = LoginReply(userID: 1, serverTime: 2, settings: nil, contacts: [], chats: [])
        #expect(try reply.messagePackBytes() == [0x94, 0x01, 0x02, 0x90, 0x90])
        // Offering and agreeing add one trailing field each.
        #expect(try LoginRequest(token: "t", lastSync: 5, compressionDictionaries: [1]).messagePackBytes() == [0x93, 0xA1, 0x74, 0x05, 0x91, 0x01])
        var agreed = reply
        agreed.compressionDictionary = 1
        #expect(try agreed.messagePackBytes() == [0x96, 0x01, 0x02, 0x90, 0x90, 0xC0, 0x01])
        #expect(try LoginReply(messagePackBytes: [0x96, 0x01, 0x02, 0x90, 0x90, 0xC0, 0x01]) == agreed)
    }

    @Test func idsOutsideOneToFifteenAreNoIDs() {
        #expect(WireDictionary.ID(rawValue: 0) == nil)
        #expect(WireDictionary.ID(rawValue: 16) == nil)
        #expect(WireDictionary.ID(wire: -1) == nil)
        #expect(WireDictionary.ID(wire: 1 << 40) == nil)
        #expect(WireDictionary.ID(wire: 15)?.rawValue == 15)
    }
}
