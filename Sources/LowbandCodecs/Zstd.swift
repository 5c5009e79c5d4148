import CLowbandZstd

/// zstd at its default level (3), with or without a dictionary of raw content (the other
/// payloads' bytes, as the LZ4 dictionary is), keeping its contexts and its digested dictionary
/// between calls as an app would: a comparison's zstd time is the compression's, not the setup's.
///
/// Not `Sendable`: one comparison cell uses it on one thread.
final class Zstd {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The level used: zstd's default.
    static let level: Int32 = 3

    private let compressor: OpaquePointer
    private let decompressor: OpaquePointer
    private let compressionDictionary: OpaquePointer?
    private let decompressionDictionary: OpaquePointer?

    /// Contexts for zstd, with `dictionary` (raw content) digested once when given.
    init(dictionary: [UInt8]? = nil) throws(Failure) {
        guard let compressor = ZSTD_createCCtx(), let decompressor = ZSTD_createDCtx() else { throw Failure(description: "zstd: cannot create a context") }
        self.compressor = compressor
        self.decompressor = decompressor
        if let dictionary, !dictionary.isEmpty {
            compressionDictionary = dictionary.withUnsafeBytes { ZSTD_createCDict($0.baseAddress, $0.count, Self.level) }
            decompressionDictionary = dictionary.withUnsafeBytes { ZSTD_createDDict($0.baseAddress, $0.count) }
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

    func compress(_ input: [UInt8]) throws(Failure) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: ZSTD_compressBound(input.count))
        let written = output.withUnsafeMutableBytes { destination in
            input.withUnsafeBytes { source in
                if let compressionDictionary {
                    ZSTD_compress_usingCDict(compressor, destination.baseAddress, destination.count, source.baseAddress, source.count, compressionDictionary)
                } else {
                    ZSTD_compressCCtx(compressor, destination.baseAddress, destination.count, source.baseAddress, source.count, Self.level)
                }
            }
        }
        guard ZSTD_isError(written) == 0 else { throw Failure(description: "zstd compress failed: \(String(cString: ZSTD_getErrorName(written)))") }
        output.removeLast(output.count - written)
        return output
    }

    func decompress(_ input: [UInt8], size: Int) throws(Failure) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: max(1, size))
        let read = output.withUnsafeMutableBytes { destination in
            input.withUnsafeBytes { source in
                if let decompressionDictionary {
                    ZSTD_decompress_usingDDict(decompressor, destination.baseAddress, size, source.baseAddress, source.count, decompressionDictionary)
                } else {
                    ZSTD_decompressDCtx(decompressor, destination.baseAddress, size, source.baseAddress, source.count)
                }
            }
        }
        guard ZSTD_isError(read) == 0, read == size else { throw Failure(description: "zstd decompress failed (\(read) of \(size) bytes)") }
        return Array(output.prefix(size))
    }
}
