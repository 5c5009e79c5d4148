import LowbandDeterminism
import LowbandMessagePack
import LowbandTestSupport
import LowbandWire
import NIOCore
import NIOTestUtils
import Testing

@Suite struct FrameDecoderVerificationTests {
    private func encoded(_ frames: [Frame]) throws -> ByteBuffer {
        var stream = ByteBuffer()
        for frame in frames { try FrameEncoder().write(frame, to: &stream) }
        return stream
    }

    /// What the decoder yields for `frame`: the same frame.
    private func received(_ frame: Frame) throws -> Frame {
        var single = try encoded([frame])
        var decoder = FrameDecoder()
        return try #require(try decoder.nextFrame(from: &single)).frame
    }

    @Test func nioVerifierAcceptsTheDecoder() throws {
        let frames = try WireSamples.session()
        let pairs = try frames.map { (try encoded([$0]), [try received($0)]) }
        try ByteToMessageDecoderVerifier.verifyDecoder(inputOutputPairs: pairs) { FrameDecoder() }
        let whole = try encoded(frames)
        try ByteToMessageDecoderVerifier.verifyDecoder(inputOutputPairs: [(whole, try frames.map(received))]) { FrameDecoder() }
    }

    /// Splits `stream` at `cuts` and feeds the pieces through one processor.
    private func decode(_ stream: [UInt8], cuts: [Int]) throws -> [Frame] {
        let processor = NIOSingleStepByteToMessageProcessor(FrameDecoder())
        var frames: [Frame] = []
        var start = 0
        for end in cuts + [stream.count] where end >= start {
            try processor.process(buffer: ByteBuffer(bytes: stream[start ..< end])) { frames.append($0) }
            start = end
        }
        try processor.finishProcessing(seenEOF: true) { frames.append($0) }
        return frames
    }

    @Test func everyTwoWaySplitOfARecordedStreamGivesTheSameFrames() throws {
        let stream = Array(try encoded(WireSamples.session()).readableBytesView)
        let expected = try decode(stream, cuts: [])
        #expect(expected.count == 13)
        for cut in 0 ... stream.count {
            #expect(try decode(stream, cuts: [cut]) == expected, "split at \(cut)")
        }
        #expect(try decode(stream, cuts: Array(0 ..< stream.count)) == expected, "one byte at a time")
    }

    @Test func everyThreeWaySplitOfTheSmallFramesGivesTheSameFrames() throws {
        let small = try WireSamples.session().filter { $0.payload.count < 64 }
        let stream = Array(try encoded(small).readableBytesView)
        let expected = try decode(stream, cuts: [])
        #expect(expected.count == small.count)
        for first in 0 ... stream.count {
            for second in first ... stream.count {
                let frames = try decode(stream, cuts: [first, second])
                if frames != expected {
                    Issue.record("splits at \(first) and \(second) gave other frames")
                    return
                }
            }
        }
    }

    @Test func seededRandomChunkingsOfTheWholeStreamGiveTheSameFrames() throws {
        let stream = Array(try encoded(WireSamples.session()).readableBytesView)
        let expected = try decode(stream, cuts: [])
        var random = SeededGenerator(seed: 99)
        for _ in 0 ..< 300 {
            var cuts: [Int] = []
            var position = 0
            while position < stream.count {
                position += Int.random(in: 1 ... 97, using: &random)
                cuts.append(min(position, stream.count))
            }
            #expect(try decode(stream, cuts: cuts) == expected)
        }
    }

    @Test func recordedStreamMatchesTheCommittedCapture() throws {
        let stream = Array(try encoded(WireSamples.session()).readableBytesView)
        try RecordedStreams.recordIfAsked("session-v2.bin", stream)
        let capture = try RecordedStreams.load("session-v2.bin")
        #expect(stream == capture, "the wire format or the fixtures changed; if on purpose, bump the protocol version or re-record (see RecordedStreams)")
    }

    /// The capture of wire format v1 (committed before v2) holds the same session: a reader told
    /// to accept version 1 finds the same frames, and v1's named layout the same values.
    @Test func theVersion1CaptureHoldsTheSameSession() throws {
        var v1 = ByteBuffer(bytes: try RecordedStreams.load("session-v1.bin"))
        var decoder = FrameDecoder(configuration: FrameConfiguration(acceptedVersions: 1 ... 1))
        var old: [(header: FrameHeader, frame: Frame)] = []
        while let next = try decoder.nextFrame(from: &v1) { old.append(next) }
        #expect(v1.readableBytes == 0)
        let session = try WireSamples.session()
        #expect(old.map(\.header.version) == Array(repeating: 1, count: session.count))
        #expect(old.map(\.frame.command) == session.map(\.command))
        #expect(old.map(\.frame.sequence) == session.map(\.sequence))
        #expect(old.map(\.frame.flags) == session.map(\.flags))
        let v1Layout = MessagePackDecoder()
        #expect(try v1Layout.decode(LoginReply.self, from: old[1].frame.payload) == session[1].decode(LoginReply.self))
        #expect(try v1Layout.decode(NewMessagePush.self, from: old[4].frame.payload) == session[4].decode(NewMessagePush.self))
        #expect(try v1Layout.decode(HistoryReply.self, from: old[5].frame.payload) == session[5].decode(HistoryReply.self))
        #expect(try v1Layout.decode(ErrorReply.self, from: old[8].frame.payload) == session[8].decode(ErrorReply.self))
        #expect(session[1].payload.count < old[1].frame.payload.count, "v2 is the smaller layout")
    }

    @Test func aPeerRefusesTheVersion1CaptureAtItsFirstHeader() throws {
        var v1 = ByteBuffer(bytes: try RecordedStreams.load("session-v1.bin"))
        var decoder = FrameDecoder()
        let error = #expect(throws: WireError.self) { try decoder.nextFrame(from: &v1) }
        #expect(error?.code == .unsupportedVersion)
        #expect(error?.message == "wire version 1 is not supported: this build reads only version 2")
        #expect(error?.streamOffset == 0 && error?.header?.command == .login)
    }
}
