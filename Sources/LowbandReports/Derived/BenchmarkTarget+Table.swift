extension BenchmarkTarget {
    /// The readable table of outcomes: goal, measured, attainment and verdict
    /// (`MISSED by 33.3%` when the figure reached two thirds of its goal).
    public static func table(_ outcomes: [Outcome]) -> String {
        var table = TextTable(
            headers: ["target", "benchmark", "goal", "measured", "attainment", "verdict"],
            alignments: [.left, .left, .right, .right, .right, .left]
        )
        for outcome in outcomes {
            let verdict = outcome.met ? "met" : "MISSED by \(TextTable.number(((1 - outcome.attainment) * 1000).rounded() / 10))%"
            table.rows.append([
                outcome.target.name, outcome.benchmark,
                "\(outcome.target.comparison.rawValue) \(TextTable.number(outcome.target.goal))",
                TextTable.number((outcome.measured * 1000).rounded() / 1000),
                TextTable.number((outcome.attainment * 1000).rounded() / 1000), verdict,
            ])
        }
        return table.rendered()
    }
}
