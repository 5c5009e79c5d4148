/// A metric the machine of the current run could not measure at all, and the baseline rows that
/// therefore were not compared.
///
/// Some figures need hardware or tools a machine may lack: `instructions` needs CPU performance
/// counters (`perf_event_open`), which many VMs and CI runners do not expose; package-benchmark
/// then writes no `instructions` row at all. `lowband codecs compare` writes no
/// `encode_instructions` (and `decode_`, `_allocations`) rows without valgrind. Such a metric is *not measured*, not *missing*, when
///   1. it is in ``machineDependent`` (a metric whose absence has a known machine cause), and
///   2. the baseline has rows of it, and the current report has **no** row of it: a machine
///      either has the counters or not, so a report with some `instructions` rows and not others
///      lost rows for another reason, and those fail as missing.
/// The baseline rows derived from it are not compared either: a metric whose name holds it as a
/// word (`hand_instructions_speedup_vs_container`, `instructions_growth_100_to_1000`) and a
/// `targets` attainment whose target is judged on such a metric (the comparison's `targetMetrics`).
public struct UnmeasuredMetric: Sendable, Hashable {
    /// The metric, e.g. `instructions`.
    public var metric: String
    /// Why a machine may not measure it, e.g. `no CPU performance counters`.
    public var reason: String
    /// How many baseline rows were not compared because of it (its own and derived ones).
    public var rows: Int

    /// A metric this machine did not measure, with the reason and the rows left uncompared.
    public init(metric: String, reason: String, rows: Int) {
        self.metric = metric
        self.reason = reason
        self.rows = rows
    }

    /// The metrics a machine may be unable to measure, with the reason, in report order.
    public static let machineDependent: [(metric: String, reason: String)] = [
        ("instructions", "no CPU performance counters"),
        // `lowband codecs compare` counts under valgrind where it is installed.
        ("encode_instructions", "no valgrind"), ("decode_instructions", "no valgrind"),
        ("encode_allocations", "no valgrind"), ("decode_allocations", "no valgrind"),
    ]

    /// The machine-dependent metrics of `baseline` of which `current` has no row at all.
    package static func absent(baseline: [BenchmarkRow], current: [BenchmarkRow]) -> [(metric: String, reason: String)] {
        let old = Set(baseline.map(\.metric))
        let new = Set(current.map(\.metric))
        return machineDependent.filter { old.contains($0.metric) && !new.contains($0.metric) }
    }

    /// Whether the row `key` is `metric` or derived from it; `targetMetrics` names the metric each
    /// target (a row of the suite `targets`, benchmark `name/…`) is judged on.
    package static func key(_ key: BenchmarkRow.Key, dependsOn metric: String, targetMetrics: [String: String]) -> Bool {
        if names(key.metric, metric) { return true }
        guard key.suite == "targets", let name = key.benchmark.split(separator: "/").first,
              let judged = targetMetrics[String(name)] else { return false }
        return names(judged, metric)
    }

    /// Whether `name` is `metric`, holds it as one of its `_`-separated words, or ends with it
    /// after a `_` (`total_encode_instructions`).
    private static func names(_ name: String, _ metric: String) -> Bool {
        name == metric || name.hasSuffix("_" + metric) || name.split(separator: "_").contains { $0 == metric }
    }

    /// The report line: `instructions: not measured on this machine (no CPU performance counters); 18 rows not compared`.
    public var line: String {
        "\(metric): not measured on this machine (\(reason)); \(rows) row\(rows == 1 ? "" : "s") not compared"
    }
}
