import ArgumentParser
import Foundation
import LowbandCLI
import LowbandReports
import LowbandTestSupport
import Testing

/// `lowband compare`: verdicts from rows in memory, option parsing, and the built binary.
@Suite struct CompareCommandTests {
    private let lowband = BuiltProducts.path(of: "lowband")
    private static let environment = RunEnvironment(commit: "abc1234", swiftVersion: "6.3", host: "ci-1", timestamp: "2025-01-31T12:00:00Z")

    private func row(_ metric: String, _ unit: String, _ value: Double, benchmark: String = "cold") -> BenchmarkRow {
        BenchmarkRow(suite: "startup", benchmark: benchmark, metric: metric, unit: unit, value: value, environment: Self.environment)
    }

    private func verdict(
        _ metric: String, _ unit: String, from baseline: Double, to current: Double, policy: ComparisonPolicy = ComparisonPolicy()
    ) -> BenchmarkComparison.Verdict? {
        BenchmarkComparison(baseline: [row(metric, unit, baseline)], current: [row(metric, unit, current)], policy: policy).entries.first?.verdict
    }

    // MARK: Verdicts

    @Test func lowerIsBetterAtAndAroundTheThreshold() {
        #expect(verdict("allocations", "count", from: 1000, to: 1000) == .ok)
        #expect(verdict("allocations", "count", from: 1000, to: 1100) == .ok, "exactly 10% passes")
        #expect(verdict("allocations", "count", from: 1000, to: 1101) == .regression)
        #expect(verdict("allocations", "count", from: 1000, to: 900) == .ok)
        #expect(verdict("allocations", "count", from: 1000, to: 899) == .improved)
        #expect(verdict("encoded", "bytes", from: 0, to: 1) == .regression)
        #expect(verdict("encoded", "bytes", from: 0, to: 0) == .ok)
        #expect(verdict("encoded", "bytes", from: 100, to: 104, policy: ComparisonPolicy(threshold: 0.03)) == .regression)
    }

    @Test func ratiosHaveTheirOwnThresholdDefaultingToTheMainOne() {
        let loose = ComparisonPolicy(threshold: 0.10, ratioThreshold: 0.30)
        #expect(verdict("hand_speedup_vs_container", "x", from: 40, to: 30, policy: loose) == .ok, "25% worse is within 30%")
        #expect(verdict("hand_speedup_vs_container", "x", from: 40, to: 27, policy: loose) == .regression)
        #expect(verdict("allocations", "count", from: 1000, to: 1200, policy: loose) == .regression, "counts keep the 10% threshold")
        #expect(verdict("hand_speedup_vs_container", "x", from: 40, to: 30) == .regression, "without --ratio-threshold, --threshold applies")
        #expect(verdict("attainment", "x", from: 0.9, to: 1.2, policy: loose) == .improved)
    }

    @Test func higherIsBetterAtAndAroundTheThreshold() {
        #expect(verdict("encode_speedup", "x", from: 2.0, to: 1.8) == .ok, "exactly 10% worse passes")
        #expect(verdict("encode_speedup", "x", from: 2.0, to: 1.79) == .regression)
        #expect(verdict("encode_speedup", "x", from: 2.0, to: 2.2) == .ok)
        #expect(verdict("encode_speedup", "x", from: 2.0, to: 2.21) == .improved)
        let gated = ComparisonPolicy(timeThreshold: 0.25)
        #expect(verdict("upload", "MB/s", from: 100, to: 75, policy: gated) == .ok)
        #expect(verdict("upload", "MB/s", from: 100, to: 74, policy: gated) == .regression)
        #expect(verdict("upload", "MB/s", from: 100, to: 126, policy: gated) == .improved)
    }

    @Test func timesAreInfoUnlessATimeThresholdIsGiven() {
        for unit in ["ns", "us", "ms", "s", "MB/s"] {
            #expect(verdict("wall_clock", unit, from: 100, to: 1000) == .info, "\(unit)")
        }
        let comparison = BenchmarkComparison(baseline: [row("wall_clock", "ms", 100)], current: [row("wall_clock", "ms", 300)])
        #expect(!comparison.fails())
        #expect(comparison.entries.first?.change == 2.0)
        let gated = ComparisonPolicy(threshold: 0.10, timeThreshold: 0.25)
        #expect(verdict("wall_clock", "ms", from: 100, to: 125, policy: gated) == .ok)
        #expect(verdict("wall_clock", "ms", from: 100, to: 126, policy: gated) == .regression)
        #expect(verdict("wall_clock", "ms", from: 100, to: 74, policy: gated) == .improved)
    }

