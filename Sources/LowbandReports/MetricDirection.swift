/// Whether a smaller or a larger figure is better for a metric, derived from its unit and name.
///
/// The rule, checked in this order (units compare case-insensitively):
/// - a unit per second (`MB/s`, `ops/s`, `msg/s`) is a throughput: higher is better;
/// - a metric whose name contains `speedup`, `throughput` or `attainment` is higher-better,
///   whatever its unit (a `speedup` in `x`, a `throughput` in `MB/s`, a target's `attainment`);
/// - a count of `cases` a promise was checked on is higher-better: a check that sees fewer
///   cases proves less;
/// - everything else — times (`ns`, `us`, `ms`, `s`), `bytes`, `allocations`, `count`, other
///   ratios such as a compressed size `x` the original — is lower-better.
public enum MetricDirection: String, Sendable, CaseIterable {
    /// A smaller figure is better (times, bytes, allocations).
    case lowerIsBetter = "lower is better"
    /// A larger figure is better (throughputs, speed-ups, attainments).
    case higherIsBetter = "higher is better"

    /// The direction of `metric` measured in `unit`, by the rule above.
    public init(metric: String, unit: String) {
        let unit = unit.lowercased()
        let metric = metric.lowercased()
        if unit.hasSuffix("/s") || unit == "cases" || metric.contains("speedup") || metric.contains("throughput") || metric.contains("attainment") {
            self = .higherIsBetter
        } else {
            self = .lowerIsBetter
        }
    }
}

/// Which threshold of `lowband compare` applies to a metric.
///
/// Shared CI machines are noisy: a wall-clock time or a throughput moves by tens of percent between
/// runs of the same binary, so those are ``timing`` figures — reported, and gated only when
/// `--time-threshold` is given. Allocation counts and byte counts do not depend on the machine's
/// load, so they are ``deterministic`` and gated by `--threshold`. Ratios (`x`) of two figures
/// measured in one run cancel most of the load, but not all of it when the two halves ran a few
/// seconds apart, so they are ``ratio`` figures with a threshold of their own.
public enum MetricGate: String, Sendable, CaseIterable {
    /// Allocations, bytes, counts: gated by `--threshold` (10% by default).
    case deterministic
    /// Ratios in `x` measured within one run: gated by `--ratio-threshold` (default: `--threshold`).
    case ratio
    /// Wall-clock times (`ns`, `us`, `µs`, `ms`, `s`) and throughputs (`…/s`): gated only by
    /// `--time-threshold`, shown as `info` without it.
    case timing

    /// The units of wall-clock time, lowercased.
    public static let timeUnits: Set<String> = ["ns", "us", "µs", "μs", "ms", "s", "sec", "seconds"]

    /// The gate of `metric` measured in `unit`: ``timing`` for time units and throughputs,
    /// ``ratio`` for `x`, else ``deterministic``.
    public init(metric: String, unit: String) {
        let unit = unit.lowercased()
        if Self.timeUnits.contains(unit) || unit.hasSuffix("/s") {
            self = .timing
        } else if unit == "x" {
            self = .ratio
        } else {
            self = .deterministic
        }
    }
}
