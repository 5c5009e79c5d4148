import Foundation
import LowbandReports
import LowbandTestSupport
import Testing

/// The benchmark CSV schema: writing, strict reading, and the metric rules.
@Suite struct BenchmarkCSVTests {
    static let environment = RunEnvironment(commit: "abc1234", swiftVersion: "6.3", host: "ci-1", timestamp: "2025-01-31T12:00:00Z")
    static let header = BenchmarkCSV.columns.joined(separator: ",")
    static let tail = "abc1234,6.3,ci-1,2025-01-31T12:00:00Z,lowband run,def5678"

    private func expectError(
        _ text: String, line: Int?, code: BenchmarkCSVError.Code, containing fragment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let rows = try BenchmarkCSV.parse(text, file: "report.csv")
            Issue.record("parsed \(rows.count) rows, expected an error", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, sourceLocation: sourceLocation)
            #expect(error.line == line, sourceLocation: sourceLocation)
            let prefix = line.map { "report.csv:\($0): " } ?? "report.csv: "
            #expect(error.description.hasPrefix(prefix), "\(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains(fragment), "\(error)", sourceLocation: sourceLocation)
            #expect(!error.description.contains("\n"), "one line: \(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Round trip

    @Test func rowsRoundTripIncludingQuotedNames() throws {
        let rows = [
            BenchmarkRow(suite: "startup", benchmark: "cold", metric: "wall_clock", unit: "ms", samples: [3, 1, 2, 5, 4], environment: Self.environment),
            BenchmarkRow(suite: "codec, v2", benchmark: "say \"hi\"", metric: "line\nbreak\r\nand more", unit: "MB/s", value: 123.456, environment: Self.environment),
            BenchmarkRow(suite: "s", benchmark: "b", metric: "tiny", unit: "x", value: 1e-7, environment: Self.environment),
            BenchmarkRow(
                suite: "s", benchmark: "b", metric: "spread", unit: "bytes", p50: -2.5, p90: 0, p99: 1e20, min: -3, max: 1e21, samples: 9,
                commit: "unknown", swiftVersion: "6.4+", host: "host,with,commas", timestamp: "2025-01-31T12:00:00Z"
            ),
        ]
        let text = try BenchmarkCSV.render(rows: rows)
        #expect(text.hasPrefix(Self.header + "\n"))
        #expect(text.contains("\"codec, v2\",\"say \"\"hi\"\"\",\"line\nbreak\r\nand more\",MB/s,123.456,"))
        #expect(try BenchmarkCSV.parse(text, file: "r.csv") == rows)
        // CRLF line endings, as spreadsheets write, read the same.
        #expect(try BenchmarkCSV.parse(text.replacingOccurrences(of: ",6.3,ci-1,2025-01-31T12:00:00Z\n", with: ",6.3,ci-1,2025-01-31T12:00:00Z\r\n"), file: "r.csv") == rows)

        let directory = try TemporaryDirectory(prefix: "lowband-csv")
        let path = directory.file("nested/report.csv")
        try BenchmarkCSV.write(rows: rows, to: path)
        #expect(try BenchmarkCSV.read(from: path) == rows)
    }

    /// Issue 14: a row says which command measured it; reports from before the column (the
    /// committed baselines) still read, with no command.
    @Test func theCommandColumnRoundTripsAndOldReportsStillRead() throws {
        var environment = Self.environment
        environment.command = RunEnvironment.shellCommand(["lowband", "run", "--scenario", "crowd", "--out", "my dir", "--until", "it's up"])
        #expect(environment.command == "lowband run --scenario crowd --out 'my dir' --until 'it'\\''s up'")
        let rows = [BenchmarkRow(suite: "s", benchmark: "b", metric: "m", unit: "ms", samples: [1, 2], environment: environment)]
        let text = try BenchmarkCSV.render(rows: rows)
        #expect(text.hasPrefix(BenchmarkCSV.columns.joined(separator: ",") + "\n") && BenchmarkCSV.columns.suffix(2) == ["command", "lowband_commit"])
        #expect(try BenchmarkCSV.parse(text, file: "new.csv") == rows)
        let old = BenchmarkCSV.legacyColumns.joined(separator: ",") + "\ns,b,m,ms,1,2,3,1,4,5,abc1234,6.3,ci-1,2025-01-31T12:00:00Z\n"
        let read = try BenchmarkCSV.parse(old, file: "old.csv")
        #expect(read.first?.command == "" && read.first?.commit == "abc1234" && read.first?.lowbandCommit == "")
        // Reports from before lowband_commit (a command, no Lowband commit) read too.
        let withCommand = BenchmarkCSV.commandColumns.joined(separator: ",") + "\ns,b,m,ms,1,2,3,1,4,5,abc1234,6.3,ci-1,2025-01-31T12:00:00Z,lowband run\n"
        let second = try BenchmarkCSV.parse(withCommand, file: "v2.csv")
        #expect(second.first?.command == "lowband run" && second.first?.lowbandCommit == "")
    }

    /// Issue 26: a row names the measured program's commit and, apart, Lowband's own.
    @Test func theMeasuredCommitAndLowbandsOwnAreTwoColumns() throws {
        let environment = Self.environment.measuring(programIn: "/", commit: "app0001")
        #expect(environment.commit == "app0001" && environment.lowbandCommit == Self.environment.commit)
        let rows = [BenchmarkRow(suite: "startup", benchmark: "app", metric: "time_to_marker", unit: "ms", samples: [1, 2], environment: environment)]
        let text = try BenchmarkCSV.render(rows: rows)
        #expect(text.contains(",app0001,") && text.hasSuffix(",\(Self.environment.commit)\n"))
        #expect(try BenchmarkCSV.parse(text, file: "new.csv").first?.lowbandCommit == Self.environment.commit)
    }

    @Test func samplesGiveNearestRankPercentiles() {
        let row = BenchmarkRow(suite: "s", benchmark: "b", metric: "m", unit: "us", samples: (1...100).map(Double.init).reversed(), environment: Self.environment)
        #expect((row.p50, row.p90, row.p99, row.min, row.max, row.samples) == (50, 90, 99, 1, 100, 100))
        #expect(row.commit == "abc1234" && row.host == "ci-1")
    }

    @Test func writerRefusesNonFiniteStatistics() {
        let row = BenchmarkRow(suite: "s", benchmark: "b", metric: "m", unit: "ms", value: .nan, environment: Self.environment)
        #expect(throws: BenchmarkCSVError.self) { try BenchmarkCSV.render(rows: [row]) }
    }

    // MARK: Reader errors

    @Test func readerErrorsNameFileLineAndProblem() {
        let good = "s,b,m,ms,1,2,3,1,4,5,\(Self.tail)"
        expectError("", line: 1, code: .badHeader, containing: "empty")
        expectError("suite,benchmark\n", line: 1, code: .badHeader, containing: "expected \"\(Self.header)\"")
        expectError("\(Self.header)\n\(good)\ns,b,m2,ms,abc,2,3,1,4,5,\(Self.tail)\n", line: 3, code: .invalidValue, containing: "column 'p50' is not a number: \"abc\"")
        expectError("\(Self.header)\ns,b,m,ms,inf,inf,inf,inf,inf,5,\(Self.tail)\n", line: 2, code: .invalidValue, containing: "column 'p50' is not a number")
        expectError("\(Self.header)\ns,b,m,ms,1,2,3,1,4,\(Self.tail)\n", line: 2, code: .wrongFieldCount, containing: "15 fields, expected 16")
        expectError("\(Self.header)\ns,b,m,ms,1,2,3,1,4,0,\(Self.tail)\n", line: 2, code: .invalidValue, containing: "'samples'")
        expectError("\(Self.header)\ns,b,m,ms,5,2,3,1,4,5,\(Self.tail)\n", line: 2, code: .invalidValue, containing: "out of order")
        expectError("\(Self.header)\n,b,m,ms,1,2,3,1,4,5,\(Self.tail)\n", line: 2, code: .invalidValue, containing: "column 'suite' is empty")
        expectError("\(Self.header)\ns,b,m,ms,1,2,3,1,4,5,abc,6.3,h,yesterday,,\n", line: 2, code: .invalidValue, containing: "'timestamp'")
        expectError("\(Self.header)\n\(good)\n\n\(good)\n", line: 3, code: .malformed, containing: "blank line")
        expectError("\(Self.header)\n\(good)\n\(good)\n", line: 3, code: .duplicateRow, containing: "first is on line 2")
        expectError("\(Self.header)\ns,b\"x,m,ms,1,2,3,1,4,5,\(Self.tail)\n", line: 2, code: .malformed, containing: "quote inside an unquoted field")
        expectError("\(Self.header)\n\"s\"x,b,m,ms,1,2,3,1,4,5,\(Self.tail)\n", line: 2, code: .malformed, containing: "after a closing quote")
        expectError("\(Self.header)\n\(good)\n\"s,b,m\n", line: 3, code: .malformed, containing: "never closed")
        // A quoted line break moves the following rows' line numbers on.
        expectError("\(Self.header)\n\"two\nlines\",b,m,ms,1,2,3,1,4,5,\(Self.tail)\ns,b,m,ms,x,2,3,1,4,5,\(Self.tail)\n", line: 4, code: .invalidValue, containing: "'p50'")
    }

    @Test func bytesThatAreNotUTF8AreRefusedWithTheirLine() {
        let good = "s,b,m,ms,1,2,3,1,4,5,\(Self.tail)\n"
        let bytes = Array("\(Self.header)\n\(good)".utf8) + [0x78, 0xC3, 0x28] + Array(",b,m,ms,1,2,3,1,4,5,\(Self.tail)\n".utf8)
        #expect {
            try BenchmarkCSV.parse(bytes, file: "report.csv")
        } throws: { error in
            let error = error as? BenchmarkCSVError
            return error?.code == .invalidUTF8 && error?.line == 3 && error?.file == "report.csv"
        }
        #expect(throws: Never.self) { try BenchmarkCSV.parse(Array("\(Self.header)\n\(good)".utf8), file: "report.csv") }
    }

