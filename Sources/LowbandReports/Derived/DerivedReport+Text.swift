extension DerivedReport {
    /// What a benchmark run prints after its derived figures: the derived rows, the targets'
    /// table (goal, measured, attainment, verdict) and how many were met.
    public func text() -> String {
        var text = ""
        if !derived.isEmpty {
            var table = TextTable(headers: ["suite", "benchmark", "metric", "unit", "value"], alignments: [.left, .left, .left, .left, .right])
            table.rows = derived.map { [$0.suite, $0.benchmark, $0.metric, $0.unit, TextTable.number($0.p50)] }
            text += table.rendered()
        }
        if !outcomes.isEmpty {
            text += (text.isEmpty ? "" : "\n") + BenchmarkTarget.table(outcomes)
            let missed = outcomes.count { !$0.met }
            text += "\n\(outcomes.count - missed) of \(outcomes.count) targets met\n"
        }
        return text
    }
}
