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

    /// The `count` slowest deliveries, slowest first (ties: earlier message, then receiver;
    /// then the input's order, as a stable sort of all of them gives it).
    ///
    /// One pass keeping the `count` best, each delivery's total summed once: sorting every
    /// delivery summed each total at every comparison (the 100-client crowd hour's 52,674 of
    /// them: about 1.6 million sums).
    static func slowest(_ breakdowns: [MessageBreakdown], count: Int) -> [MessageBreakdown] {
        guard count > 0 else { return [] }
        typealias Key = (total: Double, message: Int64, receiver: Int, index: Int)
        // The sort's order: a before b when its (total, -message, -receiver) is greater; equal
        // keys keep the input's order.
        func before(_ a: Key, _ b: Key) -> Bool {
            if (a.total, -a.message, -a.receiver) > (b.total, -b.message, -b.receiver) { return true }
            if (b.total, -b.message, -b.receiver) > (a.total, -a.message, -a.receiver) { return false }
            return a.index < b.index
        }
        var best: [Key] = []
        best.reserveCapacity(count + 1)
        for (index, breakdown) in breakdowns.enumerated() {
            let key: Key = (breakdown.totalMilliseconds, breakdown.message, breakdown.receiver, index)
            if best.count == count, let last = best.last, !before(key, last) { continue }
            var place = best.endIndex
            while place > best.startIndex, before(key, best[place - 1]) { place -= 1 }
            best.insert(key, at: place)
            if best.count > count { best.removeLast() }
        }
        return best.map { breakdowns[$0.index] }
    }
}
