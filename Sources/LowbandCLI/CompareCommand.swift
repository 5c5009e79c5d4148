public import ArgumentParser
public import LowbandReports

/// `lowband compare`: the regression gate between a baseline benchmark report and a current one.
///
/// Deterministic figures (allocations, bytes, counts, ratios) are gated by `--threshold`; timing
/// figures (wall-clock units and throughputs) are shown as `info` unless `--time-threshold` is
/// given, because shared CI machines are too noisy to gate on them tightly. See docs/BENCHMARKS.md.
public struct CompareCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two benchmark CSV reports and fail on a regression beyond the threshold.",
        discussion: """
            Joins the rows of BASELINE and CURRENT on (suite, benchmark, metric) and prints baseline, \
            current and change side by side. Exits 1 when a gated metric got worse by more than its \
            threshold (or, with --fail-on-missing, when a baseline metric is absent), else 0. \
            Allocations, bytes and counts are gated by --threshold, ratios (x) by --ratio-threshold \
            (default: --threshold); wall-clock times \
            (ns, us, ms, s) and throughputs (…/s) only by --time-threshold, and are shown as info \
            without it. The CSV schema is described in docs/BENCHMARKS.md.
            """
    )

    @Argument(help: "The baseline report, e.g. reports/baselines/startup.csv.")
    public var baseline: String

    @Argument(help: "The current report, e.g. reports/current.csv.")
    public var current: String

    @Option(help: "Largest tolerated worsening of allocations, bytes and counts, e.g. 10%.")
    public var threshold = Percentage(fraction: 0.10)

    @Option(help: "Largest tolerated worsening of ratios (unit x) measured within one run, e.g. 30% (default: --threshold).")
    public var ratioThreshold: Percentage?

    @Option(help: "Largest tolerated worsening of wall-clock times and throughputs, e.g. 25% (default: not gated, shown as info).")
    public var timeThreshold: Percentage?

    @Option(help: "The statistic to compare: p50, p90, p99, min or max.")
    public var metricColumn: BenchmarkRow.Statistic = .p50

    @Flag(help: "Also fail when a metric of the baseline is missing from the current report.")
    public var failOnMissing = false

    public init() {}

    /// The thresholds and statistic the options select.
    public var policy: ComparisonPolicy {
        ComparisonPolicy(threshold: threshold.fraction, ratioThreshold: ratioThreshold?.fraction, timeThreshold: timeThreshold?.fraction, statistic: metricColumn)
    }

    public func run() throws {
        let name = "lowband compare"
        let comparison: BenchmarkComparison
        do {
            let old = try BenchmarkCSV.numberedRows(from: baseline)
            let new = try BenchmarkCSV.numberedRows(from: current)
            try Self.checkUnits(baseline: old, baselineFile: baseline, current: new, currentFile: current)
            comparison = BenchmarkComparison(baseline: old.map(\.row), current: new.map(\.row), policy: policy)
        } catch {
            throw CommandIO.failure(error, command: name)
        }
        do {
            try CommandIO.write(Self.report(comparison, failOnMissing: failOnMissing))
        } catch {
            throw CommandIO.failure(error, command: name)
        }
        if comparison.fails(failOnMissing: failOnMissing) {
            throw ExitCode.failure
        }
    }

    /// A metric whose unit changed cannot be compared: `ms` against `us` would be nonsense.
    static func checkUnits(
        baseline: [(line: Int, row: BenchmarkRow)], baselineFile: String,
        current: [(line: Int, row: BenchmarkRow)], currentFile: String
    ) throws(BenchmarkCSVError) {
        let old = Dictionary(baseline.map { ($0.row.key, $0) }, uniquingKeysWith: { first, _ in first })
        for (line, row) in current {
            guard let (oldLine, oldRow) = old[row.key], oldRow.unit != row.unit else { continue }
            throw BenchmarkCSVError(
                code: .invalidValue, file: currentFile, line: line,
                message: "unit of \(row.key) is '\(row.unit)' but '\(oldRow.unit)' in \(baselineFile):\(oldLine); convert one report or refresh the baseline"
            )
        }
    }

    /// The side-by-side table and the summary line.
    public static func report(_ comparison: BenchmarkComparison, failOnMissing: Bool = false) -> String {
        var table = TextTable(
            headers: ["benchmark", "metric", "unit", "baseline", "current", "change", "verdict"],
            alignments: [.left, .left, .left, .right, .right, .right, .left]
        )
        for entry in comparison.entries {
            table.rows.append([
                "\(entry.key.suite)/\(entry.key.benchmark)", entry.key.metric, entry.unit,
                entry.baseline.map(TextTable.number) ?? "-", entry.current.map(TextTable.number) ?? "-",
                entry.change.map { Self.percent($0) } ?? "-", entry.verdict.rawValue,
            ])
        }
        let policy = comparison.policy
        let counts = BenchmarkComparison.Verdict.allCases.map { verdict -> String in
            let label = verdict.rawValue.lowercased()
            return "\(comparison.count(verdict)) \(label)"
        }
        let ratioGate = policy.ratioThreshold.map { ", ratio threshold \(percent($0, signed: false))" } ?? ""
        let timeGate = policy.timeThreshold.map { "time threshold \(percent($0, signed: false))" } ?? "times not gated"
        let outcome = comparison.fails(failOnMissing: failOnMissing) ? "FAIL" : "PASS"
        return table.rendered()
            + "\n\(outcome): \(comparison.entries.count) metrics: \(counts.joined(separator: ", ")) "
            + "(\(policy.statistic.rawValue), threshold \(percent(policy.threshold, signed: false))\(ratioGate), \(timeGate))\n"
    }

    /// `fraction` as a percentage with one decimal, e.g. `+12.5%`.
    static func percent(_ fraction: Double, signed: Bool = true) -> String {
        if fraction.isInfinite { return fraction > 0 ? "+inf%" : "-inf%" }
        let value = (fraction * 1000).rounded() / 10
        let text = value == value.rounded() ? String(Int64(value)) : "\(value)"
        return (signed && value > 0 ? "+" : "") + text + "%"
    }
}

/// A percentage option such as `10%` (the `%` is optional: `10` is 10%).
public struct Percentage: ExpressibleByArgument, Sendable, Hashable {
    /// The percentage as a fraction: 10% is 0.1.
    public var fraction: Double

    public init(fraction: Double) {
        self.fraction = fraction
    }

    public init?(argument: String) {
        let number = argument.hasSuffix("%") ? String(argument.dropLast()) : argument
        guard let percent = Double(number), percent.isFinite, percent >= 0 else { return nil }
        fraction = percent / 100
    }

    public var defaultValueDescription: String { CompareCommand.percent(fraction, signed: false) }
}

extension BenchmarkRow.Statistic: ExpressibleByArgument {}
