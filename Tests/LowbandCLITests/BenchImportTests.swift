import Foundation
@testable import LowbandCLI
import LowbandReports
import LowbandTestSupport
import Testing

/// `lowband bench import`: package-benchmark's influx export becomes rows of the one schema. The
/// ratios and targets are the kits' (Benchmarks/Tests/BenchFiguresTests).
@Suite struct BenchImportTests {
    let environment = RunEnvironment(commit: "abc1234", swiftVersion: "6.3", host: "ci", timestamp: "2026-01-01T00:00:00Z")

    static let header = """
        #datatype tag,tag,tag,tag,tag,tag,tag,tag,tag,double,double,double,long,long,dateTime
        measurement,hostName,processoryType,processors,memory,kernelVersion,metric,unit,test,percentile,value,test_average,iterations,warmup_iterations,time

        """

    /// The seven lines package-benchmark writes for one metric: percentiles 0…100 → `values`.
    static func metric(_ target: String, _ test: String, _ metric: String, _ unit: String, _ values: [Int], iterations: Int = 30) -> String {
        zip([0.0, 25.0, 50.0, 75.0, 90.0, 99.0, 100.0], values).map { percentile, value in
            "\(target),vm,x86_64,2,23,#1-SMP-PREEMPT_DYNAMIC-@0,\(metric),\(unit),\(test),\(percentile),\(value),1.0,\(iterations),1,2026-11-21T22:45:44Z\n"
        }.joined()
    }

    static func flat(_ target: String, _ test: String, _ name: String, _ unit: String, _ value: Int, iterations: Int = 30) -> String {
        metric(target, test, name, unit, Array(repeating: value, count: 7), iterations: iterations)
    }

    func rows(_ text: String) throws -> [BenchmarkRow] {
        try PackageBenchmarkImport.rows(fromInflux: Array(text.utf8), file: "run.csv", environment: environment)
    }

    @Test func wallClockBecomesMicrosecondsWithPercentilesAndSamples() throws {
        let text = Self.header + Self.metric("StartupBenchmarks", "cold-start/engine", "Time(wallclock)", "μs", [1_800, 1_830, 1_850, 1_890, 1_910, 3_400, 3_500], iterations: 42)
        let row = try #require(try rows(text).first)
        #expect(row.suite == "startup")
        #expect(row.benchmark == "cold-start/engine")
        #expect(row.metric == "wall_clock")
        #expect(row.unit == "us")
        #expect(row.p50 == 1.85)
        #expect(row.p90 == 1.91)
        #expect(row.p99 == 3.4)
        #expect(row.min == 1.8)
        #expect(row.max == 3.5)
        #expect(row.samples == 42)
        #expect(row.commit == "abc1234")
    }

    @Test func mallocsInstructionsAndCustomMetricsKeepTheirCounts() throws {
        let text = Self.header
            + Self.flat("CodecBenchmarks", "push-1/json/encode", "Malloc(total)", "", 16)
            + Self.flat("CodecBenchmarks", "push-1/json/encode", "Instructions", "K", 171_600)
            + Self.flat("CodecBenchmarks", "push-1/json/encode", "encoded_bytes", "K", 1_234_567)
            + Self.flat("PushToVisibleBenchmarks", "edge/push-to-visible", "floor_us", "", 300_000)
            + Self.flat("CompressionBenchmarks", "push-1/lz4-a1/compress", "ours_compress_mbps", "", 700)
        let found = try rows(text)
        func row(_ benchmark: String, _ metric: String) -> BenchmarkRow? { found.first { $0.benchmark == benchmark && $0.metric == metric } }
        #expect(row("push-1/json/encode", "allocations")?.unit == "count")
        #expect(row("push-1/json/encode", "allocations")?.p50 == 16)
        #expect(row("push-1/json/encode", "instructions")?.p99 == 171_600)
        #expect(row("push-1/json/encode", "encoded_bytes")?.unit == "bytes")
        #expect(row("push-1/json/encode", "encoded_bytes")?.max == 1_234_567)
        #expect(row("edge/push-to-visible", "floor_us")?.unit == "us")
        #expect(row("edge/push-to-visible", "floor_us")?.suite == "push-to-visible")
        #expect(row("push-1/lz4-a1/compress", "ours_compress_mbps")?.unit == "MB/s")
    }

