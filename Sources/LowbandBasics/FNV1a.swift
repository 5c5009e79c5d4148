/// FNV-1a, 64 bits: a running hash that is the same in every process and on every platform
/// (unlike `Hasher`, which is seeded per process). Not for anything an adversary chooses.
public struct FNV1a: Sendable, Hashable {
    /// The hash of everything added so far.
    public private(set) var value: UInt64

    /// The offset basis (the hash of nothing), or a hash to continue from.
    public init(value: UInt64 = 0xCBF2_9CE4_8422_2325) {
        self.value = value
    }

    /// Adds bytes.
    public mutating func add(_ bytes: some Sequence<UInt8>) {
        var hash = value
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        value = hash
    }

    /// Adds a text's UTF-8 bytes.
    public mutating func add(_ text: String) {
        add(text.utf8)
    }

    /// The hash of `bytes`.
    public static func of(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash = FNV1a()
        hash.add(bytes)
        return hash.value
    }
}

extension UInt64 {
    /// The value as 16 lower-case hex digits, zero-padded.
    public var hexDigits: String {
        let digits = String(self, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
