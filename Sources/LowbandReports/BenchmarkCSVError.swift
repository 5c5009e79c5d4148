/// Why a benchmark CSV could not be read or written: a code, the file, the line and what was wrong.
///
/// The description is one line, `file:line: message` (or `file: message` when no line applies),
/// the form compilers use, so editors and CI logs link to it.
public struct BenchmarkCSVError: Error, Sendable, CustomStringConvertible {
    /// The kind of problem; new codes may be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's stable name, e.g. `badHeader`.
        public var description: String

        /// The file could not be opened or read.
        public static let unreadable = Code(description: "unreadable")
        /// The file is over ``BenchmarkCSV/maximumFileBytes`` or a line over ``BenchmarkCSV/maximumLineBytes``.
        public static let tooLarge = Code(description: "tooLarge")
        /// The bytes are not UTF-8.
        public static let invalidUTF8 = Code(description: "invalidUTF8")
        /// The first line is not the schema's header.
        public static let badHeader = Code(description: "badHeader")
        /// Quotes that break RFC 4180, or a blank line.
        public static let malformed = Code(description: "malformed")
        /// A row with more or fewer fields than the header.
        public static let wrongFieldCount = Code(description: "wrongFieldCount")
        /// A field that is empty, not a number, or out of range.
        public static let invalidValue = Code(description: "invalidValue")
        /// A second row for the same suite, benchmark and metric.
        public static let duplicateRow = Code(description: "duplicateRow")
    }

    /// What kind of problem it is.
    public var code: Code
    /// The path of the file, as given.
    public var file: String
    /// The 1-based line the problem is on (where the row starts), nil for the file as a whole.
    public var line: Int?
    /// What was wrong and, where it helps, what to write instead.
    public var message: String

    /// An error in `file`, at `line` when one applies.
    public init(code: Code, file: String, line: Int?, message: String) {
        self.code = code
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
