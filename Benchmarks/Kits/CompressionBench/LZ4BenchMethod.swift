import LowbandLZ4

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Times our `LZ4Block` wrapper exactly the way `lz4 -b` times liblz4 (lz4 1.9.4,
/// `programs/bench.c`, `BMK_benchMem`), so the two speeds can be put side by side.
///
/// What bench.c does, and this repeats:
/// - The whole input is one block (no `-B`, so `g_blockSize` is 0), compressed with
///   `LZ4_compress_fast` (levels 1 and 2) or `LZ4_compress_HC` (3 and up) into a buffer of
///   `LZ4_compressBound` bytes, and decompressed with `LZ4_decompress_safe` into a buffer of
///   exactly the input size. Buffers are allocated once.
/// - Compression and decompression alternate. Each timed loop runs the operation `n` times on
///   `CLOCK_MONOTONIC`: first `5 MiB / (size + 1) + 1` compressions and
///   `200 MiB / (size + 1) + 1` decompressions, then as many as the fastest time so far fits in
///   one second. Before a loop the output buffer is overwritten (0xE5 / 0xD6), the thread sleeps
///   1 ms (compression) or 5 ms (decompression) and waits for the next clock tick.
/// - The time per operation is the integer nanoseconds of the fastest loop divided by `n`; a
///   direction is done once its loops add up to more than `seconds` seconds (`-i#`, plus 100 ns).
/// - Speed is input bytes / fastest time, in MB/s of 1,000,000 bytes.
///
/// The only difference is the call: here every operation goes through `LZ4Block.compress` and
/// `LZ4Block.decompress` (level validation, size checks, error mapping), which is what the
/// comparison is for.
public enum LZ4BenchMethod {
    /// Measures `bytes` at `lz4 -b<commandLineLevel>` for `seconds` (`-i<seconds>`).
    ///
    /// - Throws: `CompressionBenchError` for an empty input, an invalid level, a wrapper error,
    ///   or a round trip that does not restore the input.
    public static func measure(_ bytes: [UInt8], commandLineLevel: Int, seconds: Int) throws(CompressionBenchError) -> LZ4BenchReport {
        let level: LZ4Level
        do throws(LZ4Error) {
            level = try LZ4Level(commandLineLevel: commandLineLevel)
        } catch {
            throw CompressionBenchError(.invalidArgument, "lz4 -b level: \(error)")
        }
        guard !bytes.isEmpty, bytes.count <= LZ4Block.maximumInputSize else {
            throw CompressionBenchError(.invalidArgument, "input of \(bytes.count) bytes cannot be benchmarked as one LZ4 block")
        }
        guard seconds >= 0 else {
            throw CompressionBenchError(.invalidArgument, "benchmark time of \(seconds) s is negative")
        }
        return try Buffers(bytes).run(level: level, seconds: seconds)
    }

    /// The three buffers of bench.c: source, compressed (`compressBound` plus bench.c's spare
    /// 1 KiB per block), result.
    private final class Buffers {
        let source: UnsafeMutableRawBufferPointer
        let compressed: UnsafeMutableRawBufferPointer
        let result: UnsafeMutableRawBufferPointer
        let compressedRoom: Int

        init(_ bytes: [UInt8]) {
            let source = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
            bytes.withUnsafeBytes { source.copyMemory(from: $0) }
            self.source = source
            compressedRoom = LZ4Block.compressBound(bytes.count)
            // bench.c: LZ4_compressBound(srcSize) + maxNbBlocks * 1024, maxNbBlocks = blocks + files = 2.
            compressed = .allocate(byteCount: compressedRoom + 2 * 1_024, alignment: 16)
            compressed.initializeMemory(as: UInt8.self, repeating: 0)
            result = .allocate(byteCount: bytes.count, alignment: 16)
            result.initializeMemory(as: UInt8.self, repeating: 0)
        }

        deinit {
            source.deallocate()
            compressed.deallocate()
            result.deallocate()
        }

        func run(level: LZ4Level, seconds: Int) throws(CompressionBenchError) -> LZ4BenchReport {
            let size = source.count
            let input = UnsafeRawBufferPointer(source)
            let room = UnsafeMutableRawBufferPointer(rebasing: compressed[0 ..< compressedRoom])
            let maxTime = UInt64(seconds) * 1_000_000_000 + 100
            var compressionLoops = UInt64(5 << 20) / UInt64(size + 1) + 1
            var decodeLoops = UInt64(200 << 20) / UInt64(size + 1) + 1
            var fastestCompress = UInt64.max
            var fastestDecode = UInt64.max
            var totalCompressTime: UInt64 = 0
            var totalDecodeTime: UInt64 = 0
            var compressDone = false
            var decodeDone = false
            var compressedSize = 0
            while !compressDone || !decodeDone {
                if !compressDone { compressed.initializeMemory(as: UInt8.self, repeating: 0xE5) }
                usleep(1_000)
                waitForNextTick()
                if !compressDone {
                    let start = monotonicNanoseconds()
                    do throws(LZ4Error) {
                        for _ in 0 ..< compressionLoops {
                            compressedSize = try LZ4Block.compress(input, into: room, level: level)
                        }
                    } catch {
                        throw CompressionBenchError(.codecFailed, "LZ4 compression of \(size) bytes: \(error)")
                    }
                    let span = monotonicNanoseconds() - start
                    Self.update(&fastestCompress, &compressionLoops, span: span)
                    totalCompressTime += span
                    compressDone = totalCompressTime > maxTime
                }
                if !decodeDone { result.initializeMemory(as: UInt8.self, repeating: 0xD6) }
                usleep(5_000)
                waitForNextTick()
                if !decodeDone {
                    let block = UnsafeRawBufferPointer(rebasing: compressed[0 ..< compressedSize])
                    var restored = 0
                    let start = monotonicNanoseconds()
                    do throws(LZ4Error) {
                        for _ in 0 ..< decodeLoops {
                            restored = try LZ4Block.decompress(block, into: result)
                        }
                    } catch {
                        throw CompressionBenchError(.codecFailed, "LZ4 decompression of a \(compressedSize)-byte block: \(error)")
                    }
                    let span = monotonicNanoseconds() - start
                    guard restored == size else {
                        throw CompressionBenchError(.roundTripMismatch, "LZ4 block restored to \(restored) bytes instead of \(size)")
                    }
                    Self.update(&fastestDecode, &decodeLoops, span: span)
                    totalDecodeTime += span
                    decodeDone = totalDecodeTime > maxTime
                }
                guard source.elementsEqual(result) else {
                    throw CompressionBenchError(.roundTripMismatch, "LZ4 round trip of \(size) bytes restored other bytes")
                }
            }
            return LZ4BenchReport(
                compressedBytes: compressedSize,
                compressMBps: Double(size) / Double(fastestCompress) * 1_000,
                decompressMBps: Double(size) / Double(fastestDecode) * 1_000
            )
        }

        /// bench.c's bookkeeping after a timed loop of `loops` operations that took `span` ns.
        private static func update(_ fastest: inout UInt64, _ loops: inout UInt64, span: UInt64) {
            if span > 0 {
                // bench.c multiplies in U64 and lets (U64)-1 * loops wrap; so does &*.
                if span < fastest &* loops { fastest = span / loops }
                loops = 1_000_000_000 / fastest + 1
            } else {
                loops *= 100
            }
        }
    }
}

/// `CLOCK_MONOTONIC` in nanoseconds, the clock bench.c's `UTIL_getTime` reads on Linux.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Spins until the clock moves on, like bench.c's `UTIL_waitForNextTick`.
func waitForNextTick() {
    let start = monotonicNanoseconds()
    while monotonicNanoseconds() == start {}
}
