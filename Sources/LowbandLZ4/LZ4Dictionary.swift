/// A dictionary for LZ4 block compression: bytes that compressor and decompressor both know,
/// so that even a small message finds matches.
///
/// LZ4 only looks back 64 KiB, so only the last ``maximumSize`` bytes are kept. Put the most
/// representative content last. Both sides must use byte-identical dictionaries; LZ4 cannot
/// detect a mismatch, it just produces other bytes or fails.
///
/// A dictionary is loaded into liblz4's fast compressor once, when it is made (16 KiB of state
/// and a copy of the bytes, shared by every copy of the value and read-only from then on), so
/// ``LZ4Block/compress(_:into:level:dictionary:)`` at a fast level starts each block from a copy
/// of that state instead of loading the dictionary again. Equality and hashing are the bytes'.
public struct LZ4Dictionary: Sendable, Hashable {
    /// The largest dictionary LZ4 uses (64 KiB).
    public static let maximumSize = 64 * 1024

    /// The dictionary content, at most ``maximumSize`` bytes.
    public let bytes: [UInt8]

    /// The fast compressor's stream with ``bytes`` loaded; nil when there are none.
    let loaded: LoadedFastDictionary?

    /// A dictionary of the last ``maximumSize`` bytes of `bytes`.
    public init(_ bytes: some Collection<UInt8>) {
        self.bytes = Array(bytes.suffix(Self.maximumSize))
        loaded = self.bytes.isEmpty ? nil : LoadedFastDictionary(self.bytes)
    }

    /// A dictionary made by concatenating sample payloads, the most representative last.
    ///
    /// When the samples add up to more than ``maximumSize`` bytes the earliest bytes are dropped.
    public init(samples: [[UInt8]]) {
        var taken: [ArraySlice<UInt8>] = []
        var remaining = Self.maximumSize
        for sample in samples.reversed() where remaining > 0 {
            let part = sample.suffix(remaining)
            taken.append(part)
            remaining -= part.count
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.maximumSize - remaining)
        for part in taken.reversed() {
            bytes.append(contentsOf: part)
        }
        self.bytes = bytes
        loaded = bytes.isEmpty ? nil : LoadedFastDictionary(bytes)
    }

    /// Two dictionaries are equal when their bytes are.
    public static func == (lhs: LZ4Dictionary, rhs: LZ4Dictionary) -> Bool {
        lhs.bytes == rhs.bytes
    }

    /// Hashes the bytes.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes)
    }
}
