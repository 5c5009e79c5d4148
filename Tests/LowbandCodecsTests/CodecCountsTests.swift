import Foundation
@testable import LowbandCodecs
import LowbandReports
import LowbandTestSupport
import Testing

/// The order a count run announces its regions in, and how the counts callgrind dumps in that
/// order become cells, rows and columns (no valgrind here: outside it a region is just a call).
@Suite struct CodecCountsTests {
    private static func comparison() throws -> (CodecComparison, PayloadSet, TemporaryDirectory) {
        let directory = try TemporaryDirectory(prefix: "lowband-counts")
        try Data("{\"a\": \"https://x.org/\", \"n\": 1}\n{\"a\": \"b\", \"n\": 2}\n".utf8).write(to: URL(fileURLWithPath: directory.file("two.jsonl")))
        try Data("{\"z\": [1, 2.5, null, true]}\n".utf8).write(to: URL(fileURLWithPath: directory.file("one.json")))
        var set = PayloadSet()
        try set.add(file: directory.file("two.jsonl"))
        try set.add(file: directory.file("one.json"))
        return (try CodecComparison(set, repeats: 1), set, directory)
    }

    @Test func everyFileFormatAndPayloadIsAnnouncedEncodeThenDecode() throws {
        let (comparison, set, _) = try Self.comparison()
        var lines: [String] = []
        try CodecCountRun.run(set, proto: nil) { lines.append($0) }
        // 3 payloads × 18 formats (two files: the dictionary formats are in), encode and decode.
        #expect(comparison.formats.count == 18)
        #expect(lines.count == 3 * 18 * 2)
        #expect(Array(lines.prefix(4)) == ["0\tjson\t0\tencode", "0\tjson\t0\tdecode", "0\tjson\t1\tencode", "0\tjson\t1\tdecode"])
        #expect(lines.last == "1\tcbor+zstd+dict\t0\tdecode")
    }

    @Test func countsPairWithTheAnnouncementsIntoCellsRowsAndColumns() throws {
        let (comparison, set, _) = try Self.comparison()
        var lines: [String] = []
        try CodecCountRun.run(set, proto: nil) { lines.append($0) }
        let operations = lines.indices.map { CodecCounts.Operation(instructions: 1000 + $0, allocations: $0 % 3) }
        let counts = try CodecCounts(comparison, lines: lines, operations: operations, elapsed: .seconds(2))
        let file = comparison.files[0]
        let json = try #require(counts.cell(file, CodecFormat(.json)))
        #expect(json.encode == [operations[0], operations[2]] && json.decode == [operations[1], operations[3]])
        #expect(json.encodeInstructions == 2002 && json.decodeAllocations == 1 + 0)
        #expect(counts.totalInstructions(CodecFormat(.json)) == Double(1000 + 1001 + 1002 + 1003) + counts.cell(comparison.files[1], CodecFormat(.json)).map { $0.encodeInstructions + $0.decodeInstructions }!)

        let report = CodecReport(comparison, air: AirCostTable(comparison, profiles: []), counts: counts)
        let rows = report.rows(environment: RunEnvironment(timestamp: "2026-01-01T00:00:00Z"))
        let encode = try #require(rows.first { $0.benchmark == "json@\(file)" && $0.metric == "encode_instructions" })
        #expect(encode.unit == "count" && encode.sampleValues == [1000, 1002])
        #expect(rows.contains { $0.benchmark == "json" && $0.metric == "total_decode_allocations" })
        let text = report.text()
        #expect(text.contains("enc instr  enc allocs") && text.contains("dec instr  dec allocs"), "\(text)")
        #expect(text.contains("counted by valgrind's callgrind in one run (2 s)"), "\(text)")
        #expect(text.contains("fewest instructions in total (encode + decode): json "), "\(text)")
    }

    @Test func countsThatDoNotPairAreAFailure() throws {
        let (comparison, set, _) = try Self.comparison()
        var lines: [String] = []
        try CodecCountRun.run(set, proto: nil) { lines.append($0) }
        #expect(throws: CodecCounts.Failure.self) {
            try CodecCounts(comparison, lines: lines, operations: [CodecCounts.Operation(instructions: 1, allocations: 0)])
        }
        let operations = Array(repeating: CodecCounts.Operation(instructions: 1, allocations: 0), count: lines.count)
        #expect(throws: CodecCounts.Failure.self) {
            try CodecCounts(comparison, lines: lines.map { $0.replacingOccurrences(of: "\tcbor\t", with: "\tyaml\t") }, operations: operations)
        }
    }

    @Test func unmeasuredCountsLeaveTheColumnsEmptyAndSayWhy() throws {
        let (comparison, _, _) = try Self.comparison()
        let report = CodecReport(comparison, air: AirCostTable(comparison, profiles: []), counts: CodecCounts(unmeasured: "valgrind is not installed"))
        let text = report.text()
        #expect(text.contains("instructions, allocations: not measured: valgrind is not installed\n"), "\(text)")
        #expect(!text.contains("fewest instructions"))
        #expect(!report.rows(environment: RunEnvironment(timestamp: "2026-01-01T00:00:00Z")).contains { $0.metric.hasSuffix("instructions") })
    }

    /// Outside callgrind a region is the call itself: what it throws comes out.
    @Test func aRegionRethrows() {
        struct Boom: Error {}
        var ran = false
        #expect(throws: Boom.self) { try CountedRegion.run { ran = true; throw Boom() } }
        #expect(ran)
    }
}
