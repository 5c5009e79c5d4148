import LowbandLZ4
import CZlib

/// A ready-to-use compressor and decompressor for one ``CompressionMethod``, working on
/// caller-owned buffers so that a benchmark times the codec, not array allocation.
///
/// Not `Sendable`: the zlib streams and zstd contexts it keeps are used from one thread at a time.
final class CompressionCodec {
    private enum Engine {
        case copy
        /// A compressor keeps liblz4's state (and a loaded dictionary) between messages, as a
        /// connection sending many frames would.
        case lz4(LZ4BlockCompressor, LZ4Dictionary?)
        case zlib(ZlibStreams)
        case zstd(ZstdContexts)
    }

    private let engine: Engine

    init(_ method: CompressionMethod) throws(CompressionBenchError) {
        switch method.algorithm {
        case .none: engine = .copy
        case .lz4(let level, let dictionary):
            do throws(LZ4Error) {
                engine = .lz4(try LZ4BlockCompressor(level: level, dictionary: dictionary), dictionary)
            } catch {
                throw CompressionBenchError(.invalidArgument, "method \(method.id): \(error)")
            }
        case .zlib(let level): engine = .zlib(try ZlibStreams(level: level))
        case .zstd(let level, let dictionary): engine = .zstd(try ZstdContexts(level: level, dictionary: dictionary))
        }
    }

    /// Output capacity that always suffices for `count` input bytes.
    func compressBound(_ count: Int) -> Int {
        switch engine {
        case .copy: count
        case .lz4: LZ4Block.compressBound(count)
        case .zlib(let streams): streams.compressBound(count)
        case .zstd(let contexts): contexts.compressBound(count)
        }
    }

    /// Compresses `input` into `output`; returns the compressed size.
    func compress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(CompressionBenchError) -> Int {
        switch engine {
        case .copy:
            guard output.count >= input.count else {
                throw CompressionBenchError(.codecFailed, "copy of \(input.count) bytes into \(output.count) bytes")
            }
            output.copyMemory(from: input)
            return input.count
        case .lz4(let compressor, _):
            do throws(LZ4Error) {
                return try compressor.compress(input, into: output)
            } catch {
                throw CompressionBenchError(.codecFailed, "LZ4 compression of \(input.count) bytes: \(error)")
            }
        case .zlib(let streams):
            return try streams.compress(input, into: output)
        case .zstd(let contexts):
            return try contexts.compress(input, into: output)
        }
    }

    /// Decompresses `input` into `output`, which must be the original size; returns the size.
    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(CompressionBenchError) -> Int {
        switch engine {
        case .copy:
            guard output.count >= input.count else {
                throw CompressionBenchError(.codecFailed, "copy of \(input.count) bytes into \(output.count) bytes")
            }
            output.copyMemory(from: input)
            return input.count
        case .lz4(_, let dictionary):
            do throws(LZ4Error) {
                return try LZ4Block.decompress(input, into: output, dictionary: dictionary)
            } catch {
                throw CompressionBenchError(.codecFailed, "LZ4 decompression of \(input.count) bytes: \(error)")
            }
        case .zlib(let streams):
            return try streams.decompress(input, into: output)
        case .zstd(let contexts):
            return try contexts.decompress(input, into: output)
        }
    }
}
