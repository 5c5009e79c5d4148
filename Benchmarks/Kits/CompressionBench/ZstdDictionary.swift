import CZstd

/// A zstd dictionary trained by `ZDICT_trainFromBuffer` on sample payloads: zstd's own way of
/// making a dictionary, next to LZ4's, which is only content (`CompressionDictionary`).
///
/// The training output has a header (magic, dictionary id, entropy tables) before its content,
/// so it is a dictionary for zstd only. Training is deterministic: the same samples and capacity
/// give the same bytes.
public struct ZstdDictionary: Sendable, Hashable {
    /// The trained dictionary, as `zstd -D FILE` reads it.
    public let bytes: [UInt8]

    /// A dictionary of at most `capacity` bytes trained on `samples`.
    ///
    /// - Throws: `CompressionBenchError.codecFailed` with zdict's message when training fails
    ///   (too few or too small samples for the capacity).
    public init(trainingOn samples: [[UInt8]], capacity: Int) throws(CompressionBenchError) {
        let joined = Array(samples.joined())
        let sizes = samples.map { Int($0.count) }
        var buffer = [UInt8](repeating: 0, count: capacity)
        let written = buffer.withUnsafeMutableBytes { output in
            joined.withUnsafeBytes { input in
                sizes.withUnsafeBufferPointer { sizes in
                    ZDICT_trainFromBuffer(output.baseAddress, capacity, input.baseAddress, sizes.baseAddress, UInt32(sizes.count))
                }
            }
        }
        guard ZDICT_isError(written) == 0 else {
            let reason = String(cString: ZDICT_getErrorName(written))
            throw CompressionBenchError(.codecFailed, "ZDICT_trainFromBuffer on \(samples.count) samples (\(joined.count) bytes) for \(capacity) bytes failed: \(reason)")
        }
        bytes = Array(buffer.prefix(written))
    }

    /// The dictionary's id, as written into every frame compressed with it.
    public var id: UInt32 {
        bytes.withUnsafeBytes { ZDICT_getDictID($0.baseAddress, $0.count) }
    }
}

extension ZstdDictionary {
    /// How many pushes the trained dictionary of the suite learns from: zstd's documentation asks
    /// for about a hundred times the dictionary's size in samples.
    public static let sampleCount = 20_000

    /// The suite's zstd dictionary: trained on new-message pushes of the same seed the LZ4
    /// dictionary is cut from (`CompressionDictionary.sampleSeed`), to the LZ4 dictionary's size.
    ///
    /// - Throws: when a fixture does not encode or training fails.
    public static func make(seed: UInt64 = CompressionDictionary.sampleSeed, capacity: Int = 32 * 1_024) throws -> ZstdDictionary {
        try ZstdDictionary(trainingOn: CompressionInput.pushStream(seed: seed, count: sampleCount), capacity: capacity)
    }
}
