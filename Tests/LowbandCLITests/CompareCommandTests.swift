import ArgumentParser
import Foundation
@testable import LowbandCLI
import LowbandReports
import LowbandTestSupport
import Testing

/// `lowband compare`: verdicts from rows in memory, option parsing, and the built binary.
@Suite struct CompareCommandTests {
    private let lowband = LowbandBinary.path
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
        #expect(!comparison.fails)
        #expect(comparison.entries.first?.change == 2.0)
        let gated = ComparisonPolicy(threshold: 0.10, timeThreshold: 0.25)
        #expect(verdict("wall_clock", "ms", from: 100, to: 125, policy: gated) == .ok)
        #expect(verdict("wall_clock", "ms", from: 100, to: 126, policy: gated) == .regression)
        #expect(verdict("wall_clock", "ms", from: 100, to: 74, policy: gated) == .improved)
    }

    @Test func rowsInOneFileAreListedAndMissingOnesFailUnlessAllowed() {
        let baseline = [row("bytes", "bytes", 5, benchmark: "gone"), row("bytes", "bytes", 5)]
        let current = [row("bytes", "bytes", 5), row("bytes", "bytes", 7, benchmark: "new")]
        let comparison = BenchmarkComparison(baseline: baseline, current: current)
        #expect(comparison.entries.map(\.verdict) == [.ok, .missing, .new])
        #expect(comparison.fails, "a benchmark that stopped running fails the gate")
        #expect(!BenchmarkComparison(baseline: baseline, current: current, policy: ComparisonPolicy(allowMissing: true)).fails)
        #expect(!BenchmarkComparison(baseline: [row("bytes", "bytes", 5)], current: current).fails, "new rows never fail")
    }

    @Test func aReportWithFewOfTheBaselineRowsFailsAndNamesThem() {
        // Issue 14: a file with 4 of 58 rows passed, "54 missing".
        let benchmarks = (1...10).map { "b\($0)" }
        let baseline = benchmarks.flatMap { [row("allocations", "count", 100, benchmark: $0), row("wall_clock", "us", 5, benchmark: $0)] }
        let current = Array(baseline.prefix(4))
        let comparison = BenchmarkComparison(baseline: baseline, current: current)
        #expect(comparison.count(.missing) == 16)
        #expect(comparison.fails)
        let report = ComparisonReport.text(comparison)
        #expect(report.contains("16 baseline metrics are missing from the current report: startup/b10 allocations, startup/b10 wall_clock, "))
        #expect(report.contains(" and 6 more; pass --allow-missing"))
        #expect(report.hasSuffix("FAIL: 20 metrics: 0 regression, 16 missing, 0 improved, 0 new, 2 ok, 2 info, 0 not measured (p50, threshold 10%, times not gated)\n"))
        let allowed = ComparisonReport.text(BenchmarkComparison(baseline: baseline, current: current, policy: ComparisonPolicy(allowMissing: true)))
        #expect(allowed.contains("(allowed by --allow-missing)") && allowed.contains("PASS: 20 metrics"))
    }

    /// `codecs compare` on a machine without valgrind writes no count rows: against a baseline
    /// counted elsewhere they are not measured, totals included, and the sizes are still gated.
    @Test func codecCountsAbsentFromTheWholeRunAreNotMeasuredNotMissing() {
        let counted = ["encode_instructions", "decode_instructions", "encode_allocations", "decode_allocations"].flatMap { metric in
            [row(metric, "count", 1000, benchmark: "msgpack@a.json"), row("total_" + metric, "count", 1000, benchmark: "msgpack")]
        }
        let sizes = [row("bytes", "bytes", 739, benchmark: "msgpack@a.json")]
        let comparison = BenchmarkComparison(baseline: counted + sizes, current: sizes)
        #expect(comparison.count(.notMeasured) == 8 && comparison.count(.missing) == 0 && !comparison.fails)
        #expect(comparison.unmeasured.map(\.metric) == ["encode_instructions", "decode_instructions", "encode_allocations", "decode_allocations"])
        #expect(comparison.unmeasured.allSatisfy { $0.reason == "no valgrind" && $0.rows == 2 })
    }

    @Test func instructionsAbsentFromTheWholeRunAreNotMeasuredNotMissing() {
        // A machine without CPU performance counters writes no instructions rows, nor the rows
        // derived from them; CI on such a machine must pass and say so in one line.
        let derived = [
            row("instructions", "count", 5000, benchmark: "synthetic-100/hand"),
            row("instructions", "count", 50000, benchmark: "synthetic-1000/hand"),
            row("instructions_growth_100_to_1000", "x", 10, benchmark: "synthetic/hand"),
            row("hand_instructions_speedup_vs_container", "x", 30, benchmark: "synthetic-100"),
            BenchmarkRow(suite: "targets", benchmark: "hand-wiring-linear/synthetic/hand", metric: "attainment", unit: "x", value: 1.2, environment: Self.environment),
        ]
        let measured = [
            row("allocations", "count", 170, benchmark: "synthetic-100/hand"),
            row("growth_100_to_1000", "x", 10, benchmark: "synthetic/hand"),
            BenchmarkRow(suite: "targets", benchmark: "hand-wiring-20x-container/synthetic-100", metric: "attainment", unit: "x", value: 1.4, environment: Self.environment),
        ]
        let comparison = BenchmarkComparison(baseline: derived + measured, current: measured, targetMetrics: CompareCommand.targetMetrics)
        #expect(comparison.count(.notMeasured) == 5)
        #expect(comparison.count(.missing) == 0)
        #expect(!comparison.fails)
        #expect(comparison.unmeasured == [UnmeasuredMetric(metric: "instructions", reason: "no CPU performance counters", rows: 5)])
        let report = ComparisonReport.text(comparison)
        #expect(report.contains("\ninstructions: not measured on this machine (no CPU performance counters); 5 rows not compared\n"))
        #expect(!report.contains("instructions_growth"), "rows not compared are not in the table")

        // Some instructions rows measured and others absent: lost for another reason, so missing.
        let partial = BenchmarkComparison(baseline: derived + measured, current: measured + [derived[0]], targetMetrics: CompareCommand.targetMetrics)
        #expect(partial.unmeasured.isEmpty)
        #expect(partial.count(.missing) == 4)
        #expect(partial.fails)
        // Other metrics absent from the whole run are missing, not excused.
        let noAllocations = BenchmarkComparison(baseline: measured, current: Array(measured.dropFirst()))
        #expect(noAllocations.count(.missing) == 1 && noAllocations.fails)
    }

    /// `--not-gated METRIC`: a figure known to move beyond its threshold on the gating machine
    /// (the wall-clock growth ratio moved +51% under load in CI) is shown as info; the others
    /// keep their gate.
    @Test func aMetricNamedNotGatedIsShownAsInfo() throws {
        var policy = ComparisonPolicy(threshold: 0.10, ratioThreshold: 0.50)
        #expect(verdict("growth_100_to_1000", "x", from: 11.13, to: 16.8, policy: policy) == .regression)
        policy.ungated = ["growth_100_to_1000"]
        #expect(verdict("growth_100_to_1000", "x", from: 11.13, to: 16.8, policy: policy) == .info)
        #expect(verdict("hand_speedup_vs_container", "x", from: 40, to: 19, policy: policy) == .regression)
        #expect(verdict("allocations", "count", from: 1000, to: 1200, policy: policy) == .regression)
        let command = try #require(try Lowband.parseAsRoot(["compare", "a.csv", "b.csv", "--not-gated", "growth_100_to_1000", "--not-gated", "x"]) as? CompareCommand)
        #expect(command.policy.ungated == ["growth_100_to_1000", "x"])
    }

    @Test func theTableShowsRegressionsFirstAndChangesOnlyHidesTheRest() {
        let baseline = (1...6).map { row("allocations", "count", 1000, benchmark: "b\($0)") } + [row("wall_clock", "ms", 10), row("gone", "bytes", 5)]
        var current = (1...6).map { row("allocations", "count", 1000, benchmark: "b\($0)") } + [row("wall_clock", "ms", 30), row("fresh", "bytes", 5)]
        current[1].p50 = 800  // b2 improved
        current[4].p50 = 1500  // b5 regressed
        for index in current.indices { current[index].min = Swift.min(current[index].min, current[index].p50); current[index].max = Swift.max(current[index].max, current[index].p50) }
        let comparison = BenchmarkComparison(baseline: baseline, current: current)
        let verdicts = comparison.entriesByVerdict.map(\.verdict)
        #expect(verdicts == [.regression, .missing, .improved, .new, .ok, .ok, .ok, .ok, .info])
        #expect(comparison.entriesByVerdict.first?.key.benchmark == "b5")

        let lines = ComparisonReport.text(comparison, changesOnly: true).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let tableRows = lines.dropFirst(2).prefix { !$0.isEmpty }
        #expect(tableRows.map { $0.split(separator: " ").last.map(String.init) } == ["REGRESSION", "missing", "improved", "new"])
        #expect(lines.contains("5 unchanged or ungated metrics not shown (--changes-only)"))
        let quiet = BenchmarkComparison(baseline: baseline.prefix(1).map { $0 }, current: current.prefix(1).map { $0 })
        #expect(ComparisonReport.text(quiet, changesOnly: true).hasPrefix("No metric changed beyond its threshold.\n"))
    }

    @Test func changesAreShownPreciselyEnoughForFineThresholds() {
        #expect(ComparisonReport.percent(0.125) == "+12.5%")
        #expect(ComparisonReport.percent(0.0026) == "+0.26%")
        #expect(ComparisonReport.percent(-0.0004) == "-0.04%")
        #expect(ComparisonReport.percent(0.2) == "+20%")
        #expect(ComparisonReport.percent(4.41) == "+441%")
        #expect(ComparisonReport.percent(0) == "0%")
        #expect(ComparisonReport.percent(-.infinity) == "-inf%")
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
        #expect(defaults.policy == ComparisonPolicy(threshold: 0.10, timeThreshold: nil, statistic: .p50, allowMissing: false))
        #expect(!defaults.changesOnly)
        let custom = try #require(
            try Lowband.parseAsRoot([
                "compare", "a.csv", "b.csv", "--threshold", "5%", "--time-threshold", "25%", "--ratio-threshold", "0.5%",
                "--metric-column", "p99", "--allow-missing", "--changes-only",
            ]) as? CompareCommand
        )
        #expect(custom.policy == ComparisonPolicy(threshold: 0.05, ratioThreshold: 0.005, timeThreshold: 0.25, statistic: .p99, allowMissing: true))
        #expect(custom.changesOnly)
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["compare", "a.csv", "b.csv", "--threshold", "-5%"]) }
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["compare", "a.csv", "b.csv", "--metric-column", "mean"]) }
        #expect(CompareCommand.badInputExitCode == 2)
    }

    @Test func aThresholdWithoutAUnitIsRefusedWithWhatItProbablyMeant() {
        // Issue 14: `--time-threshold 0.25` meant 0.25% and printed as 0.3%.
        do {
            _ = try Lowband.parseAsRoot(["compare", "a.csv", "b.csv", "--time-threshold", "0.25"])
            Issue.record("a bare number parsed")
        } catch {
            let message = Lowband.message(for: error)
            #expect(message.contains("'--time-threshold <time-threshold>'"), "\(message)")
            #expect(message.contains("a threshold needs a unit: write 25% (a fraction of 0.25) or 0.25%"), "\(message)")
        }
        for bad in ["10", "ten%", "%", "inf%"] {
            #expect(throws: (any Error).self, "\(bad)") { try Lowband.parseAsRoot(["compare", "a.csv", "b.csv", "--threshold", bad]) }
        }
    }

    @Test func thresholdsArePrintedAsGiven() {
        let policy = ComparisonPolicy(threshold: 0.125, ratioThreshold: 0.5, timeThreshold: 0.0025)
        let report = ComparisonReport.text(BenchmarkComparison(baseline: [row("allocations", "count", 1)], current: [row("allocations", "count", 1)], policy: policy))
        #expect(report.contains("(p50, threshold 12.5%, ratio threshold 50%, time threshold 0.25%)"), "\(report)")
        #expect(Percentage(fraction: 0.0025).description == "0.25%")
        #expect(Percentage(fraction: 0.1).description == "10%")
    }

    // MARK: The built binary

    private func withReports(_ baseline: [BenchmarkRow], _ current: [BenchmarkRow], _ body: (String, String) async throws -> Void) async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-compare")
        let baselinePath = directory.file("baseline.csv")
        let currentPath = directory.file("current.csv")
        try BenchmarkCSV.write(rows: baseline, to: baselinePath)
        try BenchmarkCSV.write(rows: current, to: currentPath)
        try await body(baselinePath, currentPath)
    }

    @Test func binaryExitsOneOnARegressionOnly() async throws {
        let baseline = [row("allocations", "count", 1000), row("wall_clock", "ms", 100)]
        try await withReports(baseline, [row("allocations", "count", 1200), row("wall_clock", "ms", 100)]) { old, new in
            let result = try await LowbandBinary.run(["compare", old, new])
            #expect(result.status == 1, "\(result.stderrText)")
            #expect(result.stdoutText.contains("REGRESSION"))
            #expect(result.stdoutText.contains("+20%"))
            #expect(result.stdoutText.contains("FAIL: 2 metrics"))
            #expect(result.stderrText.isEmpty)
            let looser = try await LowbandBinary.run(["compare", old, new, "--threshold", "25%"])
            #expect(looser.status == 0, "\(looser.stderrText)")
        }
        try await withReports(baseline, [row("allocations", "count", 1000), row("wall_clock", "ms", 500)]) { old, new in
            let result = try await LowbandBinary.run(["compare", old, new])
            #expect(result.status == 0, "\(result.stderrText)")
            #expect(result.stdoutText.contains("info"))
            #expect(result.stdoutText.contains("PASS: 2 metrics"))
            let gated = try await LowbandBinary.run(["compare", old, new, "--time-threshold", "25%"])
            #expect(gated.status == 1)
        }
    }

    @Test func binaryTestsSamplesPrintsMarkdownAndRefusesContradictoryFlags() async throws {
        func timed(_ center: Double, seed: Int) -> BenchmarkRow {
            let values = (0..<300).map { (index: Int) -> Double in
                let position: Double = Double((index * 7919 + seed * 104_729) % 1009) / 1009
                return center * (0.9 + 0.2 * position)
            }
            var row = BenchmarkRow(suite: "startup", benchmark: "cold", metric: "wall_clock", unit: "us", samples: values, environment: Self.environment)
            row.sampleValues = values
            return row
        }
        try await withReports([timed(1000, seed: 1)], [timed(1100, seed: 2)]) { old, new in
            let text = try await LowbandBinary.run(["compare", old, new])
            #expect(text.status == 1, "\(text.stderrText)")
            #expect(text.stdoutText.contains("REGRESSION") && text.stdoutText.contains(" p="), "\(text.stdoutText)")
            let markdown = try await LowbandBinary.run(["compare", old, new, "--format", "markdown"])
            #expect(markdown.status == 1)
            #expect(markdown.stdoutText.hasPrefix("### Benchmark comparison: ❌ **FAIL**\n"), "\(markdown.stdoutText)")
            let loose = try await LowbandBinary.run(["compare", old, new, "--min-effect", "15%"])
            #expect(loose.status == 0, "\(loose.stdoutText)")
            let contradictory = try await LowbandBinary.run(["compare", old, new, "--allow-missing", "--require-all"])
            #expect(contradictory.status == 2)
            #expect(contradictory.stderrText.contains("contradict"))
        }
    }

    @Test func binaryRequireAllFailsOnAMetricThisMachineDidNotMeasure() async throws {
        let baseline = [row("allocations", "count", 1000), row("instructions", "count", 50_000)]
        try await withReports(baseline, [row("allocations", "count", 1000)]) { old, new in
            let lenient = try await LowbandBinary.run(["compare", old, new])
            #expect(lenient.status == 0, "no counters on this machine is not a regression: \(lenient.stdoutText)")
            #expect(lenient.stdoutText.contains("instructions: not measured on this machine"))
            let strict = try await LowbandBinary.run(["compare", old, new, "--require-all"])
            #expect(strict.status == 1, "\(strict.stdoutText)")
            #expect(strict.stdoutText.contains("(fails the gate: --require-all)"), "\(strict.stdoutText)")
        }
    }

    @Test func binaryPrintsOneErrorLineForAMalformedFileAndExitsTwo() async throws {
        try await withReports([row("allocations", "count", 1000)], [row("allocations", "count", 1000)]) { old, new in
            var text = try String(contentsOfFile: old, encoding: .utf8)
            text += "startup,warm,allocations,count,abc,1,1,1,1,1,abc1234,6.3,ci-1,2025-01-31T12:00:00Z,lowband run,abc1234\n"
            try text.write(toFile: old, atomically: true, encoding: .utf8)
            let result = try await LowbandBinary.run(["compare", old, new])
            #expect(result.status == 2, "bad input is not a regression")
            #expect(result.stdoutText.isEmpty)
            #expect(result.stderrText == "lowband compare: error: \(old):3: column 'p50' is not a number: \"abc\"\n")
        }
    }

    @Test func binaryListsEveryErrorOfBothFiles() async throws {
        // Issue 14: only the first error of a file was reported.
        try await withReports([row("allocations", "count", 1000)], [row("allocations", "count", 1000)]) { old, new in
            let header = BenchmarkCSV.legacyColumns.joined(separator: ",")  // as other programs write it
            try "\(header)\ns,a,m,ms,x,1,1,1,1,1,,,,\ns,b,m,ms,1,1,1,1,1,0,,,,\ns,\"c,m\n".write(toFile: old, atomically: true, encoding: .utf8)
            try "\(header)\ns,a,m,,1,1,1,1,1,1,,,,\n".write(toFile: new, atomically: true, encoding: .utf8)
            let result = try await LowbandBinary.run(["compare", old, new])
            #expect(result.status == 2)
            #expect(result.stderrText.split(separator: "\n").map(String.init) == [
                "lowband compare: error: \(old):2: column 'p50' is not a number: \"x\"",
                "lowband compare: error: \(old):3: column 'samples' is not a positive whole number: \"0\"",
                "lowband compare: error: \(old):4: quoted field is never closed",
                "lowband compare: error: \(new):2: column 'unit' is empty",
            ])
        }
        // Every unit change is listed too.
        let units = [row("allocations", "count", 1, benchmark: "a"), row("allocations", "count", 1, benchmark: "b")]
        try await withReports(units, units.map { var changed = $0; changed.unit = "allocations"; return changed }) { _, new in
            let result = try await LowbandBinary.run(["compare", new, new])
            #expect(result.status == 0, "a file against itself")
        }
        try await withReports(units, units.map { var changed = $0; changed.unit = "bytes"; return changed }) { old, new in
            let result = try await LowbandBinary.run(["compare", old, new])
            #expect(result.status == 2)
            #expect(result.stderrText.split(separator: "\n").count == 2, "\(result.stderrText)")
            #expect(result.stderrText.contains("\(new):3: unit of startup/b allocations is 'bytes' but 'count' in \(old):3"))
        }
    }

    @Test func binaryComparesAReportFromAnotherProgram() async throws {
        // Issue 14: a non-Swift app's CSV had to fill swift_version, commit, host and timestamp.
        let header = BenchmarkCSV.legacyColumns.joined(separator: ",")  // as other programs write it
        try await withReports([], []) { old, new in
            try "\(header)\napp,launch,wall_clock,ms,100,110,120,90,130,20,,,,\napp,launch,allocations,count,500,500,500,500,500,20,,,,\n"
                .write(toFile: old, atomically: true, encoding: .utf8)
            try "\(header)\napp,launch,wall_clock,ms,101,110,120,90,130,20,,,,\napp,launch,allocations,count,700,700,700,700,700,20,,,,\n"
                .write(toFile: new, atomically: true, encoding: .utf8)
            let result = try await LowbandBinary.run(["compare", old, new])
            #expect(result.status == 1, "\(result.stderrText)")
            #expect(result.stderrText.isEmpty)
            #expect(result.stdoutText.contains("+40%  REGRESSION"))
        }
    }
}
