import LowbandDeterminism
import LowbandLZ4
import LowbandTestSupport
import Testing

@Suite struct LZ4BlockErrorTests {
    static let input = TestData.text(count: 20_000)

    @Test func declaredSizeAboveTheLimitIsRejectedBeforeAllocating() throws {
        let compressed = try LZ4Block.compress(Self.input)
        // Allocating 2^50 bytes would trap, so passing means the check came first.
        let error = expectLZ4Error(.sizeLimitExceeded) {
            try LZ4Block.decompress(compressed, decompressedSize: 1 << 50, maximumSize: 1 << 20)
        }
        #expect(error?.message == "declared decompressed size 1125899906842624 bytes exceeds the limit of 1048576 bytes")
        expectLZ4Error(.sizeLimitExceeded) {
            try LZ4Block.decompress(compressed, decompressedSize: 1 << 40, maximumSize: .max)
        }
        expectLZ4Error(.sizeLimitExceeded) {
            try LZ4Block.decompress(compressed, decompressedSize: Self.input.count, maximumSize: Self.input.count - 1)
        }
        expectLZ4Error(.invalidArgument) {
            try LZ4Block.decompress(compressed, decompressedSize: -1, maximumSize: 100)
        }
    }

    @Test func declaredSizeMustMatchExactly() throws {
        let compressed = try LZ4Block.compress(Self.input)
        let count = Self.input.count
        let error = expectLZ4Error(.sizeMismatch) {
            try LZ4Block.decompress(compressed, decompressedSize: count + 1, maximumSize: 1 << 20)
        }
        #expect(error?.message == "compressed block decompressed to 20000 bytes instead of the declared 20001 bytes")
        expectLZ4Error(.corruptInput) {
            try LZ4Block.decompress(compressed, decompressedSize: count - 1, maximumSize: 1 << 20)
        }
    }

    @Test func truncatedAndEmptyBlocksAreCorrupt() throws {
        let compressed = try LZ4Block.compress(Self.input)
        for cut in [1, 2, 10, compressed.count / 2, compressed.count - 1] {
            expectLZ4Error(.corruptInput) {
                try LZ4Block.decompress(
                    Array(compressed.dropLast(cut)), decompressedSize: Self.input.count, maximumSize: 1 << 20
                )
            }
        }
        expectLZ4Error(.corruptInput) { try LZ4Block.decompress([], decompressedSize: 0, maximumSize: 10) }
        expectLZ4Error(.corruptInput) { try LZ4Block.decompress([], decompressedSize: 5, maximumSize: 10) }
        expectLZ4Error(.corruptInput) { try LZ4Block.decompress([0x10], decompressedSize: 0, maximumSize: 10) }
    }

    @Test func tooSmallOutputBuffersAreReported() throws {
        let compressed = try LZ4Block.compress(Self.input)
        var small = [UInt8](repeating: 0, count: 100)
        let error = expectLZ4Error(.outputTooSmall) {
            try Self.input.withUnsafeBytes { source in
                try small.withUnsafeMutableBytes { try LZ4Block.compress(source, into: $0) }
            }
        }
        #expect(error?.message.contains("compressBound is 20094 bytes") == true)
        expectLZ4Error(.outputTooSmall) {
            try [UInt8]().withUnsafeBytes { try LZ4Block.compress($0, into: UnsafeMutableRawBufferPointer(start: nil, count: 0)) }
        }
        expectLZ4Error(.corruptInput) {
            try compressed.withUnsafeBytes { source in
                try small.withUnsafeMutableBytes { try LZ4Block.decompress(source, into: $0) }
            }
        }
    }

    @Test func inputsAboveTheBlockLimitAreRejectedWithoutReadingThem() throws {
        // Only the count is looked at before the check fails, so a short buffer with a large
        // declared count stands in for 2 GB of input.
        var byte: UInt8 = 0
        try withUnsafeMutableBytes(of: &byte) { storage in
            let huge = UnsafeRawBufferPointer(start: storage.baseAddress, count: LZ4Block.maximumInputSize + 1)
            let error = expectLZ4Error(.inputTooLarge) { try LZ4Block.compress(huge, into: storage) }
            #expect(error?.message == "input of 2113929217 bytes exceeds the LZ4 block limit of 2113929216 bytes")
            let hugeBlock = UnsafeRawBufferPointer(start: storage.baseAddress, count: Int(Int32.max) + 1)
            expectLZ4Error(.inputTooLarge) { try LZ4Block.decompress(hugeBlock, into: storage) }
            _ = try #require(storage.baseAddress)
        }
    }

    @Test func mutatedBlocksNeverCrash() throws {
        var generator = SeededGenerator(seed: 11)
        let compressed = try LZ4Block.compress(Self.input, level: .high(level: 9))
        for _ in 0..<2_000 {
            var mutated = compressed
            for _ in 0...(generator.next() % 4) {
                let index = Int(generator.next() % UInt64(mutated.count))
                mutated[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            if generator.next() % 4 == 0 {
                mutated.removeLast(Int(generator.next() % UInt64(mutated.count)))
            }
            do throws(LZ4Error) {
                let output = try LZ4Block.decompress(mutated, decompressedSize: Self.input.count, maximumSize: 1 << 20)
                #expect(output.count == Self.input.count)
            } catch {
                #expect([.corruptInput, .sizeMismatch].contains(error.code))
            }
        }
    }

    @Test func randomBytesAreRejectedOrDecodedWithinTheLimit() {
        var generator = SeededGenerator(seed: 12)
        for round in 0..<2_000 {
            let garbage = TestData.random(count: Int(generator.next() % 300), seed: UInt64(round))
            let declared = Int(generator.next() % 2_000)
            do throws(LZ4Error) {
                let output = try LZ4Block.decompress(garbage, decompressedSize: declared, maximumSize: 2_000)
                #expect(output.count == declared)
            } catch {
                #expect([.corruptInput, .sizeMismatch].contains(error.code))
            }
        }
    }
}
