extension MessagePackJSONParser {
    // MARK: Numbers

    /// A number: an integer (`.int`, or `.uint` above `Int64.max`) when it has no fraction or
    /// exponent, else a float64; under a `$float32`/`$float64` tag always that float.
    mutating func parseNumber(hint: FloatHint?) throws(MessagePackJSONError) -> MessagePackValue {
        let start = offset
        let negative = peek() == UInt8(ascii: "-")
        if negative {
            offset += 1
            if peek() == UInt8(ascii: "I") { throw nonFinite(at: start) }
        }
        guard isDigit(peek()) else {
            throw failure(peek() == nil ? .unexpectedEnd : .syntax, "expected a digit after '-', found \(found())", at: offset)
        }
        if peek() == UInt8(ascii: "0") {
            offset += 1
            if isDigit(peek()) { throw failure(.syntax, "numbers may not have leading zeros", at: start) }
        } else {
            skipDigits()
        }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            offset += 1
            try requireDigit(after: "'.'")
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            try requireDigit(after: "the exponent")
        }
        let text = String(decoding: bytes[start ..< offset], as: UTF8.self)
        switch hint {
        case .float32:
            guard let number = Float(text), number.isFinite else { throw outOfRange(text, "float32", at: start) }
            return .float(number)
        case .float64:
            return .double(try double(text, at: start))
        case nil:
            return isInteger ? try integer(text, negative: negative, at: start) : .double(try double(text, at: start))
        }
    }

    private func double(_ text: String, at start: Int) throws(MessagePackJSONError) -> Double {
        guard let number = Double(text), number.isFinite else { throw outOfRange(text, "float64", at: start) }
        return number
    }

    private func integer(_ text: String, negative: Bool, at start: Int) throws(MessagePackJSONError) -> MessagePackValue {
        var magnitude: UInt64 = 0
        for digit in text.utf8.dropFirst(negative ? 1 : 0) {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { throw outOfRange(text, "integer", at: start) }
            magnitude = sum
        }
        if !negative {
            return magnitude <= UInt64(Int64.max) ? .int(Int64(magnitude)) : .uint(magnitude)
        }
        guard magnitude <= Int64.min.magnitude else { throw outOfRange(text, "integer", at: start) }
        return .int(magnitude == Int64.min.magnitude ? Int64.min : -Int64(magnitude))
    }

    private func outOfRange(_ text: String, _ what: String, at start: Int) -> MessagePackJSONError {
        let range = switch what {
        case "integer": "-9223372036854775808…18446744073709551615"
        case "float32": "about ±3.4e38"
        default: "about ±1.8e308"
        }
        return failure(.numberOutOfRange, "\(text) is outside the \(what) range (\(range))", at: start)
    }

    private func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while isDigit(peek()) { offset += 1 }
    }

    private mutating func requireDigit(after what: String) throws(MessagePackJSONError) {
        guard isDigit(peek()) else {
            throw failure(peek() == nil ? .unexpectedEnd : .syntax, "expected a digit after \(what), found \(found())", at: offset)
        }
        skipDigits()
    }

    // MARK: Strings

    /// A string, its escapes decoded and its UTF-8 checked.
    mutating func parseString() throws(MessagePackJSONError) -> String {
        let start = offset
        offset += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek() else {
                throw failure(.unexpectedEnd, "string is not closed before the end of the input", at: start)
            }
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &utf8)
            case 0x00 ..< 0x20:
                throw failure(.invalidString, "control character U+00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true)) must be escaped in a string (e.g. \\n, \\t, \\u0001)", at: offset)
            case 0x20 ..< 0x80:
                utf8.append(byte)
                offset += 1
            default:
                let count = try validUTF8Length(at: offset)
                utf8.append(contentsOf: bytes[offset ..< offset + count])
                offset += count
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(MessagePackJSONError) {
        let start = offset
        offset += 1
        guard let byte = peek() else {
            throw failure(.unexpectedEnd, "input ends inside an escape sequence", at: start)
        }
        offset += 1
        let simple: UInt8? = switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0c
        case UInt8(ascii: "n"): 0x0a
        case UInt8(ascii: "r"): 0x0d
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
        if let simple {
            utf8.append(simple)
            return
        }
        guard byte == UInt8(ascii: "u") else {
            offset = start + 1
            throw failure(.invalidString, "invalid escape: a backslash followed by \(found()) (use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX)", at: start)
        }
        var scalar = try hexQuad(escapeAt: start)
        if (0xdc00 ..< 0xe000).contains(scalar) {
            throw failure(.invalidString, "\\u\(String(scalar, radix: 16, uppercase: true)) is a low surrogate without a high surrogate before it", at: start)
        }
        if (0xd800 ..< 0xdc00).contains(scalar) {
            let lowStart = offset
            guard bytes[offset...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                throw failure(.invalidString, "\\u\(String(scalar, radix: 16, uppercase: true)) is a high surrogate not followed by a \\u low surrogate", at: start)
            }
            offset += 2
            let low = try hexQuad(escapeAt: lowStart)
            guard (0xdc00 ..< 0xe000).contains(low) else {
                throw failure(.invalidString, "\\u\(String(scalar, radix: 16, uppercase: true)) is a high surrogate not followed by a low surrogate", at: start)
            }
            scalar = 0x10000 + (scalar - 0xd800) << 10 + (low - 0xdc00)
        }
        if let unicode = Unicode.Scalar(scalar) {
            UTF8.encode(unicode) { utf8.append($0) }
        }
    }

    private mutating func hexQuad(escapeAt start: Int) throws(MessagePackJSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0 ..< 4 {
            let digit: UInt8? = switch peek() {
            case let byte? where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case let byte? where byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case let byte? where byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
            guard let digit else {
                throw failure(peek() == nil ? .unexpectedEnd : .invalidString, "\\u must be followed by four hex digits, found \(found())", at: start)
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence at `position` (RFC 3629: no overlong forms,
    /// no surrogates, nothing above U+10FFFF).
    private func validUTF8Length(at position: Int) throws(MessagePackJSONError) -> Int {
        let lead = bytes[position]
        let (count, secondRange): (Int, ClosedRange<UInt8>) = switch lead {
        case 0xc2 ... 0xdf: (2, 0x80 ... 0xbf)
        case 0xe0: (3, 0xa0 ... 0xbf)
        case 0xed: (3, 0x80 ... 0x9f)
        case 0xe1 ... 0xef: (3, 0x80 ... 0xbf)
        case 0xf0: (4, 0x90 ... 0xbf)
        case 0xf1 ... 0xf3: (4, 0x80 ... 0xbf)
        case 0xf4: (4, 0x80 ... 0x8f)
        default: (0, 0 ... 0)
        }
        var valid = count > 0 && position + count <= bytes.count
        if valid {
            valid = secondRange.contains(bytes[position + 1])
                && bytes[position + 2 ..< position + count].allSatisfy { $0 & 0xc0 == 0x80 }
        }
        guard valid else {
            throw failure(.invalidString, "invalid UTF-8 in a string (byte 0x\(String(lead, radix: 16, uppercase: true)) does not start a well-formed sequence)", at: position)
        }
        return count
    }
}