    @Test func figuresOfRepeatedOperationsAreDividedPerOperation() throws {
        let text = Self.header
            + Self.flat("CodecBenchmarks", "push-1/msgpack-fast/encode", "Time(wallclock)", "ns", 100_000)
            + Self.flat("CodecBenchmarks", "push-1/msgpack-fast/encode", "Malloc(total)", "", 516)
            + Self.flat("CodecBenchmarks", "push-1/msgpack-fast/encode", "Instructions", "", 1_000_500)
            + Self.flat("CodecBenchmarks", "push-1/msgpack-fast/encode", "iterations_per_sample", "", 500)
            + Self.flat("CodecBenchmarks", "push-1/msgpack-fast/encode", "encoded_bytes", "", 76)
            + Self.flat("CodecBenchmarks", "push-1/json/encode", "Time(wallclock)", "ns", 3_000)
        let found = try rows(text)
        func p50(_ benchmark: String, _ metric: String) -> Double? { found.first { $0.benchmark == benchmark && $0.metric == metric }?.p50 }
        #expect(p50("push-1/msgpack-fast/encode", "wall_clock") == 0.2)
        #expect(p50("push-1/msgpack-fast/encode", "allocations") == 1.032)
        #expect(p50("push-1/msgpack-fast/encode", "instructions") == 2_001)
        #expect(p50("push-1/msgpack-fast/encode", "encoded_bytes") == 76, "sizes describe one operation already")
        #expect(p50("push-1/msgpack-fast/encode", "iterations_per_sample") == 500)
        #expect(p50("push-1/json/encode", "wall_clock") == 3, "benchmarks without the metric are not divided")
        #expect(throws: BenchmarkCSVError.self) {
            try rows(Self.header + Self.flat("CodecBenchmarks", "x/y/encode", "Time(wallclock)", "ns", 1) + Self.flat("CodecBenchmarks", "x/y/encode", "iterations_per_sample", "", 0))
        }
    }

    @Test func badExportsAreRefusedWithFileAndLine() throws {
        #expect(throws: BenchmarkCSVError.self) { try rows("suite,benchmark\nx,y\n") }
        do {
            _ = try rows("# Lowband\n\nsome prose\n")
            Issue.record("a file that is not an export was accepted")
        } catch let error as BenchmarkCSVError {
            #expect(error.description.hasPrefix("run.csv:1: not package-benchmark's influx export"))
        }
        do {
            _ = try rows(Self.header + "CodecBenchmarks,vm,x86_64,2,23,k,Malloc(total),,push-1/json/encode,50.0,abc,1.0,30,1,t\n")
            Issue.record("a value that is not a number was accepted")
        } catch let error as BenchmarkCSVError {
            #expect(error.description == "run.csv:3: column 'value' is not a number: \"abc\"")
        }
        do {
            _ = try rows(Self.header + "CodecBenchmarks,vm,x86_64,2,23\n")
            Issue.record("a short record was accepted")
        } catch let error as BenchmarkCSVError {
            #expect(error.description == "run.csv:3: 5 fields, expected 15")
        }
        do {
            _ = try rows(Self.header + "CodecBenchmarks,vm,x86_64,2,23,k,Malloc(total),,push-1/json/encode,50.0,3,1.0,30,1,t\n")
            Issue.record("a metric with one percentile was accepted")
        } catch let error as BenchmarkCSVError {
            #expect(error.description.hasPrefix("run.csv:3: codec/push-1/json/encode allocations has no value at percentile"))
        }
    }

    @Test func importCommandWritesTheSchemaAndRefusesTheSameRunTwice() throws {
        let directory = try TemporaryDirectory(prefix: "bench-import")
        let input = directory.file("Current_run.influx.csv")
        try (Self.header + Self.flat("StartupBenchmarks", "client-graph/hand", "Time(wallclock)", "ns", 2_000)
            + Self.flat("StartupBenchmarks", "client-graph/swinject", "Time(wallclock)", "ns", 30_000)).write(toFile: input, atomically: true, encoding: .utf8)
        let rows = try BenchImportCommand.rows(files: [input], environment: environment)
        let out = directory.file("reports/startup.csv")
        try BenchmarkCSV.write(rows: rows, to: out)
        let back = try BenchmarkCSV.read(from: out)
        #expect(back == rows)
        #expect(back.map(\.benchmark) == ["client-graph/hand", "client-graph/swinject"], "the measured rows only: ratios and targets are the kits'")
        #expect(throws: BenchmarkCSVError.self) { try BenchImportCommand.rows(files: [input, input], environment: environment) }
    }

    @Test func aDirectoryOfAnotherPackagesExportsImportsWithItsSamples() throws {
        let directory = try TemporaryDirectory(prefix: "bench-import")
        try (Self.header + Self.metric("Checksum", "fnv1a/4 KiB", "Time(wallclock)", "ns", [1_000, 1_000, 2_000, 2_000, 3_000, 3_000, 3_000], iterations: 3))
            .write(toFile: directory.file("pr.influx.csv"), atomically: true, encoding: .utf8)
        try "Time (wall clock) (μs)\n1\n2\n3\n".write(toFile: directory.file("pr.Checksum.fnv1a_4_KiB.wallClock.histogram.samples.tsv"), atomically: true, encoding: .utf8)
        let rows = try BenchImportCommand.rows(files: [directory.path], environment: environment)
        let row = try #require(rows.first)
        #expect(rows.count == 1)
        #expect(row.suite == "checksum" && row.benchmark == "fnv1a/4 KiB" && row.metric == "wall_clock")
        #expect(row.sampleValues == [1, 2, 3])
        let out = directory.file("out/pr.csv")
        try BenchmarkCSV.write(rows: rows, to: out)
        #expect(try BenchmarkCSV.read(from: out).first?.sampleValues == [1, 2, 3])
        #expect(FileManager.default.fileExists(atPath: directory.file("out/pr.samples.csv")))
    }
}
