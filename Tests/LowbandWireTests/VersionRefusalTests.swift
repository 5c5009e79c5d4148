import LowbandMessagePack
import LowbandTestSupport
import LowbandWire
import NIOCore
import Testing

/// A version-1 request is answered in version 1's own layout, so the old client can say why.
@Suite struct VersionRefusalTests {
    private let v1Login = FrameHeader(version: 1, flags: [], command: .login, sequence: 77, payloadLength: 40)

    @Test func aVersion1RequestGetsAnErrorReplyAVersion1ReaderUnderstands() throws {
        var answer = try #require(VersionRefusal.frame(answering: v1Login))
        var v1Reader = FrameDecoder(configuration: FrameConfiguration(acceptedVersions: 1 ... 1))
        let (header, frame) = try #require(try v1Reader.nextFrame(from: &answer))
        #expect(answer.readableBytes == 0)
        #expect(header.version == 1)
        #expect(frame.flags == [.response, .error] && frame.command == .login && frame.sequence == 77)
        let reply = try MessagePackDecoder().decode(ErrorReply.self, from: frame.payload)
        #expect(reply.code == VersionRefusal.code && reply.code.rawValue == 426)
        #expect(reply.text.contains("wire version 2"), "\(reply.text)")
        // In v1's layout: a map keyed by name.
        #expect(try MessagePackValue(decoding: frame.payload)["text"] == .string(reply.text))
    }

    @Test func onlyVersion1RequestsAreAnswered() {
        var response = v1Login
        response.flags = .response
        var push = v1Login
        push.flags = .push
        var future = v1Login
        future.version = 3
        #expect(VersionRefusal.frame(answering: response) == nil)
        #expect(VersionRefusal.frame(answering: push) == nil)
        #expect(VersionRefusal.frame(answering: future) == nil)
    }

    /// The other way round: a v2 peer reading a v1 frame (say, an old server's answer) fails
    /// with an error that names both versions.
    @Test func aVersion2ReaderNamesTheVersionItGot() throws {
        var answer = try #require(VersionRefusal.frame(answering: v1Login))
        var reader = FrameDecoder()
        let error = #expect(throws: WireError.self) { try reader.nextFrame(from: &answer) }
        #expect(error?.code == .unsupportedVersion)
        #expect(error?.description == "wire version 1 is not supported: this build reads only version 2 (frame at stream byte offset 0)")
    }
}
