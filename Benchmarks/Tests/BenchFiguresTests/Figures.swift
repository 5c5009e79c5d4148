import BenchFigures
import LowbandReports

/// Every suite's declarations, as `lowband-bench-derive` applies them.
let allFigures = BenchFigures.all

let environment = RunEnvironment(commit: "abc1234", swiftVersion: "6.3", host: "ci", timestamp: "2026-01-01T00:00:00Z")

/// A measured row with every statistic `value` (p99 `p99` when given).
func row(_ suite: String, _ benchmark: String, _ metric: String, _ value: Double, p99: Double? = nil, min: Double? = nil) -> BenchmarkRow {
    var row = BenchmarkRow(suite: suite, benchmark: benchmark, metric: metric, unit: "count", value: value, environment: environment)
    if let p99 { row.p99 = p99 }
    if let min { row.min = min }
    return row
}

extension DerivedReport {
    /// The p50 of the derived row `benchmark` `metric`, or nil.
    func value(_ benchmark: String, _ metric: String) -> Double? {
        derived.first { $0.benchmark == benchmark && $0.metric == metric }?.p50
    }

    /// `name benchmark met` for every outcome.
    var verdicts: [String] { outcomes.map { "\($0.target.name) \($0.benchmark) \($0.met)" } }
}
