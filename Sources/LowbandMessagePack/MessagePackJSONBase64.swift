/// Standard base64 (RFC 4648 §4, with `=` padding) for the `$bin` and `$ext` tags.
enum MessagePackJSONBase64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (index, symbol) in alphabet.enumerated() { table[Int(symbol)] = UInt8(index) }
        return table
    }()

    /// Appends the base64 text of `data` to `out`.
    static func encode(_ data: [UInt8], into out: inout [UInt8]) {
        var index = 0
        while index + 3 <= data.count {
            let chunk = UInt32(data[index]) << 16 | UInt32(data[index + 1]) << 8 | UInt32(data[index + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int(chunk >> UInt32(shift) & 0x3f)]) }
            index += 3
        }
        let rest = data.count - index
        guard rest > 0 else { return }
        let chunk = UInt32(data[index]) << 16 | (rest == 2 ? UInt32(data[index + 1]) << 8 : 0)
        out.append(alphabet[Int(chunk >> 18 & 0x3f)])
        out.append(alphabet[Int(chunk >> 12 & 0x3f)])
        out.append(rest == 2 ? alphabet[Int(chunk >> 6 & 0x3f)] : UInt8(ascii: "="))
        out.append(UInt8(ascii: "="))
    }

    /// The bytes of canonical padded base64 text, or the index of the first offending character
    /// and what is wrong with it.
    static func decode(_ text: String) -> Result<[UInt8], Failure> {
        let symbols = Array(text.utf8)
        guard symbols.count % 4 == 0 else {
            return .failure(Failure(index: symbols.count, reason: "base64 length \(symbols.count) is not a multiple of 4 (padding with '=' is required)"))
        }
        var padding = 0
        while padding < 2, padding < symbols.count, symbols[symbols.count - 1 - padding] == UInt8(ascii: "=") {
            padding += 1
        }
        var out: [UInt8] = []
        out.reserveCapacity(symbols.count / 4 * 3)
        var chunk: UInt32 = 0
        for (index, symbol) in symbols.enumerated() {
            let value = index < symbols.count - padding ? values[Int(symbol)] : 0
            guard value != 0xff else {
                let shown = symbol >= 0x21 && symbol < 0x7f ? "'\(Character(Unicode.Scalar(symbol)))'" : "byte 0x\(String(symbol, radix: 16))"
                return .failure(Failure(index: index, reason: "\(shown) is not a base64 character"))
            }
            chunk = chunk << 6 | UInt32(value)
            if index % 4 == 3 {
                out.append(UInt8(chunk >> 16 & 0xff))
                out.append(UInt8(chunk >> 8 & 0xff))
                out.append(UInt8(chunk & 0xff))
                chunk = 0
            }
        }
        out.removeLast(padding)
        if padding > 0 {
            // The bits the padding hides must be zero, so every byte string has one spelling.
            let last = values[Int(symbols[symbols.count - 1 - padding])]
            guard last & (padding == 1 ? 0x03 : 0x0f) == 0 else {
                return .failure(Failure(index: symbols.count - 1 - padding, reason: "base64 has non-zero bits before its padding"))
            }
        }
        return .success(out)
    }

    struct Failure: Error {
        var index: Int
        var reason: String
    }
}
