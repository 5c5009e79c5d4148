import LowbandMessagePack

/// `c0 91 ff`: bytes as spaced lowercase hex, for readable failure messages.
func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { $0 < 16 ? "0\(String($0, radix: 16))" : String($0, radix: 16) }.joined(separator: " ")
}

/// Parses `"c0 91 ff"` (spaces optional) into bytes.
func fromHex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0 ... $0 + 1]), radix: 16)! }
}

/// The value's bytes as the writer produces them.
func encoded(_ value: MessagePackValue) throws -> [UInt8] {
    var writer = MessagePackWriter()
    try writer.write(value)
    return writer.bytes
}

/// `count` nested one-element arrays around a nil: `91 91 … 91 c0`.
func nestedArrays(_ count: Int) -> [UInt8] {
    [UInt8](repeating: 0x91, count: count) + [0xc0]
}
