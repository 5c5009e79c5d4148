extension DerivedReport {
    /// What a benchmark run prints after its derived figures: the derived rows, the targets'
    /// table (goal, measured, attainment, verdict) and how many were met.
    public func text() -> String {
        var text = ""
        if !derived.isEmpty {
            var table = PlainTable(headers: ["suite", "benchmark", "metric", "unit", "value"], rightAligned: [false, false, false, false, true])
            table.rows = derived.map { [$0.suite, $0.benchmark, $0.metric, $0.unit, PlainTable.number($0.p50)] }
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

extension BenchmarkTarget {
    /// The readable table of outcomes: goal, measured, attainment and verdict
    /// (`MISSED by 33.3%` when the figure reached two thirds of its goal).
    public static func table(_ outcomes: [Outcome]) -> String {
        var table = PlainTable(
            headers: ["target", "benchmark", "goal", "measured", "attainment", "verdict"],
            rightAligned: [false, false, true, true, true, false]
        )
        for outcome in outcomes {
            let verdict = outcome.met ? "met" : "MISSED by \(PlainTable.number(((1 - outcome.attainment) * 1000).rounded() / 10))%"
            table.rows.append([
                outcome.target.name, outcome.benchmark,
                "\(outcome.target.comparison.rawValue) \(PlainTable.number(outcome.target.goal))",
                PlainTable.number((outcome.measured * 1000).rounded() / 1000),
                PlainTable.number((outcome.attainment * 1000).rounded() / 1000), verdict,
            ])
        }
        return table.rendered()
    }
}

extension RunEnvironment {
    /// The environment columns of `row`: derived rows carry those of the run they were derived from.
    public init(of row: BenchmarkRow) {
        self.init(commit: row.commit, swiftVersion: row.swiftVersion, host: row.host, timestamp: row.timestamp, command: row.command)
    }
}
