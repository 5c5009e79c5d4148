import Testing

@testable import LowbandRunReport

@Suite struct TimelineSpansTests {
    @Test func outagesPairStartsWithEndsAndMergeOverlaps() {
        let events = [
            TimelineEvent(seconds: 50, kind: .outageEnd),
            TimelineEvent(seconds: 10, kind: .outageStart),
            TimelineEvent(seconds: 20, kind: .outageEnd),
            TimelineEvent(seconds: 40, kind: .outageStart),
            TimelineEvent(seconds: 45, kind: .outageStart),
            TimelineEvent(seconds: 48, kind: .outageEnd),
            TimelineEvent(seconds: 70, kind: .outageStart),
            TimelineEvent(seconds: .nan, kind: .outageEnd),
        ]
        #expect(TimelineSpans.outages(events, runEnd: 90) == [
            TimeSpan(start: 10, end: 20), TimeSpan(start: 40, end: 50), TimeSpan(start: 70, end: 90, openEnded: true),
        ])
    }

    @Test func anEndBeforeAnyStartMeansTheRunBeganInAnOutage() {
        let events = [TimelineEvent(seconds: 5, kind: .outageEnd), TimelineEvent(seconds: 9, kind: .outageEnd)]
        #expect(TimelineSpans.outages(events, runEnd: 30) == [TimeSpan(start: 0, end: 5)])
    }

    @Test func offlineSpansRunFromDisconnectToReconnectPerClient() {
        let events = [
            TimelineEvent(seconds: 3, kind: .disconnect, client: 0),
            TimelineEvent(seconds: 4, kind: .disconnect, client: 1),
            TimelineEvent(seconds: 5, kind: .disconnect, client: 0),
            TimelineEvent(seconds: 8, kind: .reconnect, client: 0),
            TimelineEvent(seconds: 9, kind: .reconnect, client: 2),
        ]
        #expect(TimelineSpans.offline(events, client: 0, runEnd: 20) == [TimeSpan(start: 3, end: 8)])
        #expect(TimelineSpans.offline(events, client: 1, runEnd: 20) == [TimeSpan(start: 4, end: 20, openEnded: true)])
        #expect(TimelineSpans.offline(events, client: 2, runEnd: 20).isEmpty)
        let counts = TimelineSpans.offlineCount(events)
        #expect(counts.map(\.seconds) == [0, 3, 4, 5, 8, 9])
        #expect(counts.map(\.count) == [0, 1, 2, 2, 1, 1])
    }

    @Test func theTimeAxisCoversDurationEventsAndTraffic() {
        var record = RunRecord(
            scenario: "s", profile: "p", seed: 1, clients: 1, virtualTime: true, command: "", durationSeconds: 10,
            partial: false, floorMilliseconds: nil, metrics: [], traffic: [], timeline: [TimelineEvent(seconds: 12, kind: .note)]
        )
        #expect(TimelineSpans.runEnd(record) == 12)
        record.traffic = [TrafficBucket(startSeconds: 14, upBytes: 1, downBytes: 1)]
        #expect(TimelineSpans.runEnd(record) > 14)
        // A drain after the traffic is part of the run: the axes reach its end.
        record.traffic = []
        record.drain = RunDrain(seconds: 7, settled: true, judgedUntilSeconds: 164)
        #expect(TimelineSpans.runEnd(record) == 17)
        record.drain = nil
        record.durationSeconds = .nan
        record.timeline = []
        record.traffic = []
        #expect(TimelineSpans.runEnd(record) == 0)
    }
}

@Suite struct TrafficSeriesTests {
    private func record(_ traffic: [TrafficBucket], duration: Double = 10) -> RunRecord {
        RunRecord(
            scenario: "s", profile: "p", seed: 1, clients: 1, virtualTime: true, command: "", durationSeconds: duration,
            partial: false, floorMilliseconds: nil, metrics: [], traffic: traffic, timeline: []
        )
    }

