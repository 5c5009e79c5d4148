import LowbandRunReport

/// The figures of a run's latency breakdown: one metric per stage and the slowest deliveries.
enum BreakdownSummary {
    /// `stage.<name>` (ms, one sample per delivery) for every stage, then `stage.total`.
    static func metrics(_ breakdowns: [MessageBreakdown]) -> [RunMetric] {
        guard !breakdowns.isEmpty else { return [] }
        var metrics = LatencyStage.allCases.enumerated().map { index, stage in
            RunMetric(name: "stage.\(stage.rawValue)", unit: "ms", values: breakdowns.map { $0.stages[index] })
        }
        metrics.append(RunMetric(name: "stage.total", unit: "ms", values: breakdowns.map(\.totalMilliseconds)))
        return metrics
    }

    /// The `count` slowest deliveries, slowest first (ties: earlier message, then receiver).
    static func slowest(_ breakdowns: [MessageBreakdown], count: Int) -> [MessageBreakdown] {
        let sorted = breakdowns.sorted {
            ($0.totalMilliseconds, -$0.message, -$0.receiver) > ($1.totalMilliseconds, -$1.message, -$1.receiver)
        }
        return Array(sorted.prefix(count))
    }
}
