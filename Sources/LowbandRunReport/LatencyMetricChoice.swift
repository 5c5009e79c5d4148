/// Which figure the report's distribution chart and floor comparison are about.
enum LatencyMetricChoice {
    /// The metric the whole tool is about; preferred whenever a scenario reports it.
    static let preferredName = "push_to_visible"

    /// `push_to_visible` if any record has it, else the first metric in `ms` with at least two
    /// samples (a distribution needs more than one point); nil when there is none.
    static func name(in records: [RunRecord]) -> String? {
        if records.contains(where: { $0.metric(named: preferredName) != nil }) { return preferredName }
        for record in records {
            if let metric = record.metrics.first(where: { $0.unit == "ms" && finiteSamples($0).count >= 2 }) {
                return metric.name
            }
        }
        return nil
    }

    /// The metric's samples that are finite numbers, in measurement order.
    static func finiteSamples(_ metric: RunMetric) -> [Double] {
        metric.values.filter(\.isFinite)
    }

    /// `push_to_visible` → `push to visible`, for headings.
    static func readable(_ name: String) -> String {
        String(name.map { $0 == "_" ? " " : $0 })
    }
}
