/// The one CSV writer's rule (RFC 4180) for every file Lowband writes: a field is written as it
/// is unless it holds a comma, a quote, CR or LF; then it is quoted and its quotes doubled.
package enum CSVWriter {
    /// `field` as it stands in a CSV line.
    package static func field(_ field: String) -> String {
        guard field.utf8.contains(where: needsQuotes) else { return field }
        var bytes: [UInt8] = []
        append(field, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// One line: the fields, each by ``field(_:)``, separated by commas, ended by a line feed.
    package static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\n"
    }

    /// Appends `field` as it stands in a CSV line to `bytes`.
    package static func append(_ field: String, to bytes: inout [UInt8]) {
        guard field.utf8.contains(where: needsQuotes) else {
            bytes.append(contentsOf: field.utf8)
            return
        }
        bytes.append(UInt8(ascii: "\""))
        for byte in field.utf8 {
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsQuotes(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == 0x0A || byte == 0x0D
    }
}
