import CLZ4

/// Compresses many LZ4 blocks with one level and dictionary, keeping liblz4's state between
/// calls, so a stream of small messages does not pay for setting it up on every message.
///
/// The output is byte for byte what ``LZ4Block/compress(_:into:level:dictionary:)`` produces
/// for the same input, level and dictionary; only the cost per call differs:
/// - With a dictionary at a fast level, both start each block from a copy of the stream the
///   ``LZ4Dictionary`` loaded when it was made (16 KiB); this object keeps its working copy
///   instead of taking one on the stack. With HC the one-shot function loads the dictionary
///   into a new stream on every call; this object loads it once and copies the loaded stream
///   (256 KiB).
/// - HC: the one-shot `LZ4_compress_HC` allocates and clears a 256 KiB state per call; this
///   object keeps one and resets it with `LZ4_resetStreamHC_fast`, which clears nothing.
/// - Fast without a dictionary: the same `LZ4_compress_fast` call as the one-shot function,
///   which clears its 16 KiB state on every call. liblz4's reuse entry point,
///   `LZ4_compress_fast_extState_fastReset`, is not exported by the shared `liblz4.so.1` we link
///   (it is "static linking only" in 1.9.4), and the exported stream API hashes small inputs
///   differently, so it would change the output. Only the level check is hoisted.
///
/// Not `Sendable`, on purpose: the state is mutated by every call, so one compressor serves one
/// thread, task or connection at a time (like a `ZlibStreams` or a NIO handler), and the
/// compiler enforces that. A thread-local cache behind ``LZ4Block`` was the alternative; it was
/// not chosen because it is hidden global state, keeps up to 300 KiB alive in every thread that
/// ever compressed, and gives callers no say over when that memory is freed.
public final class LZ4BlockCompressor {
    /// The level every block is compressed at (validated by the initializer).
    public let level: LZ4Level
    /// The dictionary every block is compressed with, if any.
    public let dictionary: LZ4Dictionary?

    private let engine: Engine

    /// A compressor for `level` and `dictionary` (`nil` or an empty dictionary means none).
    ///
    /// Allocation happens here: 16 KiB for the fast compressor's working stream with a dictionary
    /// (the loaded one is the dictionary's own), 256 KiB for HC (twice with a dictionary).
    ///
    /// - Throws: `LZ4Error` with code `invalidLevel`.
    public init(level: LZ4Level = .default, dictionary: LZ4Dictionary? = nil) throws(LZ4Error) {
        try level.validate()
        self.level = level
        self.dictionary = dictionary
        let dictionaryBytes = dictionary?.bytes ?? []
        switch level {
        case .fast(let acceleration):
            engine = dictionary?.loaded.map { .fastWithDictionary(FastDictionaryState($0), acceleration: Int32(acceleration)) }
                ?? .fast(acceleration: Int32(acceleration))
        case .high(let hcLevel):
            engine = .high(HighState(level: Int32(hcLevel), dictionary: dictionaryBytes))
        }
    }

    /// Compresses `input` into `output` and returns the number of bytes written.
    ///
    /// - Throws: `LZ4Error` with code `inputTooLarge`, or `outputTooSmall` when `output` cannot
    ///   hold the result (give it ``LZ4Block/compressBound(_:)`` bytes to rule that out).
    public func compress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(LZ4Error) -> Int {
        guard let source = input.cChars, let destination = output.cChars, input.count <= LZ4Block.maximumInputSize else {
            return try LZ4Block.compress(input, into: output, level: level, dictionary: dictionary)
        }
        let sourceSize = Int32(input.count)
        let capacity = Int32(clamping: output.count)
        let written: Int32
        switch engine {
        case .fast(let acceleration):
            written = LZ4_compress_fast(source, destination, sourceSize, capacity, acceleration)
        case .fastWithDictionary(let state, let acceleration):
            written = state.compress(source, destination, sourceSize, capacity, acceleration: acceleration)
        case .high(let state):
            written = state.compress(source, destination, sourceSize, capacity)
        }
        guard written > 0 else {
            throw LZ4Block.outputTooSmall(output: output.count, input: input.count)
        }
        return Int(written)
    }

    /// Compresses `input` into a new array.
    ///
    /// - Throws: `LZ4Error` with code `inputTooLarge`.
    public func compress(_ input: [UInt8]) throws(LZ4Error) -> [UInt8] {
        let result = withUnsafeTemporaryAllocation(byteCount: LZ4Block.compressBound(input.count), alignment: 16) { scratch in
            input.withUnsafeBytes { source in
                Result { () throws(LZ4Error) -> [UInt8] in
                    let count = try compress(source, into: scratch)
                    return Array(UnsafeRawBufferPointer(rebasing: scratch[..<count]))
                }
            }
        }
        return try result.get()
    }

    private enum Engine {
        case fast(acceleration: Int32)
        case fastWithDictionary(FastDictionaryState, acceleration: Int32)
        case high(HighState)
    }
}

@available(*, unavailable)
extension LZ4BlockCompressor: Sendable {}
