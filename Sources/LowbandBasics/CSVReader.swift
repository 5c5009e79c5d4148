/// The one CSV reader of every file Lowband reads back (benchmark reports and their samples,
/// package-benchmark exports, `breakdown.csv`, `explore.csv`): RFC 4180, strictly — every
/// deviation is a ``Problem`` naming the line, and a line longer than the caller's cap ends the
/// reading before anything is kept of it.
package struct CSVReader {
    /// One record: its fields and the line it starts on.
    package struct Record: Sendable, Hashable {
        /// The line the record starts on, counted from 1.
        package var line: Int
        /// The fields, unquoted.
        package var fields: [String]
    }

    /// What is wrong with a file, and where.
    package struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The kind of problem, for callers that map it to their own error codes.
        package enum Kind: Sendable, Hashable {
            /// A line over the cap.
            case lineTooLong
            /// A field that is not UTF-8.
            case invalidUTF8
            /// Anything else that is not RFC 4180: a stray quote, a lone CR, a blank line.
            case malformed
        }

        /// The kind of problem.
        package var kind: Kind
        /// The line at fault, counted from 1.
        package var line: Int
        /// What is wrong, in words.
        package var message: String
        /// `line N: message`.
        package var description: String { "line \(line): \(message)" }
    }

    private static let quote = UInt8(ascii: "\"")
    private static let comma = UInt8(ascii: ",")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    private static let blankLine = "blank line; a CSV file has no empty rows"

    private let bytes: [UInt8]
    private var index: Int
    private var line = 1

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark, as spreadsheets write, is not part of the first field.
        index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// Calls `body` with each record of `bytes` in order, without keeping them (for files of
    /// millions of rows read for a few).
    ///
    /// - Throws: the first ``Problem`` in the file, or the first error `body` throws; either ends
    ///   the reading.
    package static func forEachRecord(in bytes: [UInt8], maximumLineBytes: Int, _ body: (Record) throws -> Void) throws {
        try checkLineLengths(bytes, maximum: maximumLineBytes)
        var parser = CSVReader(bytes: bytes)
        while parser.index < bytes.count {
            let start = parser.line
            if bytes[parser.index] == lineFeed || bytes[parser.index] == carriageReturn {
                throw parser.error(blankLine)
            }
            try body(Record(line: start, fields: try parser.record()))
        }
    }

    /// The records of `bytes`; a final line ending is optional, a blank line is an error.
    ///
    /// - Throws: the first problem in the file.
    package static func records(_ bytes: [UInt8], maximumLineBytes: Int) throws(Problem) -> [Record] {
        var first: Problem?
        let records = records(bytes, maximumLineBytes: maximumLineBytes) { problem in
            if first == nil { first = problem }
        }
        if let first { throw first }
        return records
    }

    /// The records of `bytes` that split cleanly.
    ///
    /// After a malformed record the reader skips to the next line feed and goes on, so one stray
    /// quote does not hide the problems after it; every problem goes to `problem`, in line order.
    /// A line over `maximumLineBytes` ends the reading with no records: such a file is not what
    /// the caller reads.
    package static func records(_ bytes: [UInt8], maximumLineBytes: Int, problem: (Problem) -> Void) -> [Record] {
        do {
            try checkLineLengths(bytes, maximum: maximumLineBytes)
        } catch {
            problem(error)
            return []
        }
        var parser = CSVReader(bytes: bytes)
        var records: [Record] = []
        while parser.index < bytes.count {
            let start = parser.line
            if bytes[parser.index] == lineFeed || bytes[parser.index] == carriageReturn {
                problem(parser.error(blankLine))
                parser.skipLine()
                continue
            }
            do {
                records.append(Record(line: start, fields: try parser.record()))
            } catch {
                problem(error)
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

    private static func checkLineLengths(_ bytes: [UInt8], maximum: Int) throws(Problem) {
        var line = 1
        var length = 0
        for byte in bytes {
            if byte == lineFeed {
                line += 1
                length = 0
                continue
            }
            length += 1
            if length > maximum {
                let size = maximum % 1024 == 0 ? "\(maximum / 1024) KiB" : "\(maximum) bytes"
                throw Problem(kind: .lineTooLong, line: line, message: "line is longer than \(size)")
            }
        }
    }

    private func error(_ message: String, kind: Problem.Kind = .malformed, line: Int? = nil) -> Problem {
        Problem(kind: kind, line: line ?? self.line, message: message)
    }

    /// The fields up to and including the next line ending (or the end of the bytes).
    private mutating func record() throws(Problem) -> [String] {
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
    private mutating func field() throws(Problem) -> String {
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
            throw error("field is not valid UTF-8", kind: .invalidUTF8, line: startLine)
        }
        return text
    }
}
