/// A JSON form of MessagePack that converts back to the same bytes.
///
/// Every ``MessagePackValue`` has one JSON spelling, and parsing that spelling gives back a value
/// that ``MessagePackWriter`` encodes to exactly the bytes of the original (when those were in
/// smallest form, which is what our writer and msgpack-python produce):
///
/// | MessagePack | JSON |
/// |---|---|
/// | nil, bool | `null`, `true`, `false` |
/// | int, uint | an integer, exact over the whole Int64 and UInt64 range |
/// | float64 | a number with `.` or an exponent (`1.0`, `1e+100`, `-0.0`) |
/// | float64 NaN, ±∞ | `{"$float64": "NaN"}`, `"-NaN"`, `"Infinity"`, `"-Infinity"`, or `"0x…"` bits |
/// | float32 | `{"$float32": 1.5}` (same strings for NaN and ±∞) |
/// | str | a string; `"`, `\` and control characters escaped, the rest as UTF-8 |
/// | bin | `{"$bin": "<base64>"}` |
/// | ext | `{"$ext": <type>, "data": "<base64>"}` |
/// | timestamp | `{"$timestamp": "1970-01-01T00:00:01.5Z"…, "seconds": 1, "nanoseconds": 500000000}` |
/// | array | an array |
/// | map, string keys, none starting with `$`, no repeats | an object, in map order |
/// | any other map | `{"$map": [[key, value], ...]}` |
///
/// When parsing, integers without `.` or exponent become `.int` (`.uint` above `Int64.max`),
/// other numbers float64; any object with a key starting with `$` is a tagged value and must be
/// one of the forms above. `docs/MSGPACK-JSON.md` describes the form in full.
public enum MessagePackJSON {
    /// The JSON text of `value`: compact on one line, or indented by two spaces when `pretty`.
    ///
    /// Pretty output keeps tagged scalars such as `{"$bin": "AAE="}` on one line.
    public static func render(_ value: MessagePackValue, pretty: Bool = false) -> String {
        String(decoding: renderUTF8(value, pretty: pretty), as: UTF8.self)
    }

    /// The JSON text of `value` as UTF-8 bytes.
    public static func renderUTF8(_ value: MessagePackValue, pretty: Bool = false) -> [UInt8] {
        var renderer = MessagePackJSONRenderer(pretty: pretty)
        renderer.write(value)
        return renderer.out
    }

    /// Parses exactly one JSON document (surrounding whitespace allowed).
    public static func parse(_ json: String, maxDepth: Int = MessagePackLimits.defaultMaxDepth) throws(MessagePackJSONError) -> MessagePackValue {
        try parse(Array(json.utf8), maxDepth: maxDepth)
    }

    /// Parses exactly one JSON document from UTF-8 bytes (surrounding whitespace allowed).
    public static func parse(_ json: [UInt8], maxDepth: Int = MessagePackLimits.defaultMaxDepth) throws(MessagePackJSONError) -> MessagePackValue {
        var parser = MessagePackJSONParser(json, maxDepth: maxDepth)
        guard let value = try parser.next() else {
            throw MessagePackJSONError(.unexpectedEnd, "input holds no JSON document", offset: parser.offset, in: json)
        }
        try parser.expectEnd()
        return value
    }
}
