import LowbandDeterminism
import LowbandLZ4
import LowbandTestSupport
import Testing

@Suite struct LZ4FrameErrorTests {
    static let input = TestData.text(count: 200_000)

    @Test func everyTruncationIsATruncatedFrameError() throws {
        let small = try LZ4Frame.compress(TestData.text(count: 300), configuration: .init(blockChecksum: true))
        for length in 1..<small.count {
            let error = expectLZ4Error(.truncatedFrame) { try LZ4Frame.decompress(Array(small[..<length]), maximumSize: 1_000) }
            #expect(error?.inputOffset == length)
        }
        let large = try LZ4Frame.compress(Self.input, configuration: .init(blockSize: .max64KB))
        for length in stride(from: 1, to: large.count, by: 997) {
            expectLZ4Error(.truncatedFrame) {
                try LZ4FrameTests.streamDecompress(Array(large[..<length]), chunkSizes: [4_096])
            }
        }
    }

    @Test func truncationMessageSaysWhereTheFrameStarted() throws {
        let frame = try LZ4Frame.compress(Self.input)
        let stream = frame + frame.prefix(40)
        let error = expectLZ4Error(.truncatedFrame) { try LZ4Frame.decompress(stream, maximumSize: 1 << 20) }
        #expect(error?.inputOffset == stream.count)
        #expect(error?.message.hasPrefix("input ended inside the LZ4 frame that starts at byte \(frame.count) (at least ") == true)
        let magicOnly = expectLZ4Error(.truncatedFrame) { try LZ4Frame.decompress(frame + [0x04, 0x22], maximumSize: 1 << 20) }
        #expect(magicOnly?.description == "input ended after 2 of the 4 bytes of a frame's magic number at input byte \(frame.count + 2)")
    }

    @Test func outputAboveTheLimitStopsDecompression() throws {
        let frame = try LZ4Frame.compress(Self.input)
        try expectSameBytes(LZ4Frame.decompress(frame, maximumSize: Self.input.count), Self.input)
        let error = expectLZ4Error(.sizeLimitExceeded) { try LZ4Frame.decompress(frame, maximumSize: Self.input.count - 1) }
        #expect(error?.message == "decompressed data exceeds the limit of 199999 bytes")
        // A frame that would expand to 1 GiB is stopped after the first 64 KiB piece.
        let bomb = try LZ4FrameCompressor(configuration: .init(blockSize: .max4MB))
        var bombFrame: [UInt8] = []
        let zeros = [UInt8](repeating: 0, count: 4 << 20)
        for _ in 0..<256 { bombFrame += try bomb.compress(zeros) }
        bombFrame += try bomb.finish()
        #expect(bombFrame.count < 5 << 20)
        expectLZ4Error(.sizeLimitExceeded) { try LZ4Frame.decompress(bombFrame, maximumSize: 1 << 16) }
        expectLZ4Error(.invalidArgument) { try LZ4Frame.decompress(frame, maximumSize: -1) }
    }

    @Test func garbageIsNotAFrame() throws {
        let error = expectLZ4Error(.notAFrame) { try LZ4Frame.decompress(Array("hello world".utf8), maximumSize: 100) }
        #expect(error?.description == "not an LZ4 frame (magic number 0x6C6C6568) at input byte 0")
        let frame = try LZ4Frame.compress(Self.input)
        let trailing = expectLZ4Error(.notAFrame) { try LZ4Frame.decompress(frame + [0, 0, 0, 0, 0], maximumSize: 1 << 20) }
        #expect(trailing?.inputOffset == frame.count)
    }

    @Test func legacyFormatIsRejectedWithAClearMessage() {
        // `echo hi | lz4 -l`
        let legacy: [UInt8] = [0x02, 0x21, 0x4C, 0x18, 0x04, 0x00, 0x00, 0x00, 0x30, 0x68, 0x69, 0x0A]
        let error = expectLZ4Error(.unsupportedFormat) { try LZ4Frame.decompress(legacy, maximumSize: 100) }
        #expect(error?.message.contains("legacy LZ4 format") == true)
        #expect(error?.inputOffset == 0)
    }

