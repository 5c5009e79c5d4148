import LowbandFixtures
import LowbandMessagePack
import LowbandServer
import LowbandTestSupport
import LowbandWire
import NIOCore
import NIOPosix
import Testing

/// Version negotiation over the real server: a v1 client is refused with an answer it can read,
/// a v2 client is served.
/// Wall clock (scripts/test.sh runs it alone): runs the server's real timers on the wall clock: a client starved for 30 s by the parallel pass meets the login timeout, which is not what it tests.
@Suite(.tags(.wallClock)) struct WireVersionOverSocketsTests {
    let loop = MultiThreadedEventLoopGroup.singleton.any()

    /// The v1 login request of the committed v1 capture, byte for byte as a v1 client sent it.
    private func version1Login() throws -> [UInt8] {
        let capture = try RecordedStreams.load("session-v1.bin")
        var buffer = ByteBuffer(bytes: capture)
        var reader = FrameDecoder(configuration: FrameConfiguration(acceptedVersions: 1 ... 1))
        _ = try #require(try reader.nextFrame(from: &buffer))
        return Array(capture[..<reader.streamOffset])
    }

    /// Sends `bytes` on a raw connection and returns everything received until the server closes.
    private func exchange(_ bytes: [UInt8], port: Int) async throws -> ByteBuffer {
        let channel = try await ClientBootstrap(group: loop).connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(bytes: bytes))
            var received = ByteBuffer()
            for try await chunk in inbound { received.writeImmutableBuffer(chunk) }
            return received
        }
    }

    @Test func aVersion1ClientIsRefusedInVersion1AndAVersion2ClientIsServed() async throws {
        let world = MessengerWorld(seed: 7)
        let server = try await MessengerSocketServer.start(world: world)
        let request = try version1Login()
        #expect(request[0] == 1)

        var answer = try await exchange(request, port: server.port)
        var v1Reader = FrameDecoder(configuration: FrameConfiguration(acceptedVersions: 1 ... 1))
        let (header, frame) = try #require(try v1Reader.nextFrame(from: &answer))
        #expect(answer.readableBytes == 0, "one frame, then the server closed the connection")
        #expect(header.version == 1)
        #expect(frame.flags == [.response, .error] && frame.command == .login && frame.sequence == 1)
        let reply = try MessagePackDecoder().decode(ErrorReply.self, from: frame.payload)
        #expect(reply.code.rawValue == 426)
        #expect(reply.text.contains("wire version 2"), "\(reply.text)")

        let client = try await LoopClient.connect(port: server.port, loop: loop)
        let login = try await client.call(LoginRequest(token: world.user(1)!.token, lastSync: 0))
        #expect(login.userID == 1)
        try await client.close()
        try await server.stop()
    }
}
