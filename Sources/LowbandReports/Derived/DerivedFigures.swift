/// What a benchmark suite adds to a report of its own: the ratios between its benchmarks, the
/// targets it promises and the summary tables a reader looks at.
///
/// A suite exposes one value (`CodecFigures.declared`, …); whatever applies them after the import
/// (`lowband-bench-derive` in Benchmarks/) concatenates the suites' values with `+` and calls
/// ``apply(to:environment:)``. Nothing else knows a suite's metric names.
public struct DerivedFigures: Sendable {
    /// The suite's derived ratios, in the order their rows are added.
    public var ratios: [DerivedRatio]
    /// The figures the suite promises.
    public var targets: [BenchmarkTarget]
    /// Pivots of derived rows printed after a run (``PivotTable``).
    public var summaries: [PivotTable]

    /// A suite's figures; each part defaults to none.
    public init(ratios: [DerivedRatio] = [], targets: [BenchmarkTarget] = [], summaries: [PivotTable] = []) {
        self.ratios = ratios
        self.targets = targets
        self.summaries = summaries
    }

    /// Both suites' ratios, targets and summaries, `lhs`'s first.
    public static func + (lhs: DerivedFigures, rhs: DerivedFigures) -> DerivedFigures {
        DerivedFigures(ratios: lhs.ratios + rhs.ratios, targets: lhs.targets + rhs.targets, summaries: lhs.summaries + rhs.summaries)
    }

    /// `rows` without the ones these figures derive (their ratios' rows and their targets'
    /// `targets` rows), so applying them to a finished report gives the same report again.
    public func measured(_ rows: [BenchmarkRow]) -> [BenchmarkRow] {
        let ratioKeys = Set(ratios.map { "\($0.suite)\u{0}\($0.metric)" })
        let targetNames = Set(targets.map(\.name))
        return rows.filter { row in
            if row.suite == "targets", let name = row.benchmark.split(separator: "/").first, targetNames.contains(String(name)) { return false }
            return !ratioKeys.contains("\(row.suite)\u{0}\(row.metric)")
        }
    }

    /// The derived rows of `measured` (in the order of ``ratios``), then every target checked
    /// against the measured and derived rows.
    public func apply(to measured: [BenchmarkRow], environment: RunEnvironment) -> DerivedReport {
        let report = ReportRows(measured)
        let derived = ratios.flatMap { $0.rows(of: report, environment: environment) }
        let outcomes = BenchmarkTarget.evaluate(targets, rows: measured + derived)
        return DerivedReport(
            measured: measured, derived: derived, outcomes: outcomes,
            targetRows: BenchmarkTarget.rows(outcomes, environment: environment)
        )
    }
}

/// A report with its derived figures: the measured rows, the ratios, the targets' outcomes and
/// their `targets` rows.
public struct DerivedReport: Sendable {
    /// The rows the benchmarks measured, in report order.
    public var measured: [BenchmarkRow]
    /// The ratios' rows, in the order of the ratios.
    public var derived: [BenchmarkRow]
    /// Every target checked against every row it matches.
    public var outcomes: [BenchmarkTarget.Outcome]
    /// The outcomes as rows of the suite `targets` (metric `attainment`, unit `x`).
    public var targetRows: [BenchmarkRow]
    /// Every row, as the report's CSV holds them: measured, derived, targets.
    public var all: [BenchmarkRow] { measured + derived + targetRows }
}
