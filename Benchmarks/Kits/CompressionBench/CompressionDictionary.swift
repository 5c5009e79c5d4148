public import LowbandLZ4
import LowbandFixtures

/// The shared dictionary of the `lz4-dict` method: the wire's shipped dictionary `messenger-1`.
///
/// It is made by `LowbandFixtures/MessengerDictionaryRecipe` from new-message pushes of
/// `MessengerFixtures(seed: 2)`, while every measured input comes from seed 1: the dictionary
/// knows the vocabulary of the traffic — MessagePack layouts, URL prefixes, the corpus's words —
/// but never the measured messages themselves, as a dictionary trained on yesterday's traffic
/// would. Pushes are the frames a dictionary helps most (plain LZ4 barely shrinks a 200-byte
/// message).
///
/// Size: on `small-messages` 16 KiB gives 87.2 KB, 32 KiB 82.9 KB, 64 KiB 80.8 KB (plain LZ4
/// 160.9 KB). The default is 32 KiB, the wire's: 64 KiB would buy 2.5 % for twice the memory a
/// compressor keeps per connection.
public enum CompressionDictionary {
    /// The seed of the sample payloads; any seed but the measured inputs' seed 1.
    public static let sampleSeed: UInt64 = MessengerDictionaryRecipe.seed

    /// A dictionary of `size` bytes (at most `LZ4Dictionary.maximumSize`) of pushes from `seed`;
    /// with the defaults, byte for byte the wire's `messenger-1`.
    ///
    /// - Throws: when the MessagePack encoder rejects a fixture (a bug in the catalogue).
    public static func make(seed: UInt64 = sampleSeed, size: Int = 32 * 1_024) throws -> LZ4Dictionary {
        LZ4Dictionary(try MessengerDictionaryRecipe.build(seed: seed, size: min(max(size, 0), LZ4Dictionary.maximumSize)))
    }
}