    @Test func rowsInOneFileAreListedAndFailOnlyWhenAsked() {
        let comparison = BenchmarkComparison(
            baseline: [row("bytes", "bytes", 5, benchmark: "gone"), row("bytes", "bytes", 5)],
            current: [row("bytes", "bytes", 5), row("bytes", "bytes", 7, benchmark: "new")]
        )
        #expect(comparison.entries.map(\.verdict) == [.ok, .missing, .new])
        #expect(!comparison.fails())
        #expect(comparison.fails(failOnMissing: true))
    }

    @Test func theStatisticCanBeChosen() {
        let old = BenchmarkRow(suite: "s", benchmark: "b", metric: "allocations", unit: "count", samples: [10, 10, 10, 10, 50], environment: Self.environment)
        let new = BenchmarkRow(suite: "s", benchmark: "b", metric: "allocations", unit: "count", samples: [10, 10, 10, 10, 90], environment: Self.environment)
        #expect(BenchmarkComparison(baseline: [old], current: [new]).entries.first?.verdict == .ok)
        #expect(BenchmarkComparison(baseline: [old], current: [new], policy: ComparisonPolicy(statistic: .max)).entries.first?.verdict == .regression)
    }

    // MARK: Parsing

    @Test func optionsParse() throws {
        let defaults = try #require(try Lowband.parseAsRoot(["compare", "a.csv", "b.csv"]) as? CompareCommand)
        #expect(defaults.policy == ComparisonPolicy(threshold: 0.10, timeThreshold: nil, statistic: .p50))
        #expect(!defaults.failOnMissing)
        let custom = try #require(
            try Lowband.parseAsRoot(["compare", "a.csv", "b.csv", "--threshold", "5%", "--time-threshold", "25", "--metric-column", "p99", "--fail-on-missing"])
                as? CompareCommand
        )
        #expect(custom.policy == ComparisonPolicy(threshold: 0.05, timeThreshold: 0.25, statistic: .p99))
        #expect(custom.failOnMissing)
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["compare", "a.csv", "b.csv", "--threshold", "-5%"]) }
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["compare", "a.csv", "b.csv", "--metric-column", "mean"]) }
    }

    // MARK: The built binary

    private func withReports(_ baseline: [BenchmarkRow], _ current: [BenchmarkRow], _ body: (String, String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lowband-compare-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let baselinePath = directory.appendingPathComponent("baseline.csv").path
        let currentPath = directory.appendingPathComponent("current.csv").path
        try BenchmarkCSV.write(rows: baseline, to: baselinePath)
        try BenchmarkCSV.write(rows: current, to: currentPath)
        try body(baselinePath, currentPath)
    }

    @Test func binaryExitsOneOnARegressionOnly() throws {
        let baseline = [row("allocations", "count", 1000), row("wall_clock", "ms", 100)]
        try withReports(baseline, [row("allocations", "count", 1200), row("wall_clock", "ms", 100)]) { old, new in
            let result = try ExternalProcess.run(lowband, ["compare", old, new])
            #expect(result.status == 1, "\(result.stderrText)")
            #expect(result.stdoutText.contains("REGRESSION"))
            #expect(result.stdoutText.contains("+20%"))
            #expect(result.stdoutText.contains("FAIL: 2 metrics"))
            #expect(result.stderrText.isEmpty)
            let looser = try ExternalProcess.run(lowband, ["compare", old, new, "--threshold", "25%"])
            #expect(looser.status == 0, "\(looser.stderrText)")
        }
        try withReports(baseline, [row("allocations", "count", 1000), row("wall_clock", "ms", 500)]) { old, new in
            let result = try ExternalProcess.run(lowband, ["compare", old, new])
            #expect(result.status == 0, "\(result.stderrText)")
            #expect(result.stdoutText.contains("info"))
            #expect(result.stdoutText.contains("PASS: 2 metrics"))
            let gated = try ExternalProcess.run(lowband, ["compare", old, new, "--time-threshold", "25%"])
            #expect(gated.status == 1)
        }
    }

    @Test func binaryPrintsOneErrorLineForAMalformedFile() throws {
        try withReports([row("allocations", "count", 1000)], [row("allocations", "count", 1000)]) { old, new in
            var text = try String(contentsOfFile: old, encoding: .utf8)
            text += "startup,warm,allocations,count,abc,1,1,1,1,1,abc1234,6.3,ci-1,2025-01-31T12:00:00Z\n"
            try text.write(toFile: old, atomically: true, encoding: .utf8)
            let result = try ExternalProcess.run(lowband, ["compare", old, new])
            #expect(result.status == 1)
            #expect(result.stdoutText.isEmpty)
            #expect(result.stderrText == "lowband compare: error: \(old):3: column 'p50' is not a number: \"abc\"\n")
        }
    }
}
