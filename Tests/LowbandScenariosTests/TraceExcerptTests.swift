@testable import LowbandScenarios
import Testing

/// A violation's trace lines come from any trace and any moment without a trap: the excerpt's
/// indices are the trace's own (an `index out of range` was seen once under load).
@Suite struct TraceExcerptTests {
    static let trace: [String] = (0 ..< 5_000).map { index in
        "{\"t_ns\":\(index * 1_000_000),\"event\":\"e\",\"client\":\(index % 3),\"chat\":\(index % 5),\"message\":null,\"value_ns\":null,\"detail\":null}"
    }

    @Test func theLinesNearTheMomentConcernTheClientMostlyBeforeIt() {
        let lines = TraceExcerpt.lines(near: 2.5, client: 1, chat: nil, in: Self.trace)
        #expect(lines.count == 12)
        #expect(lines.allSatisfy { $0.contains("\"client\":1,") })
        let times = lines.compactMap(TraceExcerpt.time(of:))
        #expect(times == times.sorted())
        #expect(times.filter { $0 < 2_500_000_000 }.count == 8)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300, 9.3e9, -5, 0])
    func anyMomentGivesAnExcerpt(_ seconds: Double) {
        let lines = TraceExcerpt.lines(near: seconds, client: nil, chat: 2, in: Self.trace)
        // Past the trace's end only the lines before the moment exist: two thirds of the limit.
        #expect(lines.count == (seconds > 5 ? 8 : 12))
        #expect(TraceExcerpt.lines(near: seconds, client: nil, chat: nil, in: [String]()).isEmpty)
    }

    @Test func slicesUnsortedTracesAndHugeLimitsStayInRange() {
        let slice = Self.trace[1_234 ..< 3_210]
        #expect(TraceExcerpt.lines(near: 2.0, client: 0, chat: nil, in: slice).count == 12)
        #expect(TraceExcerpt.lines(near: 2.0, client: 0, chat: nil, in: Array(Self.trace.reversed())).count == 12)
        #expect(TraceExcerpt.lines(near: 2.0, client: nil, chat: nil, in: Self.trace, limit: .max).count == 4_001)
        #expect(TraceExcerpt.lines(near: 2.0, client: nil, chat: nil, in: Self.trace, limit: 0).isEmpty)
        #expect(TraceExcerpt.lines(near: 2.0, client: nil, chat: nil, in: Self.trace, limit: -3).isEmpty)
        #expect(TraceExcerpt.lines(near: 2.0, client: nil, chat: nil, in: ["not json", "{\"t_ns\":x"]).count == 2)
    }
}
