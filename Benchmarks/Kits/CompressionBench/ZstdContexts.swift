import CZstd

/// One zstd compression and one decompression context, with an optional dictionary digested
/// once (`ZSTD_CDict`/`ZSTD_DDict`), as a connection sending many messages would keep them.
///
/// Each payload becomes a complete zstd frame (magic, header with the dictionary's id and the
/// content size, blocks), which `zstd -d -D DICT` or Python's `zstandard` read.
final class ZstdContexts {
    private let compressor: OpaquePointer
    private let decompressor: OpaquePointer
    private let compressionDictionary: OpaquePointer?
    private let decompressionDictionary: OpaquePointer?
    let level: Int32

    init(level: Int, dictionary: ZstdDictionary?) throws(CompressionBenchError) {
        guard (1 ... Int(ZSTD_maxCLevel())).contains(level) else {
            throw CompressionBenchError(.invalidArgument, "zstd level \(level) is outside 1...\(ZSTD_maxCLevel())")
        }
        self.level = Int32(level)
        guard let compressor = ZSTD_createCCtx(), let decompressor = ZSTD_createDCtx() else {
            throw CompressionBenchError(.codecFailed, "zstd could not allocate its contexts")
        }
        self.compressor = compressor
        self.decompressor = decompressor
        if let dictionary {
            compressionDictionary = dictionary.bytes.withUnsafeBytes { ZSTD_createCDict($0.baseAddress, $0.count, Int32(level)) }
            decompressionDictionary = dictionary.bytes.withUnsafeBytes { ZSTD_createDDict($0.baseAddress, $0.count) }
        } else {
            compressionDictionary = nil
            decompressionDictionary = nil
        }
    }

    deinit {
        ZSTD_freeCCtx(compressor)
        ZSTD_freeDCtx(decompressor)
        if let compressionDictionary { ZSTD_freeCDict(compressionDictionary) }
        if let decompressionDictionary { ZSTD_freeDDict(decompressionDictionary) }
    }

    /// The most a payload of `count` bytes compresses to.
    func compressBound(_ count: Int) -> Int {
        ZSTD_compressBound(count)
    }

    func compress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(CompressionBenchError) -> Int {
        let written = if let compressionDictionary {
            ZSTD_compress_usingCDict(compressor, output.baseAddress, output.count, input.baseAddress, input.count, compressionDictionary)
        } else {
            ZSTD_compressCCtx(compressor, output.baseAddress, output.count, input.baseAddress, input.count, level)
        }
        guard ZSTD_isError(written) == 0 else {
            throw CompressionBenchError(.codecFailed, "zstd-\(level) compression of \(input.count) bytes: \(String(cString: ZSTD_getErrorName(written)))")
        }
        return written
    }

    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(CompressionBenchError) -> Int {
        let written = if let decompressionDictionary {
            ZSTD_decompress_usingDDict(decompressor, output.baseAddress, output.count, input.baseAddress, input.count, decompressionDictionary)
        } else {
            ZSTD_decompressDCtx(decompressor, output.baseAddress, output.count, input.baseAddress, input.count)
        }
        guard ZSTD_isError(written) == 0 else {
            throw CompressionBenchError(.codecFailed, "zstd decompression of \(input.count) bytes: \(String(cString: ZSTD_getErrorName(written)))")
        }
        return written
    }
}
