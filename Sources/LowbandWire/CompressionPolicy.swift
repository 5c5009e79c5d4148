public import LowbandLZ4

/// When and how payloads are LZ4-compressed on the way out.
///
/// A payload is compressed only when it is at least `minimumSize` bytes and the result,
/// including the 4-byte uncompressed-length prefix, is smaller than the original. Small
/// messages (pings, acks, read receipts) skip the compressor's cost entirely.
///
/// A frame whose `Frame/compressionDictionary` names one of ``dictionaries`` (the one agreed at
/// login) is compressed with it from ``dictionaryMinimumSize`` bytes, and its header names the
/// dictionary; the decoder decompresses such a frame with the dictionary it names.
public struct CompressionPolicy: Hashable, Sendable {
    /// Payloads shorter than this are sent as they are.
    public var minimumSize: Int
    /// How hard the compressor works; the default is LZ4's fastest.
    public var level: LZ4Level
    /// A dictionary both peers were given out of band, used for every frame that names no wire
    /// dictionary; nil for plain LZ4 blocks. Nothing on the wire says it was used.
    public var dictionary: LZ4Dictionary?
    /// The wire dictionaries this peer has: a frame may name any of them, and a frame that
    /// names another is refused (`WireError/Code/unknownDictionary`). By default the ones this
    /// build ships (``WireDictionary/shipped``).
    public var dictionaries: [WireDictionary]
    /// Payloads from this many bytes are compressed when their frame names a wire dictionary:
    /// with one, a 60-byte push already shrinks.
    public var dictionaryMinimumSize: Int

    /// A policy; by default payloads from 256 bytes are compressed at LZ4's fast level, without a
    /// dictionary, and from 32 bytes with a wire dictionary the frame names.
    public init(
        minimumSize: Int = 256, level: LZ4Level = .fast(acceleration: 1), dictionary: LZ4Dictionary? = nil,
        dictionaries: [WireDictionary] = WireDictionary.shipped, dictionaryMinimumSize: Int = 32
    ) {
        self.minimumSize = minimumSize
        self.level = level
        self.dictionary = dictionary
        self.dictionaries = dictionaries
        self.dictionaryMinimumSize = dictionaryMinimumSize
    }

    /// Never compress.
    public static let disabled = CompressionPolicy(minimumSize: .max, dictionaryMinimumSize: .max)

    /// The wire dictionary `id` among ``dictionaries``, or nil when this peer does not have it.
    public func dictionary(_ id: WireDictionary.ID) -> WireDictionary? {
        dictionaries.first { $0.id == id }
    }

    /// The ids of ``dictionaries``, as a sentence: `1, 3` or `none`.
    var dictionaryList: String {
        dictionaries.isEmpty ? "none" : dictionaries.map(\.id.description).joined(separator: ", ")
    }
}
