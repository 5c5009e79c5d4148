import Foundation
import LowbandReports
import Testing

/// `lowband compare` on rows with samples: timing rows are judged by the Mann–Whitney U test plus
/// a minimum Hodges–Lehmann shift; rows without samples keep the threshold rules and say so.
@Suite struct SampleComparisonTests {
    static let environment = RunEnvironment(commit: "abc1234", swiftVersion: "6.3", host: "ci-1", timestamp: "2025-01-31T12:00:00Z")

    /// A wall-clock row of `count` samples around `center` microseconds, jittered ±10%.
    static func timing(_ center: Double, count: Int = 200, seed: Int, benchmark: String = "cold") -> BenchmarkRow {
        let values = StatisticsTests.sample(count, center: center, seed: seed)
        var row = BenchmarkRow(suite: "startup", benchmark: benchmark, metric: "wall_clock", unit: "us", samples: values, environment: environment)
        row.sampleValues = values
        return row
    }

    @Test func aSignificantShiftBeyondTheMinimumEffectIsARegression() throws {
        let comparison = BenchmarkComparison(baseline: [Self.timing(1000, seed: 1)], current: [Self.timing(1080, seed: 2)])
        let entry = try #require(comparison.entries.first)
        let test = try #require(entry.test)
        #expect(entry.verdict == .regression)
        #expect(test.pValue < 0.01)
        #expect(abs(test.change - 0.08) < 0.01)
        #expect(test.lower < test.change && test.change < test.upper)
        #expect(comparison.fails)
        let text = ComparisonReport.text(comparison)
        #expect(text.contains("  +7.9% [+6.3%, +9.5%] p=1.6e-26  REGRESSION\n"), "\(text)")
        #expect(text.contains("times by Mann-Whitney U at α 1% with min effect 5%"), "\(text)")
    }

    @Test func aSignificantShiftBelowTheMinimumEffectPassesAndSoDoesTheSameMachineTwice() {
        // 3% slower with 2,000 samples a side is significant, but below the 5% that counts.
        let small = BenchmarkComparison(baseline: [Self.timing(1000, count: 2000, seed: 1)], current: [Self.timing(1030, count: 2000, seed: 2)])
        #expect(small.entries.first?.test.map { $0.pValue < 0.01 } == true)
        #expect(small.entries.first?.verdict == .ok)
        let same = BenchmarkComparison(baseline: [Self.timing(1000, seed: 1)], current: [Self.timing(1000, seed: 2)])
        #expect(same.entries.first?.verdict == .ok)
        #expect(!same.fails)
        // Faster beyond the effect and significant: improved, and never a failure.
        let faster = BenchmarkComparison(baseline: [Self.timing(1000, seed: 1)], current: [Self.timing(900, seed: 2)])
        #expect(faster.entries.first?.verdict == .improved)
        #expect(!faster.fails)
    }

    @Test func theWholeIntervalMustClearTheMinimumEffect() throws {
        // +8% with 30 samples a side: significant, estimate beyond 5%, but the 99% interval starts
        // below 5% — on a loaded machine such a row is how a few slow samples cry wolf.
        let comparison = BenchmarkComparison(baseline: [Self.timing(1000, count: 30, seed: 1)], current: [Self.timing(1080, count: 30, seed: 2)])
        let test = try #require(comparison.entries.first?.test)
        #expect(test.pValue < 0.01)
        #expect(test.change > 0.05)
        #expect(test.lower < 0.05)
        #expect(comparison.entries.first?.verdict == .ok)
        #expect(!comparison.fails)
    }

    @Test func theSignificanceAndEffectComeFromThePolicy() {
        let baseline = [Self.timing(1000, seed: 1)], current = [Self.timing(1080, seed: 2)]
        let loose = BenchmarkComparison(baseline: baseline, current: current, policy: ComparisonPolicy(minimumEffect: 0.10))
        #expect(loose.entries.first?.verdict == .ok)
        let strict = BenchmarkComparison(baseline: baseline, current: current, policy: ComparisonPolicy(significance: 1e-300))
        #expect(strict.entries.first?.verdict == .ok)
    }

    @Test func timingRowsWithoutSamplesKeepTheThresholdRulesAndSaySo() {
        var old = Self.timing(1000, seed: 1), new = Self.timing(2000, seed: 2)
        new.sampleValues = nil
        let info = BenchmarkComparison(baseline: [old], current: [new])
        #expect(info.entries.first?.verdict == .info)
        #expect(info.entries.first?.test == nil)
        #expect(ComparisonReport.text(info).contains("1 timing row has no samples in one of the reports: compared by threshold (shown as info, not gated), not by the statistical test\n"))
        let gated = BenchmarkComparison(baseline: [old], current: [new], policy: ComparisonPolicy(timeThreshold: 0.25))
        #expect(gated.entries.first?.verdict == .regression)
        // Deterministic rows with samples stay exact: judged by threshold on the statistic.
        old.metric = "allocations"; old.unit = "count"
        var more = old
        more.p50 *= 1.2
        more.p90 = Swift.max(more.p90, more.p50); more.p99 = Swift.max(more.p99, more.p90); more.max = Swift.max(more.max, more.p99)
        let counts = BenchmarkComparison(baseline: [old], current: [more])
        #expect(counts.entries.first?.test == nil)
        #expect(counts.entries.first?.verdict == .regression)
    }

    @Test func requireAllFailsOnMetricsThisMachineDidNotMeasure() {
        let allocations = BenchmarkRow(suite: "startup", benchmark: "cold", metric: "allocations", unit: "count", value: 10, environment: Self.environment)
        let instructions = BenchmarkRow(suite: "startup", benchmark: "cold", metric: "instructions", unit: "count", value: 1000, environment: Self.environment)
        let lenient = BenchmarkComparison(baseline: [allocations, instructions], current: [allocations])
        #expect(lenient.count(.notMeasured) == 1 && !lenient.fails)
        let strict = BenchmarkComparison(baseline: [allocations, instructions], current: [allocations], policy: ComparisonPolicy(requireAll: true))
        #expect(strict.fails)
        #expect(ComparisonReport.text(strict).contains("instructions: not measured on this machine (no CPU performance counters); 1 row not compared (fails the gate: --require-all)\n"))
    }

    @Test func markdownPutsTheVerdictAndRegressionsFirst() {
        let baseline = [Self.timing(1000, seed: 1), Self.timing(500, seed: 3, benchmark: "warm")]
        let current = [Self.timing(1200, seed: 2), Self.timing(500, seed: 4, benchmark: "warm")]
        let markdown = ComparisonReport.markdown(BenchmarkComparison(baseline: baseline, current: current))
        let lines = markdown.split(separator: "\n").map(String.init)
        #expect(lines.first == "### Benchmark comparison: ❌ **FAIL**")
        #expect(lines[1] == "| benchmark | metric | unit | baseline | current | change | verdict |")
        #expect(lines[3].hasPrefix("| startup/cold | wall_clock | us |") && lines[3].hasSuffix("| **REGRESSION** |"), "\(lines[3])")
        #expect(markdown.contains("<details><summary>1 unchanged or ungated metric</summary>"))
        #expect(lines.last?.hasPrefix("`FAIL: 2 metrics: 1 regression") == true)
    }
}
