/// A record's per-stage metrics (`stage.<name>`, one sample per delivery) as the report reads
/// them: each stage's mean and percentiles, in the order the record lists them.
///
/// Means are what the stacked bar draws because they add up: over the same deliveries the means
/// of the stages sum to the mean total, which no percentile does (the p50 of each stage is
/// usually zero while the p50 total is not). Samples that are not finite are left out.
struct StageFigures: Sendable, Hashable {
    struct Row: Sendable, Hashable {
        /// The metric's name without `stage.`, e.g. `uplink_queue`.
        var name: String
        /// Nil for a stage this version does not know (a newer record); such rows are listed,
        /// not drawn.
        var stage: LatencyStage?
        var mean: Double
        var summary: RunSummary?

        var label: String { stage?.label ?? LatencyMetricChoice.readable(name) }
    }

    static let prefix = "stage."
    static let totalName = "total"

    /// Every stage metric but the total, in the record's order.
    let rows: [Row]
    /// `stage.total`, when the record has it.
    let total: Row?
    /// Deliveries measured: the samples of `stage.total` (or of the largest stage metric).
    let deliveries: Int

    init(_ record: RunRecord) {
        var rows: [Row] = []
        var total: Row?
        var deliveries = 0
        for metric in record.stages where metric.name.hasPrefix(Self.prefix) {
            let name = String(metric.name.dropFirst(Self.prefix.count))
            let samples = LatencyMetricChoice.finiteSamples(metric)
            let row = Row(
                name: name, stage: LatencyStage(rawValue: name),
                mean: samples.isEmpty ? 0 : samples.reduce(0, +) / Double(samples.count),
                summary: RunMetric(name: metric.name, unit: metric.unit, values: samples).summary
            )
            if name == Self.totalName {
                total = row
            } else {
                rows.append(row)
            }
            deliveries = Swift.max(deliveries, samples.count)
        }
        if let total { deliveries = total.summary?.samples ?? 0 }
        self.rows = rows
        self.total = total
        self.deliveries = deliveries
    }

    /// The known stages with time in them, in the order a message goes through them: the
    /// segments of the stacked bar.
    var segments: [(stage: LatencyStage, mean: Double)] {
        LatencyStage.allCases.compactMap { stage in
            guard let row = rows.first(where: { $0.stage == stage }), row.mean > 0 else { return nil }
            return (stage, row.mean)
        }
    }

    /// The sum of the drawn means: the mean total of the deliveries.
    var meanTotal: Double { segments.reduce(0) { $0 + $1.mean } }
}
