import CLZ4
import LowbandLZ4
import Testing

/// A dictionary is loaded into liblz4 once, when it is made, and every fast block starts from a
/// copy of that stream: the bytes must stay those of loading it into a new stream for each
/// block, as liblz4's own `LZ4_loadDict` + `LZ4_compress_fast_continue` give them.
@Suite struct LZ4DictionaryReferenceTests {
    /// liblz4 called directly: a new stream, the dictionary loaded, one block.
    static func reference(_ input: [UInt8], dictionary: [UInt8], acceleration: Int32) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: LZ4Block.compressBound(input.count))
        let stream = LZ4_createStream()!
        defer { LZ4_freeStream(stream) }
        let written = dictionary.withUnsafeBytes { dictionaryBytes in
            input.withUnsafeBytes { source in
                output.withUnsafeMutableBytes { destination in
                    LZ4_loadDict(stream, dictionaryBytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(dictionary.count))
                    return LZ4_compress_fast_continue(
                        stream, source.baseAddress!.assumingMemoryBound(to: CChar.self), destination.baseAddress!.assumingMemoryBound(to: CChar.self),
                        Int32(input.count), Int32(destination.count), acceleration)
                }
            }
        }
        return Array(output.prefix(Int(written)))
    }

    @Test(arguments: [1, 4, 100])
    func aBlockHasTheBytesOfLoadingTheDictionaryAfresh(acceleration: Int) throws {
        for (index, dictionary) in LZ4BlockCompressorTests.dictionaries.enumerated() {
            guard let dictionary, !dictionary.bytes.isEmpty else { continue }
            let compressor = try LZ4BlockCompressor(level: .fast(acceleration: acceleration), dictionary: dictionary)
            for (number, input) in LZ4BlockCompressorTests.inputs(seed: UInt64(index) &+ 7).enumerated() where !input.isEmpty {
                let expected = Self.reference(input, dictionary: dictionary.bytes, acceleration: Int32(acceleration))
                let context = "acceleration \(acceleration), dictionary \(index), input \(number) of \(input.count) bytes:"
                expectSameBytes(try LZ4Block.compress(input, level: .fast(acceleration: acceleration), dictionary: dictionary), expected, context)
                expectSameBytes(try compressor.compress(input), expected, context)
            }
        }
    }

    @Test func copiesOfADictionaryAreEqualAndHashAlike() {
        let bytes: [UInt8] = Array("a dictionary of words, words and more words".utf8)
        let one = LZ4Dictionary(bytes)
        let two = LZ4Dictionary(samples: [bytes])
        #expect(one == two)
        #expect(one.hashValue == two.hashValue)
        #expect(one != LZ4Dictionary(bytes.dropLast()))
    }
}
