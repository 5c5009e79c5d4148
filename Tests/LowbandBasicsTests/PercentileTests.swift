import LowbandBasics
import LowbandDeterminism
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

    /// The summary as sorting gives it, bit for bit (the records and reports print these).
    private static func sortedSummary(_ values: [Double]) -> [UInt64] {
        let sorted = values.sorted()
        return [
            sorted[Percentile.index(0.5, count: sorted.count)], sorted[Percentile.index(0.9, count: sorted.count)],
            sorted[Percentile.index(0.99, count: sorted.count)], sorted[0], sorted[sorted.count - 1],
        ].map(\.bitPattern)
    }

    @Test func summaryBySelectionIsTheSortedSummaryBitForBit() throws {
        var generator = SeededGenerator(seed: 7)
        func next(_ spread: UInt64) -> Double {
            Double(UInt64.random(in: 0 ..< spread, using: &generator)) / 8 - Double(spread) / 16
        }
        var cases: [[Double]] = [[0], [5, 5], [3, 1, 2], [-1, .infinity, -.infinity, 2]]
        for count in [1, 2, 3, 9, 10, 99, 100, 101, 1_000, 52_394] {
            for spread: UInt64 in [1, 2, 17, 1_000_000] {
                cases.append((0 ..< count).map { _ in next(spread) })
            }
        }
        // Already in order, in reverse, and one run of ties: Hoare's worst arrangements.
        cases.append((0 ..< 5_000).map(Double.init))
        cases.append((0 ..< 5_000).reversed().map(Double.init))
        cases.append([Double](repeating: 1.5, count: 4_096))
        // A negative zero beside zeros and a NaN: sorted as before (a stable sort orders ties by place).
        cases.append([0, -0.0, 0, -0.0, 1, -1])
        cases.append([-0.0, 0, 2])
        cases.append([.nan, 1, 2, 3])
        for values in cases {
            let summary = try #require(PercentileSummary(values))
            let got = [summary.p50, summary.p90, summary.p99, summary.min, summary.max].map(\.bitPattern)
            #expect(got == Self.sortedSummary(values), "\(values.count) values: \(values.prefix(8))")
            #expect(summary.samples == values.count)
        }
        #expect(PercentileSummary([]) == nil)
    }
}
