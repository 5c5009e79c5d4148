/// The one percentile definition of every report, benchmark and gate: **nearest rank**.
///
/// The p-th percentile of n samples is the sample of rank ⌈p·n⌉ (from 1) in ascending order,
/// clamped to 1…n: the smallest sample at or below which at least p of the samples lie. It is
/// always a measured value (never an average of two), the same on every machine, and the
/// median of an even count is the lower of the two middle samples.
package enum Percentile {
    /// The index (from 0) of the `fraction`-th percentile among `count` sorted samples.
    ///
    /// - Precondition: `count > 0`.
    package static func index(_ fraction: Double, count: Int) -> Int {
        let rank = Int((fraction * Double(count)).rounded(.up))
        return Swift.min(Swift.max(rank, 1), count) - 1
    }

    /// The `fraction`-th percentile of samples sorted ascending; nil without samples.
    package static func of(sorted: [Double], _ fraction: Double) -> Double? {
        sorted.isEmpty ? nil : sorted[index(fraction, count: sorted.count)]
    }

    /// The `fraction`-th percentile of samples in any order, found by selection rather than
    /// sorting (for live figures asked for often over many samples); nil without samples.
    package static func of(unsorted values: [Double], _ fraction: Double) -> Double? {
        values.isEmpty ? nil : smallest(index(fraction, count: values.count), of: values)
    }

    /// The median (nearest rank) of samples in any order; nil without samples.
    package static func median(_ values: [Double]) -> Double? {
        of(unsorted: values, 0.5)
    }

    /// The `k`-th smallest of `values` (from 0): Hoare's selection, the middle element as pivot.
    static func smallest(_ k: Int, of values: [Double]) -> Double {
        var values = values
        var low = 0
        var high = values.count - 1
        while low < high {
            let pivot = values[(low + high) / 2]
            var i = low
            var j = high
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            // low...j hold values <= pivot, i...high values >= pivot, and between them the pivot.
            if k <= j {
                high = j
            } else if k >= i {
                low = i
            } else {
                return values[k]
            }
        }
        return values[k]
    }
}

/// p50, p90, p99, min and max of a set of samples (nearest-rank, `Percentile`).
package struct PercentileSummary: Sendable, Hashable, Codable {
    /// The median.
    package var p50: Double
    /// The 90th percentile.
    package var p90: Double
    /// The 99th percentile.
    package var p99: Double
    /// The smallest sample.
    package var min: Double
    /// The largest sample.
    package var max: Double
    /// How many samples there were.
    package var samples: Int

    /// The summary of `values` in any order; nil without samples.
    package init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        p50 = sorted[Percentile.index(0.50, count: sorted.count)]
        p90 = sorted[Percentile.index(0.90, count: sorted.count)]
        p99 = sorted[Percentile.index(0.99, count: sorted.count)]
        min = sorted[0]
        max = sorted[sorted.count - 1]
        samples = sorted.count
    }
}
