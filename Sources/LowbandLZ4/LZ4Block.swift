import CLZ4

/// The raw LZ4 block format: one buffer in, one buffer out, no header and no checksum.
///
/// The block format does not record the decompressed size; the caller transmits it and passes
/// it back, with an upper limit, to ``decompress(_:decompressedSize:maximumSize:dictionary:)``.
/// Decompression only uses liblz4's bounds-checked `LZ4_decompress_safe*` functions, so hostile
/// input produces an error, never an out-of-bounds access. At a fast level a dictionary is not
/// loaded per call: each block starts from a copy of the stream ``LZ4Dictionary`` loaded once
/// (16 KiB), the same bytes as loading it afresh. HC loads the dictionary into a fresh stream on
/// every call, which costs about as much as compressing 64 KiB, and allocates and clears a
/// 256 KiB state per call: to compress many blocks with one level and dictionary, keep an
/// ``LZ4BlockCompressor``, which gives the same bytes.
public enum LZ4Block {
    /// The largest input liblz4 compresses in one block (`LZ4_MAX_INPUT_SIZE`, about 2 GB).
    public static let maximumInputSize = Int(LZ4_MAX_INPUT_SIZE)

    /// The output capacity that guarantees ``compress(_:into:level:dictionary:)`` succeeds
    /// for `count` input bytes (`LZ4_COMPRESSBOUND`).
    public static func compressBound(_ count: Int) -> Int {
        let count = max(count, 0)
        return count + count / 255 + 16
    }

    /// Compresses `input` into `output` and returns the number of bytes written.
    ///
    /// - Throws: `LZ4Error` with code `invalidLevel`, `inputTooLarge`, or `outputTooSmall` when
    ///   `output` cannot hold the result (give it ``compressBound(_:)`` bytes to rule that out).
    public static func compress(
        _ input: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer,
        level: LZ4Level = .default,
        dictionary: LZ4Dictionary? = nil
    ) throws(LZ4Error) -> Int {
        try level.validate()
        try checkInputSize(input.count)
        let written: Int32
        if let source = input.cChars, let destination = output.cChars {
            let sourceSize = Int32(input.count)
            let capacity = Int32(clamping: output.count)
            if case .fast(let acceleration) = level, let loaded = dictionary?.loaded {
                // The dictionary was loaded when it was made: the block starts from a copy.
                written = loaded.compress(source, destination, sourceSize, capacity, acceleration: Int32(acceleration))
            } else if let dictionary, !dictionary.bytes.isEmpty {
                written = dictionary.bytes.withUnsafeBytes { dictionaryBytes in
                    compressWithDictionary(
                        source, destination, sourceSize, capacity, level: level, dictionary: dictionaryBytes
                    )
                }
            } else {
                switch level {
                case .fast(let acceleration):
                    written = LZ4_compress_fast(source, destination, sourceSize, capacity, Int32(acceleration))
                case .high(let hcLevel):
                    written = LZ4_compress_HC(source, destination, sourceSize, capacity, Int32(hcLevel))
                }
            }
        } else if input.isEmpty && !output.isEmpty {
            // An empty input compresses to the single token byte 0 (liblz4 is not given empty buffers).
            output[0] = 0
            written = 1
        } else {
            written = 0
        }
        guard written > 0 else {
            throw outputTooSmall(output: output.count, input: input.count)
        }
        return Int(written)
    }

    /// The error for an output buffer of `output` bytes that cannot hold `input` bytes compressed.
    static func outputTooSmall(output: Int, input: Int) -> LZ4Error {
        LZ4Error(
            .outputTooSmall,
            "output buffer of \(output) bytes is too small to compress \(input) bytes "
                + "(compressBound is \(compressBound(input)) bytes)"
        )
    }

