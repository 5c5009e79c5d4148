import LowbandDeterminism
import LowbandRunReport
@testable import LowbandScenarios
import Testing

/// The record's slowest deliveries are found in one pass; they must be the first `count` of a
/// stable sort of every delivery by the same order, ties and all.
@Suite struct BreakdownSlowestTests {
    /// Seeded deliveries with many equal totals, messages and receivers (and exact duplicates).
    static func deliveries(seed: UInt64, count: Int) -> [MessageBreakdown] {
        var generator = SeededGenerator(seed: seed)
        return (0 ..< count).map { index in
            let stages = (0 ..< LatencyStage.allCases.count).map { _ in Double(generator.next() % 4) * 12.5 }
            var breakdown = MessageBreakdown(
                message: Int64(generator.next() % 40), chat: 1, sender: nil, receiver: Int(generator.next() % 3),
                startSeconds: Double(index), stages: stages, carrier: "push", attempts: 1)
            breakdown.note = index % 7 == 0 ? "note \(index)" : nil
            return breakdown
        }
    }

    @Test(arguments: [0, 1, 5, 20, 500, 2_000])
    func theSlowestAreTheHeadOfAStableSort(count: Int) {
        for seed: UInt64 in 1 ... 5 {
            let all = Self.deliveries(seed: seed, count: 1_000)
            let sorted = all.sorted {
                ($0.totalMilliseconds, -$0.message, -$0.receiver) > ($1.totalMilliseconds, -$1.message, -$1.receiver)
            }
            #expect(BreakdownSummary.slowest(all, count: count) == Array(sorted.prefix(count)), "seed \(seed), count \(count)")
        }
    }
}
