import LowbandBasics

/// Writes the JSON form of a ``MessagePackValue`` as UTF-8 (see ``MessagePackJSON``).
struct MessagePackJSONRenderer {
    private(set) var out: [UInt8] = []
    let pretty: Bool

    init(pretty: Bool) {
        self.pretty = pretty
    }

    mutating func write(_ value: MessagePackValue, indent: Int = 0) {
        switch value {
        case .nil: append("null")
        case let .bool(flag): append(flag ? "true" : "false")
        case let .int(number): append(String(number))
        case let .uint(number): append(String(number))
        case let .double(number):
            if let text = Self.numberText(number) {
                append(text)
            } else {
                openTag("$float64")
                writeString(Self.specialText(number))
                append("}")
            }
        case let .float(number):
            openTag("$float32")
            if let text = Self.numberText(number) { append(text) } else { writeString(Self.specialText(number)) }
            append("}")
        case let .string(text): writeString(text)
        case let .binary(data):
            openTag("$bin")
            writeBase64(data)
            append("}")
        case let .extension(type, data):
            openTag("$ext")
            append(String(type))
            field("data")
            writeBase64(data)
            append("}")
        case let .timestamp(timestamp):
            openTag("$timestamp")
            writeString(MessagePackJSONTime.text(of: timestamp))
            field("seconds")
            append(String(timestamp.seconds))
            field("nanoseconds")
            append(String(timestamp.nanoseconds))
            append("}")
        case let .array(elements):
            writeContainer("[", "]", elements.count, indent) { renderer, index in
                renderer.write(elements[index], indent: indent + 1)
            }
        case let .map(entries):
            if let keys = Self.plainKeys(entries) {
                writeContainer("{", "}", entries.count, indent) { renderer, index in
                    renderer.writeString(keys[index])
                    renderer.append(renderer.pretty ? ": " : ":")
                    renderer.write(entries[index].value, indent: indent + 1)
                }
            } else {
                writeTaggedMap(entries, indent: indent)
            }
        }
    }

    /// `{"$map": [[k, v], ...]}`; in pretty form each pair starts on its own line.
    private mutating func writeTaggedMap(_ entries: [(key: MessagePackValue, value: MessagePackValue)], indent: Int) {
        writeContainer("{", "}", 1, indent) { renderer, _ in
            renderer.append(renderer.pretty ? "\"$map\": " : "\"$map\":")
            renderer.writeContainer("[", "]", entries.count, indent + 1) { renderer, index in
                renderer.append("[")
                renderer.write(entries[index].key, indent: indent + 2)
                renderer.append(renderer.pretty ? ", " : ",")
                renderer.write(entries[index].value, indent: indent + 2)
                renderer.append("]")
            }
        }
    }

    private mutating func writeContainer(_ open: String, _ close: String, _ count: Int, _ indent: Int, element: (inout Self, Int) -> Void) {
        append(open)
        guard count > 0 else { return append(close) }
        for index in 0 ..< count {
            if index > 0 { append(",") }
            newline(indent + 1)
            element(&self, index)
        }
        newline(indent)
        append(close)
    }

    /// `{"$tag":`, the start of a tagged value; tagged scalars stay on one line even when pretty.
    private mutating func openTag(_ name: String) {
        append(pretty ? "{\"\(name)\": " : "{\"\(name)\":")
    }

    /// `,"name":` inside a tagged scalar.
    private mutating func field(_ name: String) {
        append(pretty ? ", \"\(name)\": " : ",\"\(name)\":")
    }

    private mutating func writeBase64(_ data: [UInt8]) {
        out.append(UInt8(ascii: "\""))
        MessagePackJSONBase64.encode(data, into: &out)
        out.append(UInt8(ascii: "\""))
    }

    private mutating func newline(_ indent: Int) {
        guard pretty else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private mutating func append(_ text: String) {
        out.append(contentsOf: text.utf8)
    }

    /// A JSON string (`JSONString`'s escapes).
    mutating func writeString(_ text: String) {
        JSONString.append(text, to: &out)
    }

    /// The keys when every key is a string, none starts with `$` and none repeats; else nil.
    private static func plainKeys(_ entries: [(key: MessagePackValue, value: MessagePackValue)]) -> [String]? {
        var keys: [String] = []
        keys.reserveCapacity(entries.count)
        var seen = Set<[UInt8]>()
        for entry in entries {
            guard case let .string(key) = entry.key, key.utf8.first != UInt8(ascii: "$"),
                  seen.insert(Array(key.utf8)).inserted
            else { return nil }
            keys.append(key)
        }
        return keys
    }

    /// Shortest round-tripping decimal text, always with `.` or an exponent; nil for NaN and ±∞.
    static func numberText<F: BinaryFloatingPoint & LosslessStringConvertible>(_ number: F) -> String? {
        guard number.isFinite else { return nil }
        let text = number.description
        return text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") } ? text : text + ".0"
    }

    /// `NaN`, `-NaN`, `Infinity`, `-Infinity`, or the bit pattern `0x…` of a NaN with a payload.
    static func specialText(_ number: Double) -> String {
        specialText(number, bits: number.bitPattern, width: 16)
    }

    static func specialText(_ number: Float) -> String {
        specialText(number, bits: UInt64(number.bitPattern), width: 8)
    }

    private static func specialText<F: BinaryFloatingPoint>(_ number: F, bits: UInt64, width: Int) -> String {
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number.significandBitPattern == F.nan.significandBitPattern {
            return number.sign == .minus ? "-NaN" : "NaN"
        }
        let hex = String(bits, radix: 16)
        return "0x" + String(repeating: "0", count: width - hex.count) + hex
    }
}
