import Foundation
import LowbandFixtures
import LowbandLZ4
import LowbandMessagePack
import LowbandTransport
import LowbandTransportSockets
import LowbandWire
import NIOCore
import NIOPosix

/// Runs the round trip: fixture → codecs → frame → loopback server → client → decoded reply.
struct RoundTrip {
    var seed: UInt64
    var chats: Int
    var contacts: Int
    var repetitions: Int

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func run() async throws -> RoundTripReport {
        var fixtures = MessengerFixtures(seed: seed)
        let reply = fixtures.loginReply(chats: chats, contacts: contacts)
        let payload = try reply.messagePackBytes()
        let jsonEncoder = JSONEncoder()
        jsonEncoder.outputFormatting = [.sortedKeys]
        let json = try jsonEncoder.encode(reply)
        let lz4 = try LZ4Block.compress(payload)
        let frame = try FrameEncoder().bytes(of: Frame(flags: .response, command: .login, sequence: 1, payload: payload))

        let timings = try CodecTimings.measure(reply, repetitions: repetitions)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let result = try await exchange(payload: payload, expected: reply, group: group)
            try await group.shutdownGracefully()
            return RoundTripReport(
                seed: seed, chats: chats, contacts: contacts, jsonBytes: json.count,
                messagePackBytes: payload.count, lz4Bytes: lz4.count, frameBytes: frame.readableBytes,
                socketBytesReceived: result.received, socketBytesSent: result.sent, repetitions: repetitions,
                roundTripMicroseconds: result.durations, matches: result.matches, codec: timings
            )
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private struct Exchange {
        var received: Int
        var sent: Int
        var durations: [Double]
        var matches: Bool
    }

    private func exchange(payload: [UInt8], expected: LoginReply, group: MultiThreadedEventLoopGroup) async throws -> Exchange {
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addFrameCodec()
                    try channel.pipeline.syncOperations.addHandler(LoginResponder(replyPayload: payload))
                    try channel.pipeline.syncOperations.addHandler(NIOCloseOnErrorHandler())
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        defer { server.close(promise: nil) }
        guard let port = server.localAddress?.port else { throw Failure(description: "the loopback server has no port") }

        let client = try await ClientBootstrap(group: group).connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                let counter = SocketByteCounter()
                try channel.pipeline.syncOperations.addHandler(counter)
                try channel.pipeline.syncOperations.addFrameCodec()
                let asyncChannel = try NIOAsyncChannel<Frame, Frame>(wrappingChannelSynchronously: channel)
                return (asyncChannel, NIOLoopBound(counter, eventLoop: channel.eventLoop))
            }
        }
        let (channel, counter) = client
        let clock = ContinuousClock()
        var durations: [Double] = []
        var matches = true
        try await channel.executeThenClose { inbound, outbound in
            var responses = inbound.makeAsyncIterator()
            for sequence in 1 ... UInt32(repetitions) {
                let started = clock.now
                try await outbound.write(Frame.request(LoginRequest(token: "roundtrip-token", lastSync: 0), sequence: sequence))
                guard let response = try await responses.next() else {
                    throw Failure(description: "the server closed the connection before reply \(sequence)")
                }
                let decoded = try response.decode(LoginReply.self)
                let elapsed = started.duration(to: clock.now)
                durations.append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
                matches = matches && response.sequence == sequence && decoded == expected
            }
        }
        let counts = try await channel.channel.eventLoop.submit { (counter.value.read, counter.value.written) }.get()
        return Exchange(received: counts.0, sent: counts.1, durations: durations, matches: matches)
    }
}
