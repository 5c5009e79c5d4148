public import LowbandLZ4

/// When and how payloads are LZ4-compressed on the way out.
///
/// A payload is compressed only when it is at least `minimumSize` bytes and the result,
/// including the 4-byte uncompressed-length prefix, is smaller than the original. Small
/// messages (pings, acks, read receipts) skip the compressor's cost entirely.
public struct CompressionPolicy: Hashable, Sendable {
    /// Payloads shorter than this are sent as they are.
    public var minimumSize: Int
    /// How hard the compressor works; the default is LZ4's fastest.
    public var level: LZ4Level
    /// A dictionary both peers share; nil for plain LZ4 blocks.
    public var dictionary: LZ4Dictionary?

    /// A policy; by default payloads from 256 bytes are compressed at LZ4's fast level, without a
    /// dictionary.
    public init(minimumSize: Int = 256, level: LZ4Level = .fast(acceleration: 1), dictionary: LZ4Dictionary? = nil) {
        self.minimumSize = minimumSize
        self.level = level
        self.dictionary = dictionary
    }

    /// Never compress.
    public static let disabled = CompressionPolicy(minimumSize: .max)
}
