/// What one `lz4 -b`-style measurement found: size and best speeds, in lz4's units.
public struct LZ4BenchReport: Sendable, Hashable {
    /// The compressed size of the whole input (one block).
    public var compressedBytes: Int
    /// Compression speed of the fastest timed loop, MB/s with MB = 1,000,000 bytes.
    public var compressMBps: Double
    /// Decompression speed of the fastest timed loop, MB/s with MB = 1,000,000 bytes.
    public var decompressMBps: Double

    public init(compressedBytes: Int, compressMBps: Double, decompressMBps: Double) {
        self.compressedBytes = compressedBytes
        self.compressMBps = compressMBps
        self.decompressMBps = decompressMBps
    }

    /// The better of two reports of the same data: the faster speed of each direction.
    func best(_ other: LZ4BenchReport) -> LZ4BenchReport {
        LZ4BenchReport(
            compressedBytes: compressedBytes,
            compressMBps: max(compressMBps, other.compressMBps),
            decompressMBps: max(decompressMBps, other.decompressMBps)
        )
    }
}
