import LowbandLZ4
import Testing

@Suite struct LZ4BlockTests {
    @Test(arguments: TestData.Kind.allCases, TestData.sizes)
    func roundTripsAtTheDefaultLevel(kind: TestData.Kind, size: Int) throws {
        let input = TestData.bytes(kind, count: size, seed: UInt64(size))
        let compressed = try LZ4Block.compress(input)
        #expect(compressed.count <= LZ4Block.compressBound(size))
        let output = try LZ4Block.decompress(compressed, decompressedSize: size, maximumSize: size)
        expectSameBytes(output, input)
    }

    @Test(arguments: TestData.Kind.allCases, [0, 1, 1_000, 65_537, (4 << 20) + 321])
    func roundTripsWithHighCompression(kind: TestData.Kind, size: Int) throws {
        let input = TestData.bytes(kind, count: size, seed: UInt64(size))
        let compressed = try LZ4Block.compress(input, level: .high(level: 9))
        try expectSameBytes(LZ4Block.decompress(compressed, decompressedSize: size, maximumSize: size), input)
    }

    static let everyLevel: [LZ4Level] =
        [1, 2, 3, 8, 100, LZ4Level.maximumAcceleration].map { LZ4Level.fast(acceleration: $0) }
        + LZ4Level.highLevels.map { LZ4Level.high(level: $0) }

    @Test(arguments: everyLevel)
    func everyLevelRoundTrips(level: LZ4Level) throws {
        for kind in TestData.Kind.allCases {
            for size in [0, 1, 100, 150_000] {
                let input = TestData.bytes(kind, count: size, seed: 7)
                let compressed = try LZ4Block.compress(input, level: level)
                try expectSameBytes(LZ4Block.decompress(compressed, decompressedSize: size, maximumSize: size), input)
            }
        }
    }

    @Test func higherLevelsCompressTextBetter() throws {
        let input = TestData.text(count: 300_000)
        let fastest = try LZ4Block.compress(input, level: .fast(acceleration: 64)).count
        let fast = try LZ4Block.compress(input).count
        let hc9 = try LZ4Block.compress(input, level: .high(level: 9)).count
        let hc12 = try LZ4Block.compress(input, level: .high(level: 12)).count
        #expect(fastest > fast)
        #expect(fast > hc9)
        #expect(hc9 >= hc12)
        #expect(fast < input.count / 2)
    }

    @Test func emptyInputIsOneZeroByte() throws {
        #expect(try LZ4Block.compress([]) == [0])
        #expect(try LZ4Block.compress([], level: .high(level: 12)) == [0])
        #expect(try LZ4Block.decompress([0], decompressedSize: 0, maximumSize: 0) == [])
    }

    @Test func bufferAPIWritesIntoCallerMemory() throws {
        let input = TestData.text(count: 10_000)
        var compressed = [UInt8](repeating: 0, count: LZ4Block.compressBound(input.count))
        let compressedCount = try input.withUnsafeBytes { source in
            try compressed.withUnsafeMutableBytes { try LZ4Block.compress(source, into: $0) }
        }
        compressed.removeLast(compressed.count - compressedCount)
        try expectSameBytes(compressed, LZ4Block.compress(input))

        var output = [UInt8](repeating: 0, count: input.count + 100)
        let outputCount = try compressed.withUnsafeBytes { source in
            try output.withUnsafeMutableBytes { try LZ4Block.decompress(source, into: $0) }
        }
        #expect(outputCount == input.count)
        #expect(output.prefix(outputCount) == input[...])
    }

    @Test func compressBoundMatchesLZ4() {
        #expect(LZ4Block.compressBound(0) == 16)
        #expect(LZ4Block.compressBound(255) == 272)
        #expect(LZ4Block.compressBound(1_000_000) == 1_000_000 + 3_921 + 16)
        #expect(LZ4Block.compressBound(-5) == 16)
    }
}

@Suite struct LZ4BlockDictionaryTests {
    /// Earlier messages of the same kind as the one sent; the most recent last.
    static let samples = (0..<40).map { TestData.text(count: 1_500, seed: UInt64($0)) }
    static let dictionary = LZ4Dictionary(samples: samples)
    static let message = TestData.text(count: 300, seed: 999)

    @Test(arguments: [LZ4Level.default, .fast(acceleration: 4), .high(level: 4), .high(level: 9), .high(level: 12)])
    func dictionaryCompressesASmallMessageBetterAndRoundTrips(level: LZ4Level) throws {
        let plain = try LZ4Block.compress(Self.message, level: level)
        let withDictionary = try LZ4Block.compress(Self.message, level: level, dictionary: Self.dictionary)
        #expect(withDictionary.count < plain.count * 3 / 4, "\(withDictionary.count) vs \(plain.count) bytes")
        let output = try LZ4Block.decompress(
            withDictionary, decompressedSize: Self.message.count, maximumSize: 1 << 20, dictionary: Self.dictionary
        )
        #expect(output == Self.message)
    }

    @Test func decompressingWithoutOrWithTheWrongDictionaryFailsOrDiffers() throws {
        let compressed = try LZ4Block.compress(Self.message, dictionary: Self.dictionary)
        let wrong = LZ4Dictionary(samples: (100..<140).map { TestData.text(count: 1_500, seed: UInt64($0)) })
        for dictionary in [nil, wrong] {
            do throws(LZ4Error) {
                let output = try LZ4Block.decompress(
                    compressed, decompressedSize: Self.message.count, maximumSize: 1 << 20, dictionary: dictionary
                )
                #expect(output != Self.message)
            } catch {
                #expect([.corruptInput, .sizeMismatch].contains(error.code))
            }
        }
    }

    @Test func emptyDictionaryIsTheSameAsNone() throws {
        let input = TestData.text(count: 5_000)
        try expectSameBytes(LZ4Block.compress(input, dictionary: LZ4Dictionary([])), LZ4Block.compress(input))
    }

    @Test(arguments: TestData.Kind.allCases, [0, 1, 70_000, 1 << 20])
    func largeInputsRoundTripWithADictionary(kind: TestData.Kind, size: Int) throws {
        let input = TestData.bytes(kind, count: size, seed: 3)
        for level in [LZ4Level.default, .high(level: 6)] {
            let compressed = try LZ4Block.compress(input, level: level, dictionary: Self.dictionary)
            let output = try LZ4Block.decompress(
                compressed, decompressedSize: size, maximumSize: size, dictionary: Self.dictionary
            )
            expectSameBytes(output, input)
        }
    }
}
