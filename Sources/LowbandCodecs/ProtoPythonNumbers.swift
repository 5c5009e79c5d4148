/// Python's `int(text)` and `float(text)` on a string, as json_format's Timestamp and Duration
/// parsers call them on pieces of the text: so the strings those accept and refuse are the ones
/// Python protobuf accepts and refuses.
///
/// Both first turn any Unicode decimal digit into its ASCII digit and non-ASCII white space into a
/// space, strip ASCII white space at both ends, and allow `_` only between two digits; `int`
/// then takes an optional sign and decimal digits, `float` a decimal number with an optional
/// exponent.
enum ProtoPythonNumbers {
    /// What Python's `int(text)` gives, clamped to `Int64` (Python's integers have no bound;
    /// every caller here checks a range far inside `Int64`); nil where it raises `ValueError`.
    static func int(_ text: some Collection<Unicode.Scalar>) -> Int64? {
        guard let bytes = digitsOnly(text), !bytes.isEmpty else { return nil }
        var index = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-") {
            negative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        guard index < bytes.count, isDigit(bytes[index]) else { return nil }
        var magnitude: Int64 = 0
        var overflow = false
        for byte in bytes[index...] {
            guard isDigit(byte) else { return nil }
            let (times, timesOverflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, sumOverflow) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            overflow = overflow || timesOverflow || sumOverflow
            magnitude = sum
        }
        if overflow { return negative ? .min : .max }
        return negative ? -magnitude : magnitude
    }

    /// What Python's `float(text)` gives for a decimal number; nil where it raises `ValueError`
    /// (and for `inf` and `nan`, which no caller here can be given).
    static func float(_ text: some Collection<Unicode.Scalar>) -> Double? {
        guard let bytes = digitsOnly(text), isDecimal(bytes) else { return nil }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    /// `text` in ASCII with white space stripped and underscores between digits dropped; nil
    /// where a character could not be converted or an underscore is misplaced.
    private static func digitsOnly(_ text: some Collection<Unicode.Scalar>) -> [UInt8]? {
        var ascii: [UInt8] = []
        ascii.reserveCapacity(text.count)
        for scalar in text {
            if scalar.isASCII {
                ascii.append(UInt8(scalar.value))
            } else if scalar.properties.isWhitespace {
                ascii.append(UInt8(ascii: " "))
            } else if let digit = decimalDigit(scalar) {
                ascii.append(UInt8(ascii: "0") + UInt8(digit))
            } else {
                return nil
            }
        }
        var kept: [UInt8] = []
        kept.reserveCapacity(ascii.count)
        var previous: UInt8 = 0
        for byte in ascii {
            if byte == UInt8(ascii: "_") {
                guard isDigit(previous) else { return nil }
            } else {
                guard previous != UInt8(ascii: "_") || isDigit(byte) else { return nil }
                kept.append(byte)
            }
            previous = byte
        }
        guard previous != UInt8(ascii: "_") else { return nil }
        let isSpace: (UInt8) -> Bool = { [9, 10, 11, 12, 13, 32].contains($0) }
        guard let first = kept.firstIndex(where: { !isSpace($0) }), let last = kept.lastIndex(where: { !isSpace($0) }) else { return [] }
        return Array(kept[first ... last])
    }

    /// `[sign] (digits [. digits] | . digits) [(e|E) [sign] digits]`.
    private static func isDecimal(_ bytes: [UInt8]) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            return index - start
        }
        func sign() {
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        }
        sign()
        var mantissa = digits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            sign()
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }

    /// The value of a Unicode decimal digit (general category Nd), as Python's `\d` and `int`
    /// read any of them.
    static func decimalDigit(_ scalar: Unicode.Scalar) -> Int? {
        guard scalar.properties.generalCategory == .decimalNumber, let value = scalar.properties.numericValue else { return nil }
        return Int(value)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
