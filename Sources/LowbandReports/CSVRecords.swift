/// Splits RFC 4180 CSV bytes into records of fields, strictly: every deviation is an error
/// naming the file and line.
package struct CSVRecords {
    /// One record: its fields and the line it starts on.
    package struct Record {
        package var line: Int
        package var fields: [String]
    }

    private static let quote = UInt8(ascii: "\"")
    private static let comma = UInt8(ascii: ",")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    private let bytes: [UInt8]
    private let file: String
    private var index: Int
    private var line = 1

    private init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        // A UTF-8 byte order mark, as spreadsheets write, is not part of the first field.
        index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// The records of `bytes`; a final line ending is optional, a blank line is an error.
    ///
    /// - Throws: the first problem in the file.
    package static func split(_ bytes: [UInt8], file: String) throws(BenchmarkCSVError) -> [Record] {
        var errors = BenchmarkCSVErrors()
        let records = split(bytes, file: file, errors: &errors)
        if let first = errors.listed.first { throw first }
        return records
    }

    /// The records of `bytes` that split cleanly; every problem goes to `errors`.
    ///
    /// After a malformed record the splitter skips to the next line feed and goes on, so one stray
    /// quote does not hide the problems after it. A line over ``BenchmarkCSV/maximumLineBytes``
    /// ends the split: such a file is no report.
    package static func split(_ bytes: [UInt8], file: String, errors: inout BenchmarkCSVErrors) -> [Record] {
        do {
            try checkLineLengths(bytes, file: file)
        } catch {
            errors.append(error)
            return []
        }
        var parser = CSVRecords(bytes: bytes, file: file)
        var records: [Record] = []
        while parser.index < bytes.count {
            let start = parser.line
            if bytes[parser.index] == lineFeed || bytes[parser.index] == carriageReturn {
                errors.append(parser.error("blank line; a report has no empty rows"))
                parser.skipLine()
                continue
            }
            do {
                records.append(Record(line: start, fields: try parser.record()))
            } catch {
                errors.append(error)
                parser.skipLine()
            }
        }
        return records
    }

    /// Moves past the next line feed (or to the end of the bytes).
    private mutating func skipLine() {
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == Self.lineFeed {
                line += 1
                return
            }
        }
    }

    private static func checkLineLengths(_ bytes: [UInt8], file: String) throws(BenchmarkCSVError) {
        var line = 1
        var length = 0
        for byte in bytes {
            if byte == lineFeed {
                line += 1
                length = 0
                continue
            }
            length += 1
            if length > BenchmarkCSV.maximumLineBytes {
                throw BenchmarkCSVError(
                    code: .tooLarge, file: file, line: line,
                    message: "line is longer than \(BenchmarkCSV.maximumLineBytes / 1024) KiB"
                )
            }
        }
    }

    private func error(_ message: String, code: BenchmarkCSVError.Code = .malformed, line: Int? = nil) -> BenchmarkCSVError {
        BenchmarkCSVError(code: code, file: file, line: line ?? self.line, message: message)
    }

    /// The fields up to and including the next line ending (or the end of the bytes).
    private mutating func record() throws(BenchmarkCSVError) -> [String] {
        var fields: [String] = []
        while true {
            fields.append(try field())
            guard index < bytes.count else { return fields }
            switch bytes[index] {
            case Self.comma:
                index += 1
            case Self.lineFeed:
                index += 1
                line += 1
                return fields
            case Self.carriageReturn:
                guard index + 1 < bytes.count, bytes[index + 1] == Self.lineFeed else {
                    throw error("carriage return not followed by a line feed")
                }
                index += 2
                line += 1
                return fields
            default:
                throw error("unexpected character after a closing quote; a quoted field must end at a comma or the line's end")
            }
        }
    }

    /// One field, quoted or not, stopping before the delimiter that ends it.
    private mutating func field() throws(BenchmarkCSVError) -> String {
        var content: [UInt8] = []
        let startLine = line
        if index < bytes.count, bytes[index] == Self.quote {
            index += 1
            while true {
                guard index < bytes.count else {
                    throw error("quoted field is never closed", line: startLine)
                }
                let byte = bytes[index]
                if byte == Self.quote {
                    if index + 1 < bytes.count, bytes[index + 1] == Self.quote {
                        content.append(Self.quote)
                        index += 2
                        continue
                    }
                    index += 1
                    break
                }
                if byte == Self.lineFeed { line += 1 }
                content.append(byte)
                index += 1
            }
        } else {
            while index < bytes.count {
                let byte = bytes[index]
                if byte == Self.comma || byte == Self.lineFeed || byte == Self.carriageReturn { break }
                if byte == Self.quote {
                    throw error("quote inside an unquoted field; quote the whole field and double the quote (\"\")")
                }
                content.append(byte)
                index += 1
            }
        }
        guard let text = String(validating: content, as: UTF8.self) else {
            throw error("field is not valid UTF-8", code: .invalidUTF8, line: startLine)
        }
        return text
    }
}
