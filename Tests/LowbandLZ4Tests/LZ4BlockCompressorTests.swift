import LowbandDeterminism
import LowbandLZ4
import LowbandTestSupport
import Testing

/// `LZ4BlockCompressor` reuses liblz4 state between calls; its output must stay the one-shot
/// `LZ4Block.compress` output whatever came before (a larger block, a smaller one, a failure).
@Suite struct LZ4BlockCompressorTests {
    static let levels: [LZ4Level] =
        [1, 2, 4, 16, 100, LZ4Level.maximumAcceleration].map { LZ4Level.fast(acceleration: $0) }
        + LZ4Level.highLevels.map { LZ4Level.high(level: $0) }

    static let dictionaries: [LZ4Dictionary?] = [
        nil,
        LZ4Dictionary([]),
        LZ4Dictionary([1, 2, 3]),
        LZ4Dictionary(TestData.text(count: 32 * 1_024, seed: 99)),
        LZ4Dictionary(TestData.text(count: 100_000, seed: 98)),
    ]

    /// Seeded inputs in an order that exercises reuse: small after large, tiny, incompressible,
    /// over 64 KiB (the fast compressor's other table mode), and repeats of the same block.
    static func inputs(seed: UInt64) -> [[UInt8]] {
        var generator = SeededGenerator(seed: seed)
        var inputs: [[UInt8]] = []
        for index in 0 ..< 24 {
            let size: Int = switch index % 6 {
            case 0: Int(generator.next() % 100) + 1
            case 1: Int(generator.next() % 2_000) + 60
            case 2: 76
            case 3: Int(generator.next() % 40_000) + 1_000
            case 4: index == 4 ? 70_000 : Int(generator.next() % 300) + 4
            default: Int(generator.next() % 5_000)
            }
            let kind: TestData.Kind = generator.next() % 4 == 0 ? .random : .text
            inputs.append(TestData.bytes(kind, count: size, seed: generator.next()))
        }
        inputs.append(inputs[2])
        inputs.append(inputs[2])
        return inputs
    }

    @Test(arguments: levels)
    func givesTheOneShotBytesAtEveryLevel(level: LZ4Level) throws {
        for (index, dictionary) in Self.dictionaries.enumerated() {
            let compressor = try LZ4BlockCompressor(level: level, dictionary: dictionary)
            for (number, input) in Self.inputs(seed: UInt64(index) &+ 1_000).enumerated() {
                let expected = try LZ4Block.compress(input, level: level, dictionary: dictionary)
                expectSameBytes(
                    try compressor.compress(input), expected,
                    "\(level), dictionary \(index), input \(number) of \(input.count) bytes:"
                )
            }
        }
    }

    @Test(arguments: [LZ4Level.fast(acceleration: 1), .high(level: 9)], [0, 3])
    func blocksRoundTripThroughTheDecompressor(level: LZ4Level, dictionaryIndex: Int) throws {
        let dictionary = Self.dictionaries[dictionaryIndex]
        let compressor = try LZ4BlockCompressor(level: level, dictionary: dictionary)
        for input in Self.inputs(seed: 5) {
            let compressed = try compressor.compress(input)
            let restored = try LZ4Block.decompress(
                compressed, decompressedSize: input.count, maximumSize: input.count, dictionary: dictionary
            )
            expectSameBytes(restored, input)
        }
    }

    @Test(arguments: levels)
    func aTooSmallOutputFailsAndTheNextBlockIsUnharmed(level: LZ4Level) throws {
        let dictionary = Self.dictionaries[3]
        let compressor = try LZ4BlockCompressor(level: level, dictionary: dictionary)
        let input = TestData.text(count: 5_000, seed: 3)
        var output = [UInt8](repeating: 0, count: 10)
        let error = expectLZ4Error(.outputTooSmall) {
            try input.withUnsafeBytes { source in
                try output.withUnsafeMutableBytes { try compressor.compress(source, into: $0) }
            }
        }
        #expect(error?.message == "output buffer of 10 bytes is too small to compress 5000 bytes (compressBound is 5035 bytes)")
        try expectSameBytes(compressor.compress(input), LZ4Block.compress(input, level: level, dictionary: dictionary))
    }

    @Test func anInvalidLevelIsRejectedWhenTheCompressorIsMade() {
        let error = expectLZ4Error(.invalidLevel) { try LZ4BlockCompressor(level: .fast(acceleration: 0)) }
        #expect(error?.message == "acceleration 0 is outside 1...65537")
        expectLZ4Error(.invalidLevel) { try LZ4BlockCompressor(level: .high(level: 13)) }
    }

    @Test(arguments: [LZ4Level.fast(acceleration: 1), .high(level: 9)], [0, 3])
    func emptyInputIsTheSingleTokenByte(level: LZ4Level, dictionaryIndex: Int) throws {
        let compressor = try LZ4BlockCompressor(level: level, dictionary: Self.dictionaries[dictionaryIndex])
        #expect(try compressor.compress([]) == [0])
    }
}
