import LowbandFindings
import LowbandRunReport
import Testing

/// A recorded session's chart says what it draws: a lane per device's app events, partitions in
/// their own colour and counted, each direction's bytes in its own legend entry.
@Suite struct SessionTimelineChartTests {
    private func timeline() -> SessionTimeline {
        var timeline = SessionTimeline()
        timeline.connections = [SessionTimeline.Connection(proxy: "lowband", number: 1, destination: "127.0.0.1:1883", via: nil, rule: nil, opened: 0.5)]
        timeline.stretches = [
            SessionTimeline.Stretch(kind: "partition upstream", proxy: "lowband", start: 2, end: 4, down: true),
            SessionTimeline.Stretch(kind: "outage", proxy: "lowband", start: 6, end: 7, down: true),
        ]
        timeline.mark(.init(kind: "app", at: 1, detail: "alice sent m-1", device: "alice"))
        timeline.mark(.init(kind: "app", at: 1.5, detail: "bob received m-1", device: "bob"))
        timeline.mark(.init(kind: "app", at: 3, detail: "alice acked m-1", device: "alice"))
        timeline.count(200, upstream: true, at: 1)
        timeline.count(900, upstream: false, at: 1)
        timeline.end = 10
        return timeline
    }

    @Test func eachDeviceHasItsLaneAndTheLegendSaysEachDirectionsColour() {
        let figure = SessionTimelineChart.figure(timeline(), title: "session")
        #expect(figure.components(separatedBy: "class=\"lane-label app-lane\"").count - 1 == 2, "\(figure)")
        #expect(figure.contains(">alice</text>") && figure.contains(">bob</text>"))
        #expect(figure.contains("bytes up (above)") && figure.contains("bytes down (below)"))
        #expect(figure.contains("fill=\"#D55E00\"") && figure.contains("class=\"bytes-up\""))
        #expect(figure.contains("class=\"stretch partition\"") && figure.contains("fill=\"#8D6E63\""))
        #expect(figure.contains("1 outage, 0 handovers, 1 partition, 0 resets"), "\(figure)")
    }
}
