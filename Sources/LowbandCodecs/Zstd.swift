import CLowbandZstd

/// zstd's one-shot compress and decompress at its default level (3), with or without a
/// dictionary of raw content (the other payloads' bytes, as the LZ4 dictionary is).
enum Zstd {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The level used: zstd's default.
    static let level: Int32 = 3

    static func compress(_ input: [UInt8], dictionary: [UInt8]? = nil) throws(Failure) -> [UInt8] {
        guard let context = ZSTD_createCCtx() else { throw Failure(description: "zstd: cannot create a context") }
        defer { ZSTD_freeCCtx(context) }
        var output = [UInt8](repeating: 0, count: ZSTD_compressBound(input.count))
        let dictionaryBytes = dictionary ?? []
        let written = output.withUnsafeMutableBytes { destination in
            input.withUnsafeBytes { source in
                dictionaryBytes.withUnsafeBytes { dictionary in
                    ZSTD_compress_usingDict(
                        context, destination.baseAddress, destination.count, source.baseAddress, source.count,
                        dictionary.baseAddress, dictionary.count, level)
                }
            }
        }
        guard ZSTD_isError(written) == 0 else { throw Failure(description: "zstd compress failed: \(String(cString: ZSTD_getErrorName(written)))") }
        output.removeLast(output.count - written)
        return output
    }

    static func decompress(_ input: [UInt8], size: Int, dictionary: [UInt8]? = nil) throws(Failure) -> [UInt8] {
        guard let context = ZSTD_createDCtx() else { throw Failure(description: "zstd: cannot create a context") }
        defer { ZSTD_freeDCtx(context) }
        var output = [UInt8](repeating: 0, count: max(1, size))
        let dictionaryBytes = dictionary ?? []
        let read = output.withUnsafeMutableBytes { destination in
            input.withUnsafeBytes { source in
                dictionaryBytes.withUnsafeBytes { dictionary in
                    ZSTD_decompress_usingDict(
                        context, destination.baseAddress, size, source.baseAddress, source.count, dictionary.baseAddress, dictionary.count)
                }
            }
        }
        guard ZSTD_isError(read) == 0, read == size else { throw Failure(description: "zstd decompress failed (\(read) of \(size) bytes)") }
        return Array(output.prefix(size))
    }
}
