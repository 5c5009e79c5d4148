public import LowbandLZ4

/// The shared dictionary of the `lz4-dict` method, built from sample payloads.
///
/// The samples are new-message pushes of `MessengerFixtures(seed: 2)`, while every measured
/// input comes from seed 1: the dictionary knows the vocabulary of the traffic — MessagePack
/// keys, URL prefixes, the corpus's words — but never the measured messages themselves, as a
/// dictionary trained on yesterday's traffic would. Pushes are the frames a dictionary helps
/// most (plain LZ4 barely shrinks a 200-byte message).
///
/// Size: on `small-messages` 16 KiB gives 87.2 KB, 32 KiB 82.9 KB, 64 KiB 80.8 KB (plain LZ4
/// 160.9 KB). The default is 32 KiB: a connection keeps one `LZ4BlockCompressor` with the
/// dictionary loaded once, but each message still starts from a copy of that loaded state, and
/// 64 KiB would buy 2.5 % for twice the memory per connection.
public enum CompressionDictionary {
    /// The seed of the sample payloads; any seed but the measured inputs' seed 1.
    public static let sampleSeed: UInt64 = 2

    /// A dictionary of `size` bytes (at most `LZ4Dictionary.maximumSize`) of pushes from `seed`.
    ///
    /// - Throws: when the MessagePack encoder rejects a fixture (a bug in the catalogue).
    public static func make(seed: UInt64 = sampleSeed, size: Int = 32 * 1_024) throws -> LZ4Dictionary {
        let size = min(max(size, 0), LZ4Dictionary.maximumSize)
        var samples: [[UInt8]] = []
        var total = 0
        var count = 64
        while total < size {
            samples = try CompressionInput.pushStream(seed: seed, count: count)
            total = samples.reduce(0) { $0 + $1.count }
            count *= 2
        }
        return LZ4Dictionary(Array(LZ4Dictionary(samples: samples).bytes.suffix(size)))
    }
}