    /// Compresses `input` into a new array.
    ///
    /// - Throws: `LZ4Error` with code `invalidLevel` or `inputTooLarge`.
    public static func compress(
        _ input: [UInt8],
        level: LZ4Level = .default,
        dictionary: LZ4Dictionary? = nil
    ) throws(LZ4Error) -> [UInt8] {
        try checkInputSize(input.count)
        // Compress into scratch space of the worst-case size, then return an exactly sized array.
        let result = withUnsafeTemporaryAllocation(byteCount: compressBound(input.count), alignment: 16) { scratch in
            input.withUnsafeBytes { source in
                Result { () throws(LZ4Error) -> [UInt8] in
                    let count = try compress(source, into: scratch, level: level, dictionary: dictionary)
                    return Array(UnsafeRawBufferPointer(rebasing: scratch[..<count]))
                }
            }
        }
        return try result.get()
    }

    /// Decompresses the block `input` into `output` and returns the number of bytes written.
    ///
    /// `output.count` is the most that will be written; data that would need more space fails.
    /// Inlinable so that a caller decompressing many small blocks pays for one call into liblz4
    /// and a sign check, not for a call chain and an error copy (a 76-byte push decompresses in
    /// about 10 ns); the error messages are built out of line, only on failure.
    ///
    /// - Throws: `LZ4Error` with code `corruptInput` when the block is malformed, needs more than
    ///   `output.count` bytes, or was compressed with another dictionary; `inputTooLarge` when
    ///   `input` is larger than a block can be.
    @inlinable
    public static func decompress(
        _ input: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer,
        dictionary: LZ4Dictionary? = nil
    ) throws(LZ4Error) -> Int {
        guard input.count <= Int(Int32.max) else {
            throw blockTooLarge(input.count)
        }
        let written: Int32
        if let dictionary, !dictionary.bytes.isEmpty {
            written = decompressBlock(input, into: output, dictionary: dictionary)
        } else {
            written = decompressBlock(input, into: output)
        }
        guard written >= 0 else {
            throw corruptBlock(input: input.count, output: output.count)
        }
        return Int(written)
    }

