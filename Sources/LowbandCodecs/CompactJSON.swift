import LowbandBasics
import LowbandMessagePack

/// JSON as apps write it, byte for byte what Python's
/// `json.dumps(o, separators=(",", ":"), ensure_ascii=False)` gives in UTF-8: no spaces, `/` and
/// non-ASCII text as they are (only `"`, `\` and the C0 controls escaped, ``JSONString``'s rules),
/// integers in decimal and floats as Python's `repr` writes them.
///
/// A value JSON cannot hold (binary, an extension, a timestamp, a map with keys that are not
/// strings, NaN or ±∞) is written in ``MessagePackJSON``'s tagged form, as the payload's file
/// would have given it.
enum CompactJSON {
    static func encode(_ value: MessagePackValue, reservingCapacity capacity: Int = 0) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        write(value, to: &out)
        return out
    }

    private static func write(_ value: MessagePackValue, to out: inout [UInt8]) {
        switch value {
        case .nil: out.append(contentsOf: "null".utf8)
        case let .bool(flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case let .int(number): out.append(contentsOf: String(number).utf8)
        case let .uint(number): out.append(contentsOf: String(number).utf8)
        case let .double(number) where number.isFinite: out.append(contentsOf: pythonRepr(number).utf8)
        case let .float(number) where number.isFinite: out.append(contentsOf: pythonRepr(Double(number)).utf8)
        case let .string(text): JSONString.append(text, to: &out)
        case let .array(elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .map(entries) where entries.allSatisfy({ if case .string = $0.key { true } else { false } }):
            out.append(UInt8(ascii: "{"))
            for (index, entry) in entries.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(entry.key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(entry.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        default:
            out.append(contentsOf: MessagePackJSON.renderUTF8(value))
        }
    }

    /// `repr(float)` in Python: the shortest digits that read back to the same double (as
    /// Swift's `description` finds them), fixed notation with at least `.0` when the decimal
    /// point falls within −4 < position ≤ 16, else `d.ddde±XX`.
    static func pythonRepr(_ number: Double) -> String {
        let text = number.description
        var sign = ""
        var body = Substring(text)
        if body.hasPrefix("-") {
            sign = "-"
            body = body.dropFirst()
        }
        var exponent = 0
        if let e = body.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(body[body.index(after: e)...]) ?? 0
            body = body[..<e]
        }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        var digits = Array(whole + fraction)
        // value = 0.DIGITS × 10^point
        var point = whole.count + exponent
        while digits.count > 1, digits.first == "0" {
            digits.removeFirst()
            point -= 1
        }
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        if digits == ["0"] { return sign + "0.0" }
        let characters = String(digits)
        if point > -4, point <= 16 {
            if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + characters }
            if point >= digits.count { return sign + characters + String(repeating: "0", count: point - digits.count) + ".0" }
            return sign + String(digits[..<point]) + "." + String(digits[point...])
        }
        let mantissa = digits.count == 1 ? characters : String(digits[0]) + "." + String(digits[1...])
        let power = point - 1
        let magnitude = abs(power)
        return sign + mantissa + "e" + (power < 0 ? "-" : "+") + (magnitude < 10 ? "0" : "") + String(magnitude)
    }
}
