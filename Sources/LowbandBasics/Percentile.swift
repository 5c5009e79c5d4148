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
        return select(k, in: &values, from: 0)
    }

    /// The `k`-th smallest of `values[low...]` (`k >= low`), left at index `k` with nothing
    /// larger before it and nothing smaller after it, so a later selection of a larger rank
    /// can start at `k`.
    static func select(_ k: Int, in values: inout [Double], from low: Int) -> Double {
        var low = low
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
    ///
    /// The three percentiles are found by selection, each search starting where the previous
    /// rank was left, and the ends by one pass: the same values as sorting gives, without the
    /// sort (a run's end summarizes each of its metrics and stages several times, and sorting
    /// the crowd hour's 52,000 deliveries each time was about 1.5 % of its samples, issue 39).
    /// Values that sorting could give differently, NaN or a negative zero beside a zero, which
    /// a stable sort orders by position, are sorted as before.
    package init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        guard !values.contains(where: { $0.isNaN || ($0 == 0 && $0.sign == .minus) }) else {
            self.init(sorting: values)
            return
        }
        var working = values
        let count = values.count
        let at50 = Percentile.index(0.50, count: count)
        let at90 = Percentile.index(0.90, count: count)
        let at99 = Percentile.index(0.99, count: count)
        let p50 = Percentile.select(at50, in: &working, from: 0)
        let p90 = Percentile.select(at90, in: &working, from: at50)
        let p99 = Percentile.select(at99, in: &working, from: at90)
        var smallest = values[0]
        var largest = values[0]
        for value in values {
            if value < smallest { smallest = value }
            if value > largest { largest = value }
        }
        self.init(p50: p50, p90: p90, p99: p99, min: smallest, max: largest, samples: count)
    }

    private init(p50: Double, p90: Double, p99: Double, min: Double, max: Double, samples: Int) {
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.min = min
        self.max = max
        self.samples = samples
    }

    /// The summary read from `values` sorted (not empty): the definition the selection above
    /// matches.
    private init(sorting values: [Double]) {
        let sorted = values.sorted()
        self.init(
            p50: sorted[Percentile.index(0.50, count: sorted.count)], p90: sorted[Percentile.index(0.90, count: sorted.count)],
            p99: sorted[Percentile.index(0.99, count: sorted.count)], min: sorted[0], max: sorted[sorted.count - 1], samples: sorted.count)
    }
}
