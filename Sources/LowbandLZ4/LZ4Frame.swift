import CLZ4

/// One-shot helpers for the LZ4 frame format, for payloads that fit in memory.
///
/// Use ``LZ4FrameCompressor`` and ``LZ4FrameDecompressor`` to stream.
public enum LZ4Frame {
    /// Compresses `bytes` into one complete frame.
    ///
    /// liblz4 lowers the block size for small inputs, so the decompressor needs less memory.
    ///
    /// - Throws: `LZ4Error` with code `invalidLevel` for an out-of-range level.
    public static func compress(
        _ bytes: [UInt8],
        configuration: LZ4FrameConfiguration = LZ4FrameConfiguration()
    ) throws(LZ4Error) -> [UInt8] {
        var preferences = try configuration.preferences()
        let capacity = LZ4F_compressFrameBound(bytes.count, &preferences)
        var result: Result<Int, LZ4Error> = .success(0)
        let frame = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            result = bytes.withUnsafeBytes { source in
                Result { () throws(LZ4Error) -> Int in
                    try checkFrameResult(
                        LZ4F_compressFrame(buffer.baseAddress, capacity, source.baseAddress, source.count, &preferences),
                        "compressing a frame"
                    )
                }
            }
            count = (try? result.get()) ?? 0
        }
        _ = try result.get()
        return frame
    }

    /// Decompresses `bytes`, one or more concatenated frames, refusing to produce more than
    /// `maximumSize` bytes.
    ///
    /// - Throws: `LZ4Error` with code `sizeLimitExceeded` as soon as the output would exceed
    ///   `maximumSize`, `truncatedFrame` if `bytes` ends inside a frame, or another code for bad input.
    public static func decompress(_ bytes: [UInt8], maximumSize: Int) throws(LZ4Error) -> [UInt8] {
        guard maximumSize >= 0 else {
            throw LZ4Error(.invalidArgument, "maximum size \(maximumSize) is negative")
        }
        let decompressor = try LZ4FrameDecompressor()
        var output: [UInt8] = []
        let result = bytes.withUnsafeBytes { input in
            Result { () throws(LZ4Error) in
                try decompressor.decode(input, sink: { (piece: UnsafeRawBufferPointer) throws(LZ4Error) in
                    guard piece.count <= maximumSize - output.count else {
                        throw LZ4Error(
                            .sizeLimitExceeded,
                            "decompressed data exceeds the limit of \(maximumSize) bytes"
                        )
                    }
                    output.append(contentsOf: piece)
                }, lift: { $0 })
            }
        }
        try result.get()
        try decompressor.finish()
        return output
    }
}
