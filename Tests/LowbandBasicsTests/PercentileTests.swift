import LowbandBasics
import Testing

/// Every report, benchmark and gate reads percentiles by nearest rank: the sample of rank
/// ⌈p·n⌉, never an average.
@Suite struct PercentileTests {
    @Test func nearestRankPicksAMeasuredSample() {
        #expect(Percentile.of(sorted: [1, 2, 3, 4], 0.5) == 2)
        #expect(Percentile.of(sorted: [1, 2, 3, 4, 5], 0.5) == 3)
        let hundred = (1 ... 100).map(Double.init)
        #expect(Percentile.of(sorted: hundred, 0.99) == 99)
        #expect(Percentile.of(sorted: hundred, 0.90) == 90)
        #expect(Percentile.of(sorted: hundred, 1.0) == 100)
        #expect(Percentile.of(sorted: hundred, 0) == 1)
        #expect(Percentile.of(sorted: [7], 0.99) == 7)
        #expect(Percentile.of(sorted: [], 0.5) == nil)
        #expect(Percentile.median([]) == nil)
    }

    @Test func selectionGivesWhatSortingGives() {
        // A linear congruential sequence: many sizes, ties and orders, the same on every run.
        var state: UInt64 = 42
        func next(_ spread: UInt64) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double((state >> 33) % spread)
        }
        for count in [1, 2, 3, 4, 5, 10, 11, 100, 101, 1_000, 4_097] {
            for spread: UInt64 in [3, 1_000_000] {
                let values = (0 ..< count).map { _ in next(spread) }
                let sorted = values.sorted()
                for fraction in [0.0, 0.25, 0.5, 0.9, 0.99, 1.0] {
                    #expect(Percentile.of(unsorted: values, fraction) == Percentile.of(sorted: sorted, fraction), "\(count) values, p\(fraction)")
                }
                let summary = PercentileSummary(values)
                #expect(summary?.p50 == Percentile.of(sorted: sorted, 0.5))
                #expect(summary?.p99 == Percentile.of(sorted: sorted, 0.99))
                #expect(summary?.min == sorted.first && summary?.max == sorted.last && summary?.samples == count)
            }
        }
    }
}
