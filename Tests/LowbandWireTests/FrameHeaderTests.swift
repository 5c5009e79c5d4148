import LowbandFixtures
import LowbandTestSupport
import LowbandWire
import NIOCore
import Testing

@Suite struct FrameHeaderTests {
    @Test func pingRequestHasTheDocumentedLayout() throws {
        let frame = try Frame.request(Ping(clientTime: 5), sequence: 0x0102_0304)
        let bytes = Array(try FrameEncoder().bytes(of: frame).readableBytesView)
        #expect(bytes == [
            0x02, // version
            0x00, // flags: a request
            0x00, 0x01, // command: ping
            0x01, 0x02, 0x03, 0x04, // sequence
            0x00, 0x00, 0x00, 0x02, // payload length
            0x91, 0x05, // payload: Ping [clientTime 5]
        ])
    }

    @Test func flagBitsAreTheDocumentedOnes() {
        #expect(FrameFlags.response.rawValue == 0x01)
        #expect(FrameFlags.error.rawValue == 0x02)
        #expect(FrameFlags.push.rawValue == 0x04)
        #expect(FrameFlags.compressed.rawValue == 0x08)
        #expect(FrameFlags([.response, .error]).description == "response|error")
    }

    @Test func compressedPayloadCarriesItsUncompressedLength() throws {
        var fixtures = MessengerFixtures(seed: 1)
        let reply = fixtures.loginReply()
        let frame = try Frame.response(reply, sequence: 9)
        var wire = try FrameEncoder().bytes(of: frame)
        #expect(wire.getInteger(at: 1, as: UInt8.self) == FrameFlags([.response, .compressed]).rawValue)
        let wireLength = try #require(wire.getInteger(at: 8, as: UInt32.self))
        #expect(Int(wireLength) == wire.readableBytes - FrameHeader.size)
        #expect(wire.getInteger(at: 12, as: UInt32.self) == UInt32(frame.payload.count))
        // v2 repeats no keys, so less is left to compress than in v1 (which halved): seed 1's
        // 26,261 bytes travel as 13,800.
        #expect(Int(wireLength) * 5 < frame.payload.count * 3, "a login reply compresses to less than 60%")

        var decoder = FrameDecoder()
        let decoded = try #require(try decoder.nextFrame(from: &wire))
        #expect(decoded.frame.payload == frame.payload)
        #expect(decoded.header.flags == [.response, .compressed])
        #expect(decoded.frame.flags == .response, "the application's frame knows nothing of compression")
        #expect(try decoded.frame.decode(LoginReply.self) == reply)
    }

    @Test func unknownCommandsAreNamedByTheirCode() {
        #expect(Command(rawValue: 0x7777).name == "0x7777")
        #expect(Command.pushNewMessage.name == "pushNewMessage")
        #expect(Command.pushNewMessage.isPush && !Command.login.isPush)
    }
}
