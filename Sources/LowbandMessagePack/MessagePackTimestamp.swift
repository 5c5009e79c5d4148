/// The MessagePack timestamp extension (type -1): seconds and nanoseconds since the Unix epoch.
///
/// Seconds may be negative (before 1970); nanoseconds are always 0 ..< 1_000_000_000 and count
/// forwards from `seconds`, so -0.5 s is `seconds: -1, nanoseconds: 500_000_000`.
public struct MessagePackTimestamp: Hashable, Sendable, Codable {
    /// Whole seconds since the Unix epoch; negative before 1970.
    public var seconds: Int64
    /// Nanoseconds after `seconds`, 0 ..< 1_000_000_000.
    public var nanoseconds: UInt32

    /// The extension type the MessagePack spec reserves for timestamps.
    public static let extensionType: Int8 = -1

    /// Creates a timestamp; `nanoseconds` must be below one billion.
    public init(seconds: Int64, nanoseconds: UInt32 = 0) {
        precondition(nanoseconds < 1_000_000_000, "nanoseconds must be below 1_000_000_000")
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// The length of the smallest encoding's data: 4 (32-bit), 8 (64-bit) or 12 (96-bit).
    public var encodedDataLength: Int {
        if seconds >= 0, seconds >> 34 == 0 {
            return (nanoseconds == 0 && seconds >> 32 == 0) ? 4 : 8
        }
        return 12
    }

    /// Parses the data of a type -1 extension (4, 8 or 12 bytes), or nil if it is malformed.
    public init?<Bytes: RandomAccessCollection>(extensionData data: Bytes) where Bytes.Element == UInt8, Bytes.Index == Int {
        let start = data.startIndex
        func be(_ from: Int, _ count: Int) -> UInt64 {
            var value: UInt64 = 0
            for index in from ..< from + count { value = value << 8 | UInt64(data[start + index]) }
            return value
        }
        switch data.count {
        case 4:
            self.init(seconds: Int64(be(0, 4)), nanoseconds: 0)
        case 8:
            let packed = be(0, 8)
            let nanos = UInt32(truncatingIfNeeded: packed >> 34)
            guard nanos < 1_000_000_000 else { return nil }
            self.init(seconds: Int64(packed & 0x3_FFFF_FFFF), nanoseconds: nanos)
        case 12:
            let nanos = UInt32(truncatingIfNeeded: be(0, 4))
            guard nanos < 1_000_000_000 else { return nil }
            self.init(seconds: Int64(bitPattern: be(4, 8)), nanoseconds: nanos)
        default:
            return nil
        }
    }

    /// The data bytes of the smallest encoding, without the extension header.
    public var extensionData: [UInt8] {
        var bytes: [UInt8] = []
        switch encodedDataLength {
        case 4:
            appendBigEndian(UInt32(seconds), to: &bytes)
        case 8:
            appendBigEndian(UInt64(nanoseconds) << 34 | UInt64(seconds), to: &bytes)
        default:
            appendBigEndian(nanoseconds, to: &bytes)
            appendBigEndian(UInt64(bitPattern: seconds), to: &bytes)
        }
        return bytes
    }
}

@inline(__always)
func appendBigEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
    var big = value.bigEndian
    withUnsafeBytes(of: &big) { bytes.append(contentsOf: $0) }
}