    @Test func ratesUseTheGapToTheNextBucketAndGapsStayEmpty() {
        let series = TrafficSeries(record([
            TrafficBucket(startSeconds: 2, upBytes: 100, downBytes: 1_000),
            TrafficBucket(startSeconds: 0, upBytes: 50, downBytes: 500),
            TrafficBucket(startSeconds: 6, upBytes: -4, downBytes: 2_000),
        ]))
        // The typical width is the median gap by nearest rank, as every figure: of 2 s and 4 s, 2 s.
        #expect(series.typicalWidth == 2)
        #expect(series.buckets.map(\.start) == [0, 2, 6])
        // The bucket at 2 s is as wide as a typical one; 4–6 s stays an empty gap.
        #expect(series.buckets.map(\.end) == [2, 4, 8])
        #expect(series.buckets[0].downRate == 250)
        #expect(series.buckets[2].upRate == 0)
        #expect(series.totalDown == 3_500)
        #expect(series.peakRate == 1_000)
    }

    @Test func bucketsSharingAStartAreAddedUp() {
        let series = TrafficSeries(record([
            TrafficBucket(startSeconds: 0, upBytes: 1, downBytes: 10),
            TrafficBucket(startSeconds: 0, upBytes: 2, downBytes: 20),
            TrafficBucket(startSeconds: 1, upBytes: 0, downBytes: 0),
        ]))
        #expect(series.buckets.count == 2)
        #expect(series.buckets[0].downBytes == 30)
        #expect(series.buckets[0].upBytes == 3)
    }

    @Test func aSingleBucketSpansToTheEndOfTheRun() {
        let series = TrafficSeries(record([TrafficBucket(startSeconds: 4, upBytes: 0, downBytes: 600)], duration: 10))
        #expect(series.buckets.first?.end == 10)
        #expect(series.peakRate == 100)
        let timeless = TrafficSeries(record([TrafficBucket(startSeconds: .nan, upBytes: 1, downBytes: 1)]))
        #expect(timeless.buckets.isEmpty)
    }
}

@Suite struct LatencyPointsTests {
    @Test func cumulativePointsEndAtOneAndThinLongSeries() {
        let small = LatencyChart.cumulativePoints(sorted: [1, 2, 3, 4])
        #expect(small.map(\.fraction) == [0.25, 0.5, 0.75, 1])
        let large = LatencyChart.cumulativePoints(sorted: (1...5_000).map(Double.init))
        #expect(large.count == LatencyChart.maximumPoints)
        #expect(large.last?.value == 5_000)
        #expect(large.last?.fraction == 1)
        #expect(zip(large, large.dropFirst()).allSatisfy { $0.value <= $1.value && $0.fraction < $1.fraction })
        #expect(LatencyChart.cumulativePoints(sorted: []).isEmpty)
    }

    @Test func theMainMetricIsPushToVisibleElseTheFirstDistributionInMilliseconds() {
        func record(_ metrics: [RunMetric]) -> RunRecord {
            RunRecord(scenario: "s", profile: "p", seed: 1, clients: 1, virtualTime: true, command: "", durationSeconds: 1,
                      partial: false, floorMilliseconds: nil, metrics: metrics, traffic: [], timeline: [])
        }
        let drain = RunMetric(name: "outbox_drain", unit: "ms", values: [1, 2])
        let single = RunMetric(name: "cold_start", unit: "ms", values: [5])
        let bytes = RunMetric(name: "bytes_down", unit: "bytes", values: [1, 2, 3])
        #expect(LatencyMetricChoice.name(in: [record([single, bytes, drain])]) == "outbox_drain")
        #expect(LatencyMetricChoice.name(in: [record([drain]), record([RunMetric(name: "push_to_visible", unit: "ms", values: [])])]) == "push_to_visible")
        #expect(LatencyMetricChoice.name(in: [record([single, bytes])]) == nil)
        #expect(LatencyMetricChoice.name(in: []) == nil)
    }
}
