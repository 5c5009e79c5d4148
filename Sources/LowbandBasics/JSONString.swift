/// The one JSON string escaper of every file Lowband writes by hand (traces, events, records,
/// reports, the MessagePack JSON view), where going through a Dictionary-based encoder would let
/// hash order reach the output.
///
/// The rules (RFC 8259): `"` and `\` are escaped, so are the C0 controls — `\b \f \n \r \t`
/// by name, the others as `\u00xx` with lower-case hex digits; everything else (DEL too, as
/// `JSONEncoder` writes it) is written as UTF-8.
/// `/` is escaped only when asked (`escapingSolidus`), the habit of Foundation's `JSONEncoder`
/// that `record.json` keeps so its bytes stay what `JSONEncoder` wrote.
package enum JSONString {
    /// `text` as a JSON string literal, quotes included.
    package static func quoted(_ text: String, escapingSolidus: Bool = false) -> String {
        // Most texts (event names, details, message texts) need no escape: one copy, not one
        // append per byte (trace lines of a 100-client crowd hour: 228,125).
        if !text.utf8.contains(where: { needsEscape($0, escapingSolidus: escapingSolidus) }) {
            return "\"" + text + "\""
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 8)
        append(text, to: &bytes, escapingSolidus: escapingSolidus)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal, quotes included, to `bytes`.
    package static func append(_ text: String, to bytes: inout [UInt8], escapingSolidus: Bool = false) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where needsEscape(byte, escapingSolidus: escapingSolidus) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start ..< index]))
                appendEscaped(byte, to: &bytes)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    @inline(__always)
    private static func needsEscape(_ byte: UInt8, escapingSolidus: Bool) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            || (escapingSolidus && byte == UInt8(ascii: "/"))
    }

    private static func appendEscaped(_ byte: UInt8, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
        default:
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]])
        }
    }
}
