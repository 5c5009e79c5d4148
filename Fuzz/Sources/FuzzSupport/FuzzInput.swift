/// The fuzzer's bytes as a cursor: a target takes its choices (sizes, flags) from the front and
/// the rest as the data under test, so libFuzzer mutates both.
///
/// Taking past the end gives zeros, never a crash: every input is a valid program for the target.
public struct FuzzInput {
    public let bytes: [UInt8]
    public private(set) var offset = 0

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    }

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The next byte, or 0 at the end.
    public mutating func takeByte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next four bytes as a big-endian number (missing bytes count as 0).
    public mutating func takeUInt32() -> UInt32 {
        (0 ..< 4).reduce(UInt32(0)) { value, _ in value << 8 | UInt32(takeByte()) }
    }

    /// Up to `count` bytes.
    public mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, offset + count)
        defer { offset = end }
        return Array(bytes[offset ..< end])
    }

    /// Everything not taken yet.
    public mutating func rest() -> [UInt8] {
        take(bytes.count - offset)
    }
}
