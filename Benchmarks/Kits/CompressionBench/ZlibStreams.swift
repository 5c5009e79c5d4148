import CZlib

/// One deflate and one inflate stream of the system zlib, reset between payloads.
///
/// A connection compressing message after message keeps its streams, so each payload costs a
/// `deflateReset` rather than the ~270 KB of state `compress2` allocates and clears per call;
/// that keeps zlib's small-message figures fair. The output is a complete zlib stream
/// (RFC 1950, header and Adler-32), which `uncompress` or Python's `zlib.decompress` read.
///
/// The `z_stream`s live at fixed addresses because zlib checks that its state points back at them.
final class ZlibStreams {
    private let deflater: UnsafeMutablePointer<z_stream>
    private let inflater: UnsafeMutablePointer<z_stream>
    let level: Int

    init(level: Int) throws(CompressionBenchError) {
        guard (1...9).contains(level) else {
            throw CompressionBenchError(.invalidArgument, "zlib level \(level) is outside 1...9")
        }
        self.level = level
        deflater = .allocate(capacity: 1)
        deflater.initialize(to: z_stream())
        inflater = .allocate(capacity: 1)
        inflater.initialize(to: z_stream())
        let size = Int32(MemoryLayout<z_stream>.size)
        let deflateStatus = deflateInit_(deflater, Int32(level), zlibVersion(), size)
        let inflateStatus = inflateInit_(inflater, zlibVersion(), size)
        guard deflateStatus == Z_OK, inflateStatus == Z_OK else {
            if deflateStatus == Z_OK { deflateEnd(deflater) }
            if inflateStatus == Z_OK { inflateEnd(inflater) }
            deflater.deallocate()
            inflater.deallocate()
            throw CompressionBenchError(
                .codecFailed, "zlib stream initialisation failed (deflateInit \(deflateStatus), inflateInit \(inflateStatus))"
            )
        }
    }

    deinit {
        deflateEnd(deflater)
        inflateEnd(inflater)
        deflater.deallocate()
        inflater.deallocate()
    }

    /// The most a payload of `count` bytes compresses to with this stream's settings.
    func compressBound(_ count: Int) -> Int {
        Int(deflateBound(deflater, uLong(count)))
    }

    func compress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(CompressionBenchError) -> Int {
        guard deflateReset(deflater) == Z_OK else {
            throw CompressionBenchError(.codecFailed, "zlib deflateReset failed")
        }
        let status = run(deflater, input, output) { deflate($0, Z_FINISH) }
        guard status == Z_STREAM_END else {
            throw CompressionBenchError(
                .codecFailed,
                "zlib-\(level) deflate of \(input.count) bytes into \(output.count) bytes ended with status \(status)"
            )
        }
        return Int(deflater.pointee.total_out)
    }

    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(CompressionBenchError) -> Int {
        guard inflateReset(inflater) == Z_OK else {
            throw CompressionBenchError(.codecFailed, "zlib inflateReset failed")
        }
        let status = run(inflater, input, output) { inflate($0, Z_FINISH) }
        guard status == Z_STREAM_END else {
            throw CompressionBenchError(
                .codecFailed,
                "zlib inflate of \(input.count) bytes into \(output.count) bytes ended with status \(status) "
                    + "(corrupt data, or output larger than the buffer)"
            )
        }
        return Int(inflater.pointee.total_out)
    }

    /// Points `stream` at the buffers and runs one `Z_FINISH` step; returns zlib's status.
    private func run(
        _ stream: UnsafeMutablePointer<z_stream>,
        _ input: UnsafeRawBufferPointer,
        _ output: UnsafeMutableRawBufferPointer,
        _ step: (UnsafeMutablePointer<z_stream>) -> Int32
    ) -> Int32 {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(output.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
        }
        return step(stream)
    }
}