    @Test func readerCapsLineAndFileSizes() throws {
        let long = String(repeating: "a", count: BenchmarkCSV.maximumLineBytes + 1)
        expectError("\(Self.header)\n\(long),b,m,ms,1,2,3,1,4,5,\(Self.tail)\n", line: 2, code: .tooLarge, containing: "longer than 64 KiB")

        let directory = try TemporaryDirectory(prefix: "lowband-csv")
        let path = directory.file("huge.csv")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(BenchmarkCSV.maximumFileBytes + 1))
        try handle.close()
        #expect {
            try BenchmarkCSV.read(from: path)
        } throws: { error in
            let error = try #require(error as? BenchmarkCSVError)
            return error.code == .tooLarge && error.line == nil && error.description.hasPrefix("\(path): ")
        }
        #expect {
            try BenchmarkCSV.read(from: directory.file("absent.csv"))
        } throws: { error in
            (error as? BenchmarkCSVError)?.code == .unreadable
        }
    }

    // MARK: Every error of a file, and reports from other programs

    @Test func reportsFromOtherProgramsMayLeaveTheEnvironmentColumnsEmpty() throws {
        // Issue 14: a non-Swift app's report had to invent a swift_version to be read at all.
        let header = BenchmarkCSV.legacyColumns.joined(separator: ",")  // without `command`, as other programs write it
        let text = "\(header)\ns,b,m,ms,1,2,3,1,4,5,,,,\ns,b,n,ms,1,2,3,1,4,5,,,myhost,\n"
        let rows = try BenchmarkCSV.parse(text, file: "report.csv")
        #expect(rows.map(\.metric) == ["m", "n"])
        #expect(rows.allSatisfy { $0.commit.isEmpty && $0.swiftVersion.isEmpty && $0.timestamp.isEmpty && $0.command.isEmpty })
        #expect(rows.last?.host == "myhost")
        #expect(try BenchmarkCSV.parse(try BenchmarkCSV.render(rows: rows), file: "again.csv") == rows)
        // The columns that say what was measured stay strict.
        expectError("\(header)\ns,b,m,,1,2,3,1,4,5,,,,\n", line: 2, code: .invalidValue, containing: "column 'unit' is empty")
        expectError("\(header)\ns,b,m,ms,1,2,3,1,4,,,,,\n", line: 2, code: .invalidValue, containing: "'samples'")
        // A timestamp, when given, is still ISO-8601.
        expectError("\(header)\ns,b,m,ms,1,2,3,1,4,5,,,,31/01/2025\n", line: 2, code: .invalidValue, containing: "'timestamp'")
    }

    @Test func everyErrorOfAFileIsListedInLineOrder() {
        let good = "s,b,m,ms,1,2,3,1,4,5,\(Self.tail)"
        let text = [
            Self.header,
            good,
            "s,b\"x,m2,ms,1,2,3,1,4,5,\(Self.tail)",  // 3: stray quote; the reader goes on at the next line
            "s,b,m3,ms,abc,2,3,1,4,0,\(Self.tail)",   // 4: two wrong fields, both listed
            good,                                        // 5: duplicate of line 2
            "s,b,m4,ms,1,2,3,1,4,5",                    // 6: too few fields
            "",                                          // 7: blank
            "s,b,m5,ms,1,2,3,1,4,5,\(Self.tail)",      // 8: fine
        ].joined(separator: "\n") + "\n"
        let reading = BenchmarkCSV.reading(Array(text.utf8), file: "report.csv")
        #expect(reading.errors.listed.map(\.line) == [3, 4, 4, 5, 6, 7])
        #expect(reading.errors.listed.map(\.code) == [.malformed, .invalidValue, .invalidValue, .duplicateRow, .wrongFieldCount, .malformed])
        #expect(reading.errors.lines.first == "report.csv:3: quote inside an unquoted field; quote the whole field and double the quote (\"\")")
        #expect(reading.errors.lines[1].contains("'p50'") && reading.errors.lines[2].contains("'samples'"))
        #expect(reading.rows.map(\.line) == [2, 8], "rows that read are kept, for nothing else")
        // The throwing readers still stop at the first.
        #expect(throws: BenchmarkCSVError.self) { try BenchmarkCSV.parse(text, file: "report.csv") }
    }

    @Test func aFileOfErrorsListsTheFirstFiftyAndCountsTheRest() {
        let bad = (1...60).map { "s,b,m\($0),ms,x,2,3,1,4,5,\(Self.tail)" }
        let text = ([Self.header] + bad).joined(separator: "\n")
        let errors = BenchmarkCSV.reading(Array(text.utf8), file: "report.csv").errors
        #expect(errors.count == 60)
        #expect(errors.listed.count == BenchmarkCSVErrors.limit)
        #expect(errors.listed.last?.line == 51)
        #expect(errors.lines.count == 51)
        #expect(errors.lines.last == "report.csv: and 10 more errors")
    }

    @Test func aWrongHeaderIsTheOnlyErrorReported() {
        let text = "suite,benchmark\ns,b,m,ms,x,2,3,1,4,5,\(Self.tail)\n"
        let errors = BenchmarkCSV.reading(Array(text.utf8), file: "report.csv").errors
        #expect(errors.listed.map(\.code) == [.badHeader])
    }

    // MARK: Metric rules

    @Test(arguments: [
        ("wall_clock", "ms", MetricDirection.lowerIsBetter, MetricGate.timing),
        ("decode", "ns", .lowerIsBetter, .timing),
        ("decode", "µs", .lowerIsBetter, .timing),
        ("startup", "s", .lowerIsBetter, .timing),
        ("encoded", "bytes", .lowerIsBetter, .deterministic),
        ("mallocs", "allocations", .lowerIsBetter, .deterministic),
        ("frames", "count", .lowerIsBetter, .deterministic),
        ("lz4_vs_json", "x", .lowerIsBetter, .ratio),
        ("encode_speedup", "x", .higherIsBetter, .ratio),
        ("attainment", "x", .higherIsBetter, .ratio),
        ("upload", "MB/s", .higherIsBetter, .timing),
        ("requests", "ops/s", .higherIsBetter, .timing),
    ])
    func directionAndGateFollowTheUnit(metric: String, unit: String, direction: MetricDirection, gate: MetricGate) {
        #expect(MetricDirection(metric: metric, unit: unit) == direction)
        #expect(MetricGate(metric: metric, unit: unit) == gate)
    }

    @Test func environmentIsFilledIn() {
        let environment = RunEnvironment.current(at: Date(timeIntervalSince1970: 1_738_324_800))
        #expect(environment.timestamp == "2025-01-31T12:00:00Z")
        #expect(environment.swiftVersion == RunEnvironment.compilerVersion)
        #expect(!environment.commit.isEmpty && !environment.host.isEmpty)
        #expect(!environment.commit.contains("\n"))
    }
}
