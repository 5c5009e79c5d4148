import LowbandLZ4
import LowbandTestSupport
import Testing

/// Frames written and read by this library: streaming and one-shot, over many chunkings.
@Suite struct LZ4FrameTests {
    static let configurations: [LZ4FrameConfiguration] = [
        LZ4FrameConfiguration(),
        LZ4FrameConfiguration(level: .fast(acceleration: 8), blockSize: .max64KB),
        LZ4FrameConfiguration(level: .high(level: 9), blockSize: .max256KB, independentBlocks: false),
        LZ4FrameConfiguration(blockSize: .max1MB, contentChecksum: false, blockChecksum: true),
        LZ4FrameConfiguration(level: .high(level: 3), blockSize: .max64KB, contentChecksum: false, independentBlocks: false),
    ]

    /// Compresses `input` with a streaming compressor, fed in pieces of `chunkSizes`.
    static func streamCompress(_ input: [UInt8], _ configuration: LZ4FrameConfiguration, chunkSizes: [Int]) throws -> [UInt8] {
        let compressor = try LZ4FrameCompressor(configuration: configuration)
        var frame: [UInt8] = []
        for chunk in input.chunked(chunkSizes) {
            frame += try compressor.compress(chunk)
        }
        frame += try compressor.finish()
        return frame
    }

    /// Decompresses `frame` with a streaming decompressor, fed in pieces of `chunkSizes`.
    static func streamDecompress(_ frame: [UInt8], chunkSizes: [Int]) throws -> [UInt8] {
        let decompressor = try LZ4FrameDecompressor()
        var output: [UInt8] = []
        for chunk in frame.chunked(chunkSizes) {
            output += try decompressor.decompress(chunk)
        }
        try decompressor.finish()
        return output
    }

    @Test(arguments: TestData.Kind.allCases, TestData.sizes)
    func oneShotRoundTrips(kind: TestData.Kind, size: Int) throws {
        let input = TestData.bytes(kind, count: size, seed: UInt64(size))
        let frame = try LZ4Frame.compress(input)
        try expectSameBytes(LZ4Frame.decompress(frame, maximumSize: size), input)
    }

    @Test(arguments: TestData.Kind.allCases, configurations.indices)
    func streamingRoundTripsOverManyChunkings(kind: TestData.Kind, configurationIndex: Int) throws {
        let configuration = Self.configurations[configurationIndex]
        for size in [0, 1, 5_000, 300_000, (4 << 20) + 77] {
            let input = TestData.bytes(kind, count: size, seed: UInt64(size))
            let frame = try Self.streamCompress(input, configuration, chunkSizes: [65_536, 1, 7_000, 300_001])
            try expectSameBytes(LZ4Frame.decompress(frame, maximumSize: size), input)
            try expectSameBytes(Self.streamDecompress(frame, chunkSizes: [13, 1, 100_000, 4_099]), input)
        }
    }

    @Test func everyByteBoundaryDecodes() throws {
        let input = TestData.text(count: 3_000)
        let frame = try Self.streamCompress(
            input, LZ4FrameConfiguration(blockSize: .max64KB, blockChecksum: true), chunkSizes: [500]
        )
        try expectSameBytes(Self.streamDecompress(frame, chunkSizes: [1]), input)
        for split in 0...frame.count {
            let decompressor = try LZ4FrameDecompressor()
            var output = try decompressor.decompress(frame[..<split])
            output += try decompressor.decompress(frame[split...])
            try decompressor.finish()
            expectSameBytes(output, input, "split at \(split)")
        }
    }

    @Test func streamingAndOneShotFramesDecodeTheSame() throws {
        let input = TestData.text(count: 1 << 20)
        for level in [LZ4Level.default, .high(level: 10)] {
            let configuration = LZ4FrameConfiguration(level: level)
            let oneShot = try LZ4Frame.compress(input, configuration: configuration)
            let streamed = try Self.streamCompress(input, configuration, chunkSizes: [10_000])
            try expectSameBytes(LZ4Frame.decompress(oneShot, maximumSize: input.count), input)
            try expectSameBytes(LZ4Frame.decompress(streamed, maximumSize: input.count), input)
        }
    }

