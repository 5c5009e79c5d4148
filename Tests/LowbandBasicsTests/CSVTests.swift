import Foundation
import LowbandBasics
import LowbandProcess
import LowbandTestSupport
import Testing

/// Every CSV file Lowband writes and reads back goes through one writer rule and one strict
/// reader; Python's `csv` module, a reader nobody here wrote, reads what the writer writes.
@Suite struct CSVTests {
    static let awkward = ["plain", "", "a,b", "say \"hi\"", "two\nlines", "cr\r\nlf", "Привет 👋", " spaced "]

    @Test func theWriterQuotesOnlyWhatNeedsIt() {
        #expect(CSVWriter.field("plain") == "plain")
        #expect(CSVWriter.field("a,b") == "\"a,b\"")
        #expect(CSVWriter.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVWriter.line(["1", "a,b", ""]) == "1,\"a,b\",\n")
        var bytes: [UInt8] = []
        CSVWriter.append("x\"y", to: &bytes)
        #expect(bytes == Array("\"x\"\"y\"".utf8))
    }

    @Test func whatTheWriterWritesTheReaderReadsBack() throws {
        let rows = [Self.awkward, Self.awkward.reversed()]
        let text = rows.map { CSVWriter.line(Array($0)) }.joined()
        let records = try CSVReader.records(Array(text.utf8), maximumLineBytes: 1_024)
        #expect(records.map(\.fields) == rows.map { Array($0) })
        #expect(records.map(\.line) == [1, 4], "each row holds two quoted line feeds")
        var seen: [[String]] = []
        try CSVReader.forEachRecord(in: Array(text.utf8), maximumLineBytes: 1_024) { seen.append($0.fields) }
        #expect(seen == rows.map { Array($0) })
    }

    @Test func pythonsCSVModuleReadsWhatTheWriterWrites() async throws {
        let text = CSVWriter.line(Self.awkward)
        let script = "import csv, json, sys\nprint(json.dumps(list(csv.reader(open(sys.argv[1], newline='')))))"
        let directory = try TemporaryDirectory(prefix: "lowband-csv")
        let file = directory.file("awkward.csv")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let result = try await ExternalProcess.run("python3", ["-c", script, file])
        #expect(result.status == 0, "\(result.stderrText)")
        let read = try JSONDecoder().decode([[String]].self, from: Data(result.stdout))
        #expect(read == [Self.awkward])
    }

    @Test(arguments: [
        ("a,b\n\nc,d\n", 2, "blank line"),
        ("a,\"b\n", 1, "quoted field is never closed"),
        ("a,b\"c\n", 1, "quote inside an unquoted field"),
        ("\"a\"b,c\n", 1, "unexpected character after a closing quote"),
        ("a\rb\n", 1, "carriage return not followed by a line feed"),
        ("ok\n" + String(repeating: "x", count: 100) + "\n", 2, "line is longer than 64 bytes"),
    ])
    func malformedInputNamesTheLine(_ text: String, _ line: Int, _ message: String) {
        do {
            _ = try CSVReader.records(Array(text.utf8), maximumLineBytes: 64)
            Issue.record("\(text.debugDescription) was read")
        } catch {
            #expect(error.line == line)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func aStrayQuoteDoesNotHideTheProblemsAfterIt() {
        var problems: [CSVReader.Problem] = []
        let records = CSVReader.records(Array("a,b\"c\nok,1\nx\"y\n".utf8), maximumLineBytes: 64) { problems.append($0) }
        #expect(records.map(\.fields) == [["ok", "1"]])
        #expect(problems.map(\.line) == [1, 3])
    }

    @Test func invalidUTF8IsItsOwnKind() {
        do {
            _ = try CSVReader.records([0x61, 0x2C, 0xFF, 0x0A], maximumLineBytes: 64)
            Issue.record("invalid UTF-8 was read")
        } catch {
            #expect(error.kind == .invalidUTF8 && error.line == 1)
        }
    }
}
