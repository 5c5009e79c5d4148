public import LowbandLZ4

/// A way of compressing a payload, with the fixed id the report converter relies on.
public struct CompressionMethod: Sendable, Identifiable, CustomStringConvertible {
    /// What does the work.
    public enum Algorithm: Sendable {
        /// A plain copy: the baseline every ratio and speed is read against.
        case none
        /// A raw LZ4 block through our `LowbandLZ4` wrapper, with an optional shared dictionary.
        case lz4(LZ4Level, dictionary: LZ4Dictionary?)
        /// A zlib stream (RFC 1950) through the system libz at `level` 1 ... 9.
        case zlib(level: Int)
        /// A zstd frame through the system libzstd at `level`, with an optional trained dictionary.
        case zstd(level: Int, dictionary: ZstdDictionary?)
    }

    /// `none`, `lz4-a1`, `lz4hc-9`, `lz4-dict`, `zstd-3-dict`, `zlib-6`, …
    public let id: String
    public let algorithm: Algorithm

    public init(id: String, algorithm: Algorithm) {
        self.id = id
        self.algorithm = algorithm
    }

    public var description: String { id }

    /// Every method of the suite, in report order; `dictionary` is the one `lz4-dict` uses
    /// (see ``CompressionDictionary``), `zstdDictionary` the one `zstd-3-dict` uses (see
    /// ``ZstdDictionary``).
    public static func catalogue(dictionary: LZ4Dictionary, zstdDictionary: ZstdDictionary) -> [CompressionMethod] {
        [
            CompressionMethod(id: "none", algorithm: .none),
            CompressionMethod(id: "lz4-a1", algorithm: .lz4(.fast(acceleration: 1), dictionary: nil)),
            CompressionMethod(id: "lz4-a4", algorithm: .lz4(.fast(acceleration: 4), dictionary: nil)),
            CompressionMethod(id: "lz4-a16", algorithm: .lz4(.fast(acceleration: 16), dictionary: nil)),
            CompressionMethod(id: "lz4hc-9", algorithm: .lz4(.high(level: 9), dictionary: nil)),
            CompressionMethod(id: "lz4hc-12", algorithm: .lz4(.high(level: 12), dictionary: nil)),
            CompressionMethod(id: "lz4-dict", algorithm: .lz4(.fast(acceleration: 1), dictionary: dictionary)),
            CompressionMethod(id: "zstd-3", algorithm: .zstd(level: 3, dictionary: nil)),
            CompressionMethod(id: "zstd-3-dict", algorithm: .zstd(level: 3, dictionary: zstdDictionary)),
            CompressionMethod(id: "zlib-1", algorithm: .zlib(level: 1)),
            CompressionMethod(id: "zlib-6", algorithm: .zlib(level: 6)),
        ]
    }
}