    @Test func corruptedChecksumsAreDetected() throws {
        let frame = try LZ4Frame.compress(Self.input, configuration: .init(blockSize: .max64KB, blockChecksum: true))
        var badContentChecksum = frame
        badContentChecksum[frame.count - 1] ^= 0x01
        let content = expectLZ4Error(.checksumMismatch) { try LZ4Frame.decompress(badContentChecksum, maximumSize: 1 << 20) }
        #expect(content?.inputOffset == frame.count - 4)

        var badBlock = frame
        badBlock[200] ^= 0x40
        expectLZ4Error(.checksumMismatch) { try LZ4Frame.decompress(badBlock, maximumSize: 1 << 20) }

        var badHeader = frame
        badHeader[4] ^= 0x04  // FLG: content checksum bit, now disagrees with the header checksum
        let header = expectLZ4Error(.corruptInput) { try LZ4Frame.decompress(badHeader, maximumSize: 1 << 20) }
        #expect(header?.message == "frame header checksum does not match")
        #expect(header?.inputOffset == 0)
    }

    @Test func errorsPointAtTheStartOfTheFailingBlock() throws {
        let frame = try LZ4Frame.compress(Self.input, configuration: .init(blockSize: .max64KB, blockChecksum: true))
        // Header: magic, FLG, BD, header checksum. Then blocks: 4-byte size, data, 4-byte checksum.
        let headerSize = 7
        let firstBlockSize = Int(frame[headerSize]) | Int(frame[headerSize + 1]) << 8 | Int(frame[headerSize + 2]) << 16
        let secondBlockData = headerSize + 4 + firstBlockSize + 4 + 4
        var corrupted = frame
        corrupted[secondBlockData + 100] ^= 0x20
        for chunkSize in [1_000_000, 4_096, 777] {
            let error = expectLZ4Error(.checksumMismatch) {
                try LZ4FrameTests.streamDecompress(corrupted, chunkSizes: [chunkSize])
            }
            #expect(error?.inputOffset == secondBlockData, "chunks of \(chunkSize)")
            #expect(error?.description == "block checksum does not match the block at input byte \(secondBlockData)")
        }
    }

    @Test func corruptBlocksWithoutChecksumsFailCleanly() throws {
        let frame = try LZ4Frame.compress(Self.input, configuration: .init(blockSize: .max64KB, contentChecksum: false))
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<300 {
            var mutated = frame
            let index = 7 + Int(generator.next() % UInt64(frame.count - 7))
            mutated[index] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
            do throws(LZ4Error) {
                let output = try LZ4Frame.decompress(mutated, maximumSize: 1 << 20)
                #expect(output.count <= 1 << 20)
            } catch {
                #expect([.corruptInput, .frame, .truncatedFrame, .notAFrame, .sizeLimitExceeded].contains(error.code), "\(error)")
            }
        }
    }

    @Test func mutatedFramesNeverCrashTheStreamingDecoder() throws {
        let frame = try LZ4Frame.compress(TestData.text(count: 20_000), configuration: .init(blockSize: .max64KB, blockChecksum: true))
        var generator = SeededGenerator(seed: 6)
        for _ in 0..<1_000 {
            var mutated = frame
            for _ in 0...(generator.next() % 3) {
                mutated[Int(generator.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            let decompressor = try LZ4FrameDecompressor()
            do throws(LZ4Error) {
                for chunk in mutated.chunked([Int(generator.next() % 5_000) + 1]) {
                    _ = try decompressor.decompress(chunk)
                }
                try decompressor.finish()
            } catch {
                #expect(error.inputOffset != nil)
                // A failed decompressor keeps failing with the same error.
                let again = #expect(throws: LZ4Error.self) { try decompressor.decompress([1, 2, 3]) }
                #expect(again == error)
            }
        }
    }
}
