import LowbandLZ4
import LowbandTestSupport
import LowbandWire
import NIOCore
import NIOEmbedded
import Testing

/// Each kind of bad stream is a typed error, and the connection closes.
@Suite struct BadInputTests {
    /// Records the error the decoder raised, then lets NIO's handler close the channel.
    final class ErrorRecorder: ChannelInboundHandler {
        typealias InboundIn = Frame
        var frames: [Frame] = []
        var errors: [any Error] = []
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            frames.append(unwrapInboundIn(data))
        }
        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            errors.append(error)
            context.fireErrorCaught(error)
        }
    }

    private func run(_ bytes: [UInt8], configuration: FrameConfiguration = FrameConfiguration(), endStream: Bool = false) throws -> (WireError?, [Frame], Bool) {
        let channel = EmbeddedChannel()
        let recorder = ErrorRecorder()
        try channel.pipeline.syncOperations.addFrameCodec(configuration: configuration)
        try channel.pipeline.syncOperations.addHandler(recorder)
        try channel.pipeline.syncOperations.addHandler(NIOCloseOnErrorHandler())
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        // The error also reaches the channel's tail, where EmbeddedChannel rethrows it; the
        // recorder has it already, so the rethrow is not looked at here.
        _ = try? channel.writeInbound(ByteBuffer(bytes: bytes))
        if endStream, channel.isActive {
            channel.pipeline.fireChannelInactive()
        }
        var error: WireError?
        if let first = recorder.errors.first {
            error = first as? WireError
            if error == nil { Issue.record("untyped error: \(first)") }
        }
        return (error, recorder.frames, channel.isActive)
    }

    private func header(version: UInt8 = FrameHeader.currentVersion, flags: UInt8 = 0, command: UInt16 = 1, sequence: UInt32 = 1, length: UInt32) -> [UInt8] {
        var buffer = ByteBuffer()
        buffer.writeInteger(version)
        buffer.writeInteger(flags)
        buffer.writeInteger(command)
        buffer.writeInteger(sequence)
        buffer.writeInteger(length)
        return Array(buffer.readableBytesView)
    }

    private func goodFrame() throws -> [UInt8] {
        Array(try FrameEncoder().bytes(of: Frame.request(Ping(clientTime: 1), sequence: 1)).readableBytesView)
    }

    @Test func unknownVersion() throws {
        let (error, frames, open) = try run(try goodFrame() + header(version: 3, length: 0))
        #expect(error?.code == .unsupportedVersion)
        #expect(error?.streamOffset == (try goodFrame()).count, "names where the bad frame starts")
        #expect(frames.count == 1, "the good frame before it was delivered")
        #expect(!open)
    }

    @Test func reservedFlagBits() throws {
        let (error, _, open) = try run(header(flags: 0x10, length: 0))
        #expect(error?.code == .invalidFlags)
        #expect(!open)
    }

    @Test func contradictoryFlags() throws {
        #expect(try run(header(flags: 0x05, length: 0)).0?.code == .invalidFlags, "push + response")
        #expect(try run(header(flags: 0x02, length: 0)).0?.code == .invalidFlags, "error without response")
        #expect(try run(header(flags: 0x04, command: 0x0001, length: 0)).0?.code == .invalidFlags, "push flag on a request command")
        #expect(try run(header(flags: 0x00, command: 0x0101, length: 0)).0?.code == .invalidFlags, "push command without push flag")
    }

    @Test func unknownCommand() throws {
        let (error, _, open) = try run(header(command: 0x0999, length: 0))
        #expect(error?.code == .unknownCommand)
        #expect(error?.message.contains("0x999") == true)
        #expect(!open)
    }

    @Test func lengthOverTheMaximumIsRejectedFromTheHeaderAlone() throws {
        // Only the header arrives: the decoder must not wait for (or buffer) 4 GiB.
        let (error, _, open) = try run(header(length: UInt32.max))
        #expect(error?.code == .frameTooLarge)
        #expect(!open)
        let small = FrameConfiguration(maximumPayloadLength: 100)
        #expect(try run(header(length: 101), configuration: small).0?.code == .frameTooLarge)
        #expect(try run(header(length: 100) + [UInt8](repeating: 0xc0, count: 100), configuration: small).0 == nil)
    }

    @Test func compressedSizeOverTheMaximumIsRejectedBeforeDecompressing() throws {
        let body: [UInt8] = [0xff, 0xff, 0xff, 0xff, 0x00]
        let (error, _, open) = try run(header(flags: 0x08, length: UInt32(body.count)) + body)
        #expect(error?.code == .decompressedTooLarge)
        #expect(!open)
    }

    @Test func compressedPayloadThatDoesNotDecompress() throws {
        let garbage: [UInt8] = [0x00, 0x00, 0x01, 0x00] + [0xf0, 0xff, 0xff, 0xff, 0x13, 0x37]
        let (error, _, open) = try run(header(flags: 0x08, length: UInt32(garbage.count)) + garbage)
        #expect(error?.code == .decompressionFailed)
        #expect(!open)
    }

    @Test func compressedPayloadWithTheWrongDeclaredSize() throws {
        let original = [UInt8](repeating: 0x41, count: 1_000)
        let block = try LZ4Block.compress(original)
        var body = ByteBuffer()
        body.writeInteger(UInt32(999))
        body.writeBytes(block)
        let (error, _, _) = try run(header(flags: 0x08, length: UInt32(body.readableBytes)) + Array(body.readableBytesView))
        #expect(error?.code == .decompressionFailed)
        let tooShort: [UInt8] = [0x00, 0x01]
        #expect(try run(header(flags: 0x08, length: 2) + tooShort).0?.code == .decompressionFailed)
    }

    @Test func streamThatEndsInsideAFrame() throws {
        let frame = try goodFrame()
        for cut in 1 ..< frame.count {
            let (error, frames, open) = try run(frame + Array(frame[..<cut]), endStream: true)
            #expect(error?.code == .truncatedStream, "cut at \(cut)")
            #expect(error?.streamOffset == frame.count)
            #expect(frames.count == 1)
            #expect(!open)
        }
    }

    @Test func cleanEndOfStreamIsNotAnError() throws {
        let (error, frames, _) = try run(try goodFrame() + goodFrame(), endStream: true)
        #expect(error == nil)
        #expect(frames.count == 2)
    }
}
