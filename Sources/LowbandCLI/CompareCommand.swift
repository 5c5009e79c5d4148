public import ArgumentParser
import LowbandReports

/// `lowband compare`: the regression gate between a baseline benchmark report and a current one.
///
/// Deterministic figures (allocations, bytes, counts, ratios) are gated by `--threshold`; timing
/// figures (wall-clock units and throughputs) with samples in both reports by a two-sided
/// Mann–Whitney U test at `--alpha` plus a Hodges–Lehmann interval wholly beyond `--min-effect`; timing
/// figures without samples are shown as `info` unless `--time-threshold` is given. The judging
/// lives in LowbandReports (``BenchmarkComparison``, ``ComparisonReport``). Exit status: 0 the
/// gate passes, 1 it fails (a regression, or a baseline metric missing), ``badInputExitCode`` for
/// bad input. See docs/BENCHMARKS.md.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two benchmark CSV reports and fail on a regression beyond the threshold.",
        discussion: """
            Joins the rows of BASELINE and CURRENT on (suite, benchmark, metric) and prints baseline, \
            current and change side by side, regressions first, then missing rows, improvements, \
            new rows, unchanged rows and info. Allocations, bytes and counts are gated by \
            --threshold, ratios (x) by --ratio-threshold (default: --threshold). Wall-clock times \
            (ns, us, ms, s) and throughputs (…/s) with samples in both reports (a REPORT.samples.csv \
            next to each, written by `lowband bench import`) are judged by a two-sided Mann-Whitney \
            U test at --alpha (1%), and the 1-alpha confidence interval of their Hodges-Lehmann shift \
            (over the baseline's median, shown in the change column) must lie wholly beyond \
            --min-effect (5%); \
            without samples they are gated only by --time-threshold, and shown as info without it. \
            Instruction counts of lowband startup --measure instructions (instructions, \
            estimated_cycles, every run's count in both reports) are gated at twice the larger \
            spread between runs of either report, at least 0.1% (--instruction-threshold sets \
            it). Thresholds need a unit: 10%, 0.5%. A baseline metric missing from CURRENT fails the \
            gate unless --allow-missing; a metric this machine cannot measure at all (instructions \
            without CPU performance counters) is reported in one line and not compared, and fails \
            the gate with --require-all. --format markdown prints a summary for a pull-request \
            comment. Exit status: 0 pass, 1 regression or missing rows, 2 bad input (an \
            unreadable or invalid file, a unit that differs between the files, a bad option); \
            every error of a file is listed. The CSV schema is described in docs/BENCHMARKS.md.
            """
    )

    /// The exit status for bad input (arguments or files): distinct from 1, which means the gate
    /// failed, so a CI script can tell a regression from a broken invocation.
    static let badInputExitCode: Int32 = 2

    @Argument(help: "The baseline report, e.g. reports/baselines/startup.csv.")
    var baseline: String

    @Argument(help: "The current report, e.g. reports/current.csv.")
    var current: String

    @Option(help: "Largest tolerated worsening of allocations, bytes and counts, e.g. 10% (default: 10%).", transform: { try Percentage.parse($0) })
    var threshold = Percentage(fraction: 0.10)

    @Option(help: "Largest tolerated worsening of ratios (unit x) measured within one run, e.g. 30% (default: --threshold).", transform: { try Percentage.parse($0) })
    var ratioThreshold: Percentage?

    @Option(help: "Largest tolerated worsening of instruction counts measured by lowband startup --measure instructions (default: twice their spread between runs, at least 0.1%).", transform: { try Percentage.parse($0) })
    var instructionThreshold: Percentage?

    @Option(help: "Largest tolerated worsening of wall-clock times and throughputs, e.g. 25% (default: not gated, shown as info).", transform: { try Percentage.parse($0) })
    var timeThreshold: Percentage?

    @Option(help: "The statistic to compare: p50, p90, p99, min or max.")
    var metricColumn: BenchmarkRow.Statistic = .p50

    @Option(help: "Significance level of the Mann-Whitney U test on timing samples, e.g. 1% (default: 1%).", transform: { try Percentage.parse($0) })
    var alpha = Percentage(fraction: 0.01)

    @Option(help: "Smallest timing shift the whole confidence interval of a significant change must exceed to count, e.g. 5% (default: 5%).", transform: { try Percentage.parse($0) })
    var minEffect = Percentage(fraction: 0.05)

    @Flag(help: "Pass even when metrics of the baseline are missing from the current report.")
    var allowMissing = false

    @Flag(help: "Fail also when this machine could not measure a baseline metric at all (e.g. instructions without CPU counters).")
    var requireAll = false

    @Option(help: "Output format: text or markdown (a pull-request comment).")
    var format: Format = .text

    @Option(name: .customLong("not-gated"), help: "Show this metric's rows (by metric name, e.g. growth_100_to_1000) as info, never gated: a figure known to move beyond its threshold on the machine that runs the gate (repeatable).")
    var notGated: [String] = []

    @Flag(help: "Show only the rows that changed beyond their threshold, regressed, or are missing or new.")
    var changesOnly = false

    /// The renderings `--format` selects.
    enum Format: String, Sendable, CaseIterable, ExpressibleByArgument {
        case text, markdown
    }

    init() {}

    func validate() throws {
        guard !(allowMissing && requireAll) else {
            throw ValidationError("--allow-missing and --require-all contradict each other; give one")
        }
        guard alpha.fraction > 0, alpha.fraction < 0.5 else {
            throw ValidationError("--alpha must be above 0% and below 50%, e.g. 1%")
        }
    }

    /// The thresholds, test and statistic the options select.
    var policy: ComparisonPolicy {
        var policy = ComparisonPolicy(
            threshold: threshold.fraction, ratioThreshold: ratioThreshold?.fraction, timeThreshold: timeThreshold?.fraction,
            statistic: metricColumn, allowMissing: allowMissing, requireAll: requireAll,
            significance: alpha.fraction, minimumEffect: minEffect.fraction
        )
        policy.ungated = Set(notGated)
        policy.instructionThreshold = instructionThreshold?.fraction
        return policy
    }

    /// The metric each of the targets is judged on, for ``UnmeasuredMetric``.
    static var targetMetrics: [String: String] {
        Dictionary(BenchmarkTarget.all.map { ($0.name, $0.metric) }, uniquingKeysWith: { first, _ in first })
    }

    func run() throws {
        let name = "lowband compare"
        let old = BenchmarkCSV.reading(from: baseline)
        let new = BenchmarkCSV.reading(from: current)
        var errors = old.errors.lines + new.errors.lines
        if errors.isEmpty {
            errors = Self.unitErrors(baseline: old.rows, baselineFile: baseline, current: new.rows, currentFile: current).lines
        }
        guard errors.isEmpty else {
            for line in errors {
                CommandIO.reportError(CommandIO.IOError(description: line), command: name)
            }
            throw ExitCode(Self.badInputExitCode)
        }
        let comparison = BenchmarkComparison(
            baseline: old.rows.map(\.row), current: new.rows.map(\.row), policy: policy, targetMetrics: Self.targetMetrics
        )
        do {
            let text = switch format {
            case .text: ComparisonReport.text(comparison, changesOnly: changesOnly)
            case .markdown: ComparisonReport.markdown(comparison)
            }
            try CommandIO.write(text)
        } catch {
            throw CommandIO.failure(error, command: name)
        }
        if comparison.fails {
            throw ExitCode.failure
        }
    }

    /// Every metric whose unit changed: `ms` against `us` cannot be compared.
    static func unitErrors(
        baseline: [(line: Int, row: BenchmarkRow)], baselineFile: String,
        current: [(line: Int, row: BenchmarkRow)], currentFile: String
    ) -> BenchmarkCSVErrors {
        let old = Dictionary(baseline.map { ($0.row.key, $0) }, uniquingKeysWith: { first, _ in first })
        var errors = BenchmarkCSVErrors()
        for (line, row) in current {
            guard let (oldLine, oldRow) = old[row.key], oldRow.unit != row.unit else { continue }
            errors.append(BenchmarkCSVError(
                code: .invalidValue, file: currentFile, line: line,
                message: "unit of \(row.key) is '\(row.unit)' but '\(oldRow.unit)' in \(baselineFile):\(oldLine); convert one report or refresh the baseline"
            ))
        }
        return errors
    }
}

extension BenchmarkRow.Statistic: ExpressibleByArgument {}

/// Bad arguments to `compare` exit 2 like its other bad input: its 1 means a regression.
extension CompareCommand: ArgumentErrorStatus {
    static var argumentErrorStatus: Int32 { badInputExitCode }
}
