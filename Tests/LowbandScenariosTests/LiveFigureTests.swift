import LowbandDeterminism
import LowbandRunReport
import LowbandTestSupport
import Testing

@testable import LowbandScenarios

/// The status line's median is the nearest-rank median of the samples, as the record's.
@Suite struct LiveFigureTests {
    @Test func theMedianIsTheSummarysMedian() {
        var random = SeededGenerator(seed: 21)
        for count in [1, 2, 3, 4, 5, 10, 11, 100, 101, 1_000, 4_097] {
            for spread in [3.0, 1_000.0] {
                // Few distinct values (spread 3) make many ties.
                let values = (0 ..< count).map { _ in Double(Int.random(in: 0 ... Int(spread), using: &random)) + (spread > 3 ? Double.random(in: 0 ..< 1, using: &random) : 0) }
                #expect(LiveFigure.median(values) == RunMetric(name: "", unit: "", values: values).summary?.p50, "\(count) values")
            }
        }
        #expect(LiveFigure.median([]) == nil)
        #expect(LiveFigure.median(Array(stride(from: 100.0, to: 0, by: -1))) == 50)
        #expect(LiveFigure.describe(3, "visible", [250, 251.4, 900]) == "visible 3, p50 251 ms")
    }
}
