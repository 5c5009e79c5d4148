import Foundation
import LowbandReports
import LowbandTestSupport
import Testing

/// Raw samples kept next to a report (`REPORT.samples.csv`) and package-benchmark's
/// histogramSamples files imported into them.
@Suite struct SamplesFileTests {
    static let environment = RunEnvironment(commit: "abc1234", swiftVersion: "6.3", host: "ci-1", timestamp: "2025-01-31T12:00:00Z")

    @Test func samplesRoundTripNextToTheReportAndOldReportsStillRead() throws {
        let directory = try TemporaryDirectory(prefix: "lowband-samples")
        var timed = BenchmarkRow(suite: "startup", benchmark: "cold, start", metric: "wall_clock", unit: "us", samples: [3, 1.5, 2], environment: Self.environment)
        timed.sampleValues = [3, 1.5, 2]
        let counted = BenchmarkRow(suite: "startup", benchmark: "cold, start", metric: "allocations", unit: "count", value: 7, environment: Self.environment)
        let path = directory.file("run.csv")
        try BenchmarkCSV.write(rows: [timed, counted], to: path)
        #expect(BenchmarkCSV.samplesPath(for: path) == directory.file("run.samples.csv"))
        let samplesText = try String(contentsOfFile: directory.file("run.samples.csv"), encoding: .utf8)
        #expect(samplesText == "suite,benchmark,metric,value\nstartup,\"cold, start\",wall_clock,3\nstartup,\"cold, start\",wall_clock,1.5\nstartup,\"cold, start\",wall_clock,2\n")
        let read = try BenchmarkCSV.read(from: path)
        #expect(read == [timed, counted])
        // The report alone (as every report before samples) reads, without samples.
        #expect(try BenchmarkCSV.parse(try String(contentsOfFile: path, encoding: .utf8), file: "run.csv").allSatisfy { $0.sampleValues == nil })
        // Rewriting without samples removes the old samples file, so it is never joined to new rows.
        try BenchmarkCSV.write(rows: [counted], to: path)
        #expect(!FileManager.default.fileExists(atPath: directory.file("run.samples.csv")))
    }

    @Test func aSamplesFileFromAnotherRunIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "lowband-samples")
        let row = BenchmarkRow(suite: "startup", benchmark: "cold", metric: "wall_clock", unit: "us", samples: [3, 1, 2], environment: Self.environment)
        let path = directory.file("run.csv")
        try BenchmarkCSV.write(rows: [row], to: path)
        try "suite,benchmark,metric,value\nstartup,cold,wall_clock,1\nstartup,cold,wall_clock,2\nstartup,gone,wall_clock,2\n"
            .write(toFile: directory.file("run.samples.csv"), atomically: true, encoding: .utf8)
        let reading = BenchmarkCSV.reading(from: path)
        let lines = reading.errors.lines
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.contains { $0.contains("run.samples.csv:2: 2 samples for startup/cold wall_clock but") && $0.contains("says 3") })
        #expect(lines.contains { $0.contains("run.samples.csv:4: samples for startup/gone wall_clock, which") })
    }

    static let influxHeader = """
        #datatype tag,tag,tag,tag,tag,tag,tag,tag,tag,double,double,double,long,long,dateTime
        measurement,hostName,processoryType,processors,memory,kernelVersion,metric,unit,test,percentile,value,test_average,iterations,warmup_iterations,time

        """

    static func influx(_ test: String, _ metric: String, _ values: [Int], iterations: Int) -> String {
        zip([0.0, 25.0, 50.0, 75.0, 90.0, 99.0, 100.0], values).map { percentile, value in
            "MyAppBenchmarks,vm,x86_64,2,23,k,\(metric),ns,\(test),\(percentile),\(value),1.0,\(iterations),1,2026-11-21T22:45:44Z\n"
        }.joined()
    }

    @Test func histogramSamplesJoinTheInfluxRowsOfAnyPackage() throws {
        let influx = Self.influx("parse json/small", "Time(wallclock)", [2000, 2000, 3000, 3000, 4000, 4000, 4000], iterations: 4)
            + Self.influx("parse json/small", "Malloc(total)", [5, 5, 5, 5, 5, 5, 5], iterations: 4)
        let rows = try PackageBenchmarkImport.rows(fromInflux: Array((Self.influxHeader + influx).utf8), file: "Current_run.influx.csv", environment: Self.environment)
        let wall = try PackageBenchmarkSamples.file(Array("Time (wall clock) (μs)\n2\n3\n3\n4\n".utf8), path: "raw/Current_run.MyAppBenchmarks.parse_json_small.wallClock.histogram.samples.tsv")
        #expect(wall.suite == "my-app" && wall.benchmark == "parse_json_small" && wall.metric == "wall_clock" && wall.unit == "us")
        let mallocs = try PackageBenchmarkSamples.file(Array("Malloc (total) \n5\n5\n5\n5\n".utf8), path: "Current_run.MyAppBenchmarks.parse_json_small.mallocCountTotal.histogram.samples.tsv")
        #expect(mallocs.metric == "allocations" && mallocs.values == [5, 5, 5, 5])
        let joined = try PackageBenchmarkSamples.joining([("a.tsv", wall), ("b.tsv", mallocs)], to: rows, environment: Self.environment)
        #expect(joined.count == 2)
        let wallRow = try #require(joined.first { $0.metric == "wall_clock" })
        #expect(wallRow.benchmark == "parse json/small")
        #expect(wallRow.sampleValues == [2, 3, 3, 4])
        // Counts are gated exactly by threshold: their samples are not kept.
        #expect(joined.first { $0.metric == "allocations" }?.sampleValues == nil)

        // Samples from another run (a different count) are refused.
        var other = wall
        other.values.removeLast()
        #expect(throws: BenchmarkCSVError.self) { try PackageBenchmarkSamples.joining([("a.tsv", other)], to: rows, environment: Self.environment) }
    }

    /// package-benchmark's influx export writes its last metric's count on every row of a
    /// benchmark; a metric recorded once (an lz4 -b comparison beside 2,000 timings) made every
    /// row say 1 sample, or 2,000 for the one measurement. The samples files count each metric.
    @Test func everyRowTakesItsOwnSampleCount() throws {
        // "floor_us" sorts after "Time (wall clock)": the export says 1 iteration for both.
        let influx = Self.influx("push", "Time(wallclock)", [2000, 2000, 3000, 3000, 4000, 4000, 4000], iterations: 1)
            + Self.influx("push", "floor_us", [7, 7, 7, 7, 7, 7, 7], iterations: 1)
        let rows = try PackageBenchmarkImport.rows(fromInflux: Array((Self.influxHeader + influx).utf8), file: "Current_run.influx.csv", environment: Self.environment)
        #expect(rows.map(\.samples) == [1, 1])
        let wall = try PackageBenchmarkSamples.file(Array("Time (wall clock) (μs)\n2\n3\n3\n4\n".utf8), path: "Current_run.MyAppBenchmarks.push.wallClock.histogram.samples.tsv")
        let floor = try PackageBenchmarkSamples.file(Array("floor_us \n7\n".utf8), path: "Current_run.MyAppBenchmarks.push.floor_us.histogram.samples.tsv")
        let joined = try PackageBenchmarkSamples.joining([("a.tsv", wall), ("b.tsv", floor)], to: rows, environment: Self.environment)
        #expect(joined.first { $0.metric == "wall_clock" }?.samples == 4)
        #expect(joined.first { $0.metric == "wall_clock" }?.sampleValues == [2, 3, 3, 4])
        #expect(joined.first { $0.metric == "floor_us" }?.samples == 1)

        // No file with the export's count: another run's files.
        var other = floor
        other.values = [7, 7]
        #expect(throws: BenchmarkCSVError.self) { try PackageBenchmarkSamples.joining([("a.tsv", wall), ("b.tsv", other)], to: rows, environment: Self.environment) }
    }

    @Test func histogramSamplesAloneMakeRows() throws {
        let wall = try PackageBenchmarkSamples.file(Array("Time (wall clock) (ns)\n1500\n1000\n2000\n".utf8), path: "x.EchoBenchmarks.round_trip.wallClock.histogram.samples.tsv")
        let rows = try PackageBenchmarkSamples.joining([("x.tsv", wall)], to: [], environment: Self.environment)
        let row = try #require(rows.first)
        #expect(row.suite == "echo" && row.benchmark == "round_trip" && row.unit == "us")
        #expect(row.sampleValues == [1.5, 1, 2])
        #expect(row.p50 == 1.5 && row.min == 1 && row.max == 2 && row.samples == 3)
        #expect(throws: BenchmarkCSVError.self) { try PackageBenchmarkSamples.file(Array("Time (wall clock) (μs)\nabc\n".utf8), path: "x.T.b.wallClock.histogram.samples.tsv") }
    }
}