    @Test func emptyFrameAndEmptyInput() throws {
        let compressor = try LZ4FrameCompressor()
        let frame = try compressor.finish()
        #expect(frame.prefix(4) == [0x04, 0x22, 0x4D, 0x18])
        #expect(try LZ4Frame.decompress(frame, maximumSize: 0) == [])
        #expect(try LZ4Frame.decompress([], maximumSize: 0) == [])
    }

    @Test func compressorStartsANewFrameAfterFinish() throws {
        let compressor = try LZ4FrameCompressor(configuration: .init(blockSize: .max64KB))
        let first = TestData.text(count: 100_000, seed: 1)
        let second = TestData.random(count: 50_000, seed: 2)
        let frames = try compressor.compress(first) + compressor.finish() + compressor.compress(second) + compressor.finish()
        try expectSameBytes(LZ4Frame.decompress(frames, maximumSize: 1 << 20), first + second)
    }

    @Test func flushMakesEverythingSoFarDecodable() throws {
        let compressor = try LZ4FrameCompressor()
        let message = TestData.text(count: 700)
        let bytes = try compressor.compress(message) + compressor.flush()
        let decompressor = try LZ4FrameDecompressor()
        #expect(try decompressor.decompress(bytes) == message)
        expectLZ4Error(.truncatedFrame) { try decompressor.finish() }
        let rest = try compressor.compress(message) + compressor.finish()
        #expect(try decompressor.decompress(rest) == message)
        try decompressor.finish()
    }

    @Test func concatenatedAndSkippableFramesDecode() throws {
        let first = TestData.text(count: 10_000, seed: 1)
        let second = TestData.text(count: 20_000, seed: 2)
        let skippable: [UInt8] = [0x5A, 0x2A, 0x4D, 0x18, 5, 0, 0, 0, 1, 2, 3, 4, 5]
        let emptySkippable: [UInt8] = [0x50, 0x2A, 0x4D, 0x18, 0, 0, 0, 0]
        let stream = try skippable + LZ4Frame.compress(first) + emptySkippable + LZ4Frame.compress(second) + skippable
        try expectSameBytes(LZ4Frame.decompress(stream, maximumSize: 1 << 20), first + second)
        try expectSameBytes(Self.streamDecompress(stream, chunkSizes: [3, 1, 17]), first + second)
    }

    @Test func outputComesInBoundedPieces() throws {
        let input = [UInt8](repeating: 0x61, count: 8 << 20)
        let frame = try LZ4Frame.compress(input)
        #expect(frame.count < 64 * 1024)
        let decompressor = try LZ4FrameDecompressor(outputPieceSize: 16 * 1024)
        var total = 0
        var largest = 0
        var pieces = 0
        try frame.withUnsafeBytes { chunk in
            try decompressor.decompress(chunk) { piece in
                total += piece.count
                largest = max(largest, piece.count)
                pieces += 1
                #expect(piece.allSatisfy { $0 == 0x61 })
            }
        }
        try decompressor.finish()
        #expect(total == input.count)
        #expect(largest == 16 * 1024)
        #expect(pieces == input.count / (16 * 1024))
        #expect(decompressor.inputOffset == frame.count)
    }

    @Test func sinkErrorsPropagate() throws {
        struct Stop: Error {}
        let frame = try LZ4Frame.compress(TestData.text(count: 1_000))
        let decompressor = try LZ4FrameDecompressor()
        #expect(throws: Stop.self) {
            try frame.withUnsafeBytes { chunk in try decompressor.decompress(chunk) { _ in throw Stop() } }
        }
        // The frame was cut short by the sink, so the decompressor refuses to continue.
        expectLZ4Error(.frame) { try decompressor.decompress([0]) }
        expectLZ4Error(.frame) { try decompressor.finish() }
    }
}
