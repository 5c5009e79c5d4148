import LowbandReports
import Testing

/// The derived-figures API a benchmark kit declares its ratios and targets with.
@Suite struct DerivedFiguresTests {
    static let environment = RunEnvironment(commit: "abc1234", swiftVersion: "6.3", host: "ci", timestamp: "2026-01-01T00:00:00Z")

    static func row(_ suite: String, _ benchmark: String, _ metric: String, _ value: Double, p99: Double? = nil) -> BenchmarkRow {
        var row = BenchmarkRow(suite: suite, benchmark: benchmark, metric: metric, unit: "us", value: value, environment: environment)
        if let p99 { row.p99 = p99 }
        return row
    }

    /// A kit's declaration in miniature: encode time over JSON's, and a target on it.
    static let figures = DerivedFigures(
        ratios: [
            DerivedRatio(suite: "codec", metric: "speedup_vs_json", direction: .higherIsBetter, summary: "JSON's time over the codec's") { report in
                report.groups(suite: "codec", operations: ["encode"]).filter { !$0.hasSuffix("/json") }.map { pair in
                    let fixture = pair.split(separator: "/")[0]
                    return .init(benchmark: pair, numerator: report.value("codec", "\(fixture)/json/encode", "wall_clock"), denominator: report.value("codec", "\(pair)/encode", "wall_clock"))
                }
            }
        ],
        targets: [
            BenchmarkTarget(
                name: "fast-3x", promise: "3x JSON", suite: "codec", benchmarkSuffix: "/fast", excludedPrefixes: ["tiny/"],
                metric: "speedup_vs_json", comparison: .atLeast, goal: 3
            ),
            BenchmarkTarget(name: "json-p99", promise: "JSON p99 <= 100", suite: "codec", benchmarkSuffix: "/json/encode", metric: "wall_clock", statistic: .p99, comparison: .atMost, goal: 100),
        ]
    )

    static let measured = [
        row("codec", "big/json/encode", "wall_clock", 90, p99: 200),
        row("codec", "big/fast/encode", "wall_clock", 20),
        row("codec", "big/slow/encode", "wall_clock", 0),
        row("codec", "tiny/json/encode", "wall_clock", 6, p99: 50),
        row("codec", "tiny/fast/encode", "wall_clock", 1),
        row("codec", "lone/fast/encode", "wall_clock", 5),
    ]

    @Test func ratiosComeFromTheSameReportAndSkipWhatCannotBeComputed() {
        let report = Self.figures.apply(to: Self.measured, environment: Self.environment)
        #expect(report.derived.map(\.benchmark) == ["big/fast", "tiny/fast"], "no row for a zero denominator (big/slow) or a missing JSON (lone)")
        #expect(report.derived.map(\.p50) == [4.5, 6])
        #expect(report.derived.allSatisfy { $0.suite == "codec" && $0.metric == "speedup_vs_json" && $0.unit == "x" && $0.samples == 1 })
        #expect(report.derived.allSatisfy { $0.commit == "abc1234" && $0.host == "ci" })
    }

    @Test func targetsJudgeTheirStatisticAndLeaveOutExcludedBenchmarks() {
        let report = Self.figures.apply(to: Self.measured, environment: Self.environment)
        let outcomes = report.outcomes.map { "\($0.target.name) \($0.benchmark) \($0.attainment) \($0.met)" }
        #expect(outcomes == ["fast-3x big/fast 1.5 true", "json-p99 big/json/encode 0.5 false", "json-p99 tiny/json/encode 2.0 true"])
        #expect(report.targetRows.map(\.benchmark) == ["fast-3x/big/fast", "json-p99/big/json/encode", "json-p99/tiny/json/encode"])
        #expect(report.targetRows.allSatisfy { $0.suite == "targets" && $0.metric == "attainment" && $0.unit == "x" })
        #expect(report.all.count == Self.measured.count + 2 + 3)
        let table = BenchmarkTarget.table(report.outcomes)
        #expect(table.contains("MISSED by 50%"))
        #expect(table.contains(">= 3"))
        #expect(report.text().hasSuffix("2 of 3 targets met\n"))
    }

    @Test func anUnreachableAttainmentIsCappedInTheReport() {
        let target = BenchmarkTarget(name: "free", promise: "", suite: "s", benchmarkSuffix: "", metric: "m", comparison: .atMost, goal: 1)
        let outcomes = BenchmarkTarget.evaluate([target], rows: [Self.row("s", "b", "m", 0)])
        #expect(outcomes.first?.attainment == .infinity)
        #expect(BenchmarkTarget.rows(outcomes, environment: Self.environment).first?.p50 == 1000)
    }

    @Test func applyingToAFinishedReportGivesTheSameReport() {
        let once = Self.figures.apply(to: Self.measured, environment: Self.environment).all
        let other = Self.row("targets", "explore-1000-seeds-10min/edge", "attainment", 2)
        let stripped = Self.figures.measured(once + [other])
        #expect(stripped == Self.measured + [other], "only the rows these figures derive are taken out")
        #expect(Self.figures.apply(to: Self.figures.measured(once), environment: Self.environment).all == once)
    }

    @Test func groupsAreTheBenchmarksWithoutTheirOperation() {
        let report = ReportRows(Self.measured + [Self.row("other", "x/fast/encode", "wall_clock", 1), Self.row("codec", "big/fast", "wall_clock", 1)])
        #expect(report.groups(suite: "codec", operations: ["encode"]) == ["big/fast", "big/json", "big/slow", "lone/fast", "tiny/fast", "tiny/json"])
        #expect(report.value("codec", "big/json/encode", "wall_clock", .p99) == 200)
        #expect(report.value("codec", "big/json/encode", "allocations") == nil)
    }

    @Test func kitsAreAddedInOrder() {
        let other = DerivedFigures(targets: [BenchmarkTarget(name: "x", promise: "", suite: "s", benchmarkSuffix: "", metric: "m", comparison: .atLeast, goal: 1)])
        let both = Self.figures + other
        #expect(both.ratios.count == 1)
        #expect(both.targets.map(\.name) == ["fast-3x", "json-p99", "x"])
    }
}
