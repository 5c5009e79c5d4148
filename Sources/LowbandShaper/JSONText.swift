/// JSON text for the hand-written lines whose key order is fixed (traces, events, reports),
/// where going through a Dictionary-based encoder would let hash order reach the output.
package enum JSONText {
    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped,
    /// everything else kept as UTF-8.
    package static func quoted(_ text: String) -> String {
        // Most texts (event names, details, message texts) need no escape: one copy, not one
        // append per scalar (trace lines of a 100-client crowd hour: 228,125).
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }) {
            return "\"" + text + "\""
        }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
