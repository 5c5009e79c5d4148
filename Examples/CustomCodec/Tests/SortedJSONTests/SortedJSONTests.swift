import CodecBench
import LowbandReports
import SortedJSON
import Testing

/// The codec of one's own, registered beside Lowband's: measured, sized and compared with JSON.
@Suite struct SortedJSONTests {
    @Test func theComparisonReportsTheRegisteredCodecOnEveryFixture() throws {
        let fixtures = CodecFixture.all()
        let report = try CodecComparison.run(
            codecs: CodecRegistry.builtIn + [SortedKeysJSONCodec()], fixtures: fixtures, samples: 3,
            environment: RunEnvironment(timestamp: "2026-11-24T00:00:00Z")
        )
        for fixture in fixtures.map(\.id) {
            let encode = row(report.all, "\(fixture)/json-sorted/encode", "wall_clock")
            #expect(encode?.samples == 3 && encode?.unit == "us")
            #expect(row(report.all, "\(fixture)/json-sorted/decode", "wall_clock") != nil)
            // The same keys and values as JSON in another order: exactly JSON's size.
            #expect(row(report.all, "\(fixture)/json-sorted", "bytes_vs_json")?.p50 == 1)
            #expect(row(report.all, "\(fixture)/json-sorted", "speedup_vs_json") != nil)
            // The built-in codecs are still all there.
            #expect(row(report.all, "\(fixture)/msgpack-fast", "bytes_vs_json") != nil)
        }
        // The rows are Lowband's schema: they survive its writer and strict reader unchanged.
        let text = try BenchmarkCSV.render(rows: report.all)
        let parsed = try BenchmarkCSV.parse(text, file: "comparison.csv")
        #expect(parsed.map(\.key) == report.all.map(\.key))
        #expect(parsed.map(\.p50) == report.all.map(\.p50))
    }

    @Test func sortedKeysGiveTheSameBytesEveryTime() throws {
        let codec = SortedKeysJSONCodec()
        for fixture in CodecFixture.all() {
            let workload = fixture.workload(with: codec)
            let first = try workload.verifiedEncoding()
            #expect(try workload.encode() == first, "\(fixture.id): a second encoding differs")
        }
    }

    @Test func theRegisteredCodecIsMeasuredOnEveryFixtureWithItsOwnEncoder() throws {
        let workloads = try CodecWorkload.all(codecs: CodecRegistry.builtIn + [SortedKeysJSONCodec()])
        let mine = workloads.filter { $0.codec == "json-sorted" }
        #expect(mine.map(\.encodeBenchmarkName) == [
            "login-reply-50/json-sorted/encode", "history-page-50/json-sorted/encode",
            "push-1/json-sorted/encode", "contacts-500/json-sorted/encode",
        ])
        for workload in mine {
            let bytes = try workload.verifiedEncoding()
            try workload.decode(bytes)
        }
        // It really is this package's encoder: sorted keys put "chats" first, every time.
        let login = try #require(mine.first)
        #expect(String(decoding: try login.encode().prefix(9), as: UTF8.self) == #"{"chats":"#)
        #expect(try login.encode() == login.encode())
    }

    @Test func aCodecNamedLikeABuiltInOneIsRefused() {
        struct Impostor: BenchmarkCodec {
            let name = "json"
            func encode<T: BenchmarkPayload>(_ value: T) throws -> [UInt8] { try SortedKeysJSONCodec().encode(value) }
            func decode<T: BenchmarkPayload>(_ type: T.Type, from bytes: [UInt8]) throws -> T { try SortedKeysJSONCodec().decode(type, from: bytes) }
        }
        #expect(throws: CodecBenchError.self) {
            try CodecComparison.run(codecs: CodecRegistry.builtIn + [Impostor()], samples: 1, environment: RunEnvironment(timestamp: ""))
        }
    }

    func row(_ rows: [BenchmarkRow], _ benchmark: String, _ metric: String) -> BenchmarkRow? {
        rows.first { $0.benchmark == benchmark && $0.metric == metric }
    }
}
