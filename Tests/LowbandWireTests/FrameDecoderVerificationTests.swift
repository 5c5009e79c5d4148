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

    /// What the decoder yields for `frame`: the same frame, with `.compressed` if it was.
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
        try RecordedStreams.recordIfAsked("session-v1.bin", stream)
        let capture = try RecordedStreams.load("session-v1.bin")
        #expect(stream == capture, "the wire format or the fixtures changed; if on purpose, bump the protocol version or re-record (see RecordedStreams)")
    }
}