    /// `LZ4_decompress_safe` on a block of at most `Int32.max` bytes; negative on failure.
    @usableFromInline
    static func decompressBlock(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int32 {
        guard let source = input.cChars, let destination = output.cChars else {
            return decompressEmpty(input)
        }
        return LZ4_decompress_safe(source, destination, Int32(input.count), Int32(clamping: output.count))
    }

    /// `LZ4_decompress_safe_usingDict` on a block of at most `Int32.max` bytes; negative on failure.
    @usableFromInline
    static func decompressBlock(
        _ input: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer,
        dictionary: LZ4Dictionary
    ) -> Int32 {
        guard let source = input.cChars, let destination = output.cChars else {
            return decompressEmpty(input)
        }
        return dictionary.bytes.withUnsafeBytes { dictionaryBytes in
            LZ4_decompress_safe_usingDict(
                source, destination, Int32(input.count), Int32(clamping: output.count),
                dictionaryBytes.cChars, Int32(dictionaryBytes.count)
            )
        }
    }

    /// An empty input or output: the only block that decompresses to nothing is the single
    /// token byte 0 (liblz4 is not given empty buffers).
    private static func decompressEmpty(_ input: UnsafeRawBufferPointer) -> Int32 {
        input.count == 1 && input[0] == 0 ? 0 : -1
    }

    @usableFromInline
    static func blockTooLarge(_ count: Int) -> LZ4Error {
        LZ4Error(
            .inputTooLarge,
            "compressed block of \(count) bytes exceeds the largest possible block of \(Int32.max) bytes"
        )
    }

    @usableFromInline
    static func corruptBlock(input: Int, output: Int) -> LZ4Error {
        LZ4Error(
            .corruptInput,
            "compressed block of \(input) bytes is corrupt, was compressed with another "
                + "dictionary, or decompresses to more than \(output) bytes"
        )
    }

    /// Decompresses the block `input`, which must decompress to exactly `decompressedSize` bytes.
    ///
    /// `decompressedSize` usually comes from the peer, so it is checked against `maximumSize`
    /// before any memory is allocated.
    ///
    /// - Throws: `LZ4Error` with code `sizeLimitExceeded` when `decompressedSize > maximumSize`,
    ///   `invalidArgument` for a negative size, `corruptInput` for malformed data (or data that
    ///   decompresses to more than `decompressedSize`), `sizeMismatch` when it decompresses to fewer.
    public static func decompress(
        _ input: [UInt8],
        decompressedSize: Int,
        maximumSize: Int,
        dictionary: LZ4Dictionary? = nil
    ) throws(LZ4Error) -> [UInt8] {
        guard decompressedSize >= 0 else {
            throw LZ4Error(.invalidArgument, "declared decompressed size \(decompressedSize) is negative")
        }
        guard decompressedSize <= maximumSize else {
            throw LZ4Error(
                .sizeLimitExceeded,
                "declared decompressed size \(decompressedSize) bytes exceeds the limit of \(maximumSize) bytes"
            )
        }
        guard decompressedSize <= Int(Int32.max) else {
            throw LZ4Error(
                .sizeLimitExceeded,
                "declared decompressed size \(decompressedSize) bytes exceeds the LZ4 block limit of \(Int32.max) bytes"
            )
        }
        var result: Result<Int, LZ4Error> = .success(0)
        let bytes = [UInt8](unsafeUninitializedCapacity: decompressedSize) { buffer, count in
            result = input.withUnsafeBytes { source in
                Result { () throws(LZ4Error) -> Int in
                    try decompress(source, into: UnsafeMutableRawBufferPointer(buffer), dictionary: dictionary)
                }
            }
            count = (try? result.get()) ?? 0
        }
        let written = try result.get()
        guard written == decompressedSize else {
            throw LZ4Error(
                .sizeMismatch,
                "compressed block decompressed to \(written) bytes instead of the declared \(decompressedSize) bytes"
            )
        }
        return bytes
    }

    private static func checkInputSize(_ count: Int) throws(LZ4Error) {
        guard count <= maximumInputSize else {
            throw LZ4Error(
                .inputTooLarge,
                "input of \(count) bytes exceeds the LZ4 block limit of \(maximumInputSize) bytes"
            )
        }
    }

    /// Compresses with a dictionary; returns 0 on failure like the liblz4 functions it calls.
    private static func compressWithDictionary(
        _ source: UnsafePointer<CChar>,
        _ destination: UnsafeMutablePointer<CChar>,
        _ sourceSize: Int32,
        _ capacity: Int32,
        level: LZ4Level,
        dictionary: UnsafeRawBufferPointer
    ) -> Int32 {
        switch level {
        case .fast(let acceleration):
            guard let stream = LZ4_createStream() else { return 0 }
            defer { LZ4_freeStream(stream) }
            LZ4_loadDict(stream, dictionary.cChars, Int32(dictionary.count))
            return LZ4_compress_fast_continue(stream, source, destination, sourceSize, capacity, Int32(acceleration))
        case .high(let hcLevel):
            guard let stream = LZ4_createStreamHC() else { return 0 }
            defer { LZ4_freeStreamHC(stream) }
            LZ4_resetStreamHC_fast(stream, Int32(hcLevel))
            LZ4_loadDictHC(stream, dictionary.cChars, Int32(dictionary.count))
            return LZ4_compress_HC_continue(stream, source, destination, sourceSize, capacity)
        }
    }
}

extension UnsafeRawBufferPointer {
    /// The start as `const char *`, or nil when the buffer is empty (liblz4 is never given those).
    var cChars: UnsafePointer<CChar>? {
        guard !isEmpty else { return nil }
        return baseAddress?.assumingMemoryBound(to: CChar.self)
    }
}

extension UnsafeMutableRawBufferPointer {
    /// The start as `char *`, or nil when the buffer is empty (liblz4 is never given those).
    var cChars: UnsafeMutablePointer<CChar>? {
        guard !isEmpty else { return nil }
        return baseAddress?.assumingMemoryBound(to: CChar.self)
    }
}
