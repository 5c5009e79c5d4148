import LowbandAppEvents
import LowbandFindings
import LowbandProxyCore
import LowbandShaper
import Testing

/// A session's timeline from its proxies' events: every connection with its destination, rule,
/// times and bytes; outages, handovers and toxics as stretches; the rest as marks; bytes per
/// second each way. The report's timeline and record.json are drawn from this.
@Suite struct SessionTimelineRecorderTests {
    static func event(_ ms: Int, _ kind: ProxyEvent.Kind, _ connection: Int? = nil, direction: Direction? = nil, bytes: Int? = nil,
                      up: Int? = nil, down: Int? = nil, detail: String? = nil) -> ProxyEvent {
        ProxyEvent(time: .milliseconds(ms), kind: kind, connection: connection, direction: direction, bytes: bytes, upstreamBytes: up, downstreamBytes: down, detail: detail)
    }

    @Test func connectionsStretchesMarksAndBytesComeFromTheProxysEvents() {
        var recorder = SessionTimelineRecorder()
        let events: [ProxyEvent] = [
            Self.event(100, .open, 1, detail: "127.0.0.1:5000 → img.cdn.example.com:443 (socks) [rule 1: *.cdn.example.com=edge]"),
            Self.event(150, .dns, 1, detail: "img.cdn.example.com resolved"),
            Self.event(500, .connect, 1),
            Self.event(600, .deliver, 1, direction: .upstream, bytes: 300),
            Self.event(900, .deliver, 1, direction: .downstream, bytes: 1500),
            Self.event(1200, .deliver, 1, direction: .downstream, bytes: 1500),
            Self.event(1300, .open, 2, detail: "127.0.0.1:5002 → 127.0.0.1:8080"),
            Self.event(1400, .outageStart, detail: "handover (2 s)"),
            Self.event(1500, .toxicAdded, direction: .downstream, detail: "slow: latency jitter=0 latency=500"),
            Self.event(2000, .link, detail: "3g seed 8"),
            Self.event(3400, .outageEnd),
            Self.event(3500, .reset, 2, detail: "reset by a fault"),
            Self.event(3500, .close, 2, up: 0, down: 0, detail: "reset by a fault"),
            Self.event(4000, .close, 1, up: 300, down: 3000, detail: "client: EOF"),
            Self.event(4100, .denied, detail: "127.0.0.1:5004 (socks5): ads.example.com:443 is blocked by rule 2: ads.example.com=block"),
        ]
        // The second proxy's clock started 1 s into the session. The stretches are the network
        // record's, fed the same events.
        var network = NetworkRecord()
        for event in events {
            recorder.record(event, proxy: "lowband", offset: .zero)
            network.record(event, proxy: "lowband", offset: .zero)
        }
        recorder.record(Self.event(0, .open, 1, detail: "127.0.0.1:6000 → 127.0.0.1:9090"), proxy: "second", offset: .seconds(1))
        recorder.markApp(at: 2.5, device: "alice", kind: "sent", message: "m-1")
        network.finish(at: 5)
        let timeline = recorder.finish(at: 5, stretches: network.spans)

        #expect(timeline.connections.count == 3)
        let first = timeline.connections[0]
        #expect(first.destination == "img.cdn.example.com:443" && first.via == "socks" && first.rule == "rule 1: *.cdn.example.com=edge")
        #expect(first.opened == 0.1 && first.connected == 0.5 && first.closed == 4.0 && !first.reset)
        #expect(first.upstreamBytes == 300 && first.downstreamBytes == 3000 && first.closeReason == "client: EOF")
        let second = timeline.connections[1]
        #expect(second.destination == "127.0.0.1:8080" && second.via == nil && second.rule == nil)
        #expect(second.reset && second.closed == 3.5 && second.connected == nil)
        #expect(timeline.connections[2].proxy == "second" && timeline.connections[2].opened == 1 && timeline.connections[2].closed == nil)
        #expect(timeline.destinations.map(\.destination) == ["img.cdn.example.com:443", "127.0.0.1:8080", "127.0.0.1:9090"])

        #expect(timeline.stretches == [
            SessionTimeline.Stretch(kind: "handover", proxy: "lowband", start: 1.4, end: 3.4, down: true, origin: "the profile"),
            SessionTimeline.Stretch(kind: "toxic latency downstream", proxy: "lowband", start: 1.5, end: 5, down: false, origin: "the control API"),
        ])
        #expect(timeline.marks.map(\.kind) == ["dns", "toxic", "link", "reset", "denied", "app"])
        #expect(timeline.marks.first { $0.kind == "link" }?.detail == "switched to 3g seed 8")
        #expect(timeline.marks.first { $0.kind == "toxic" }?.detail == "added slow: latency jitter=0 latency=500")
        #expect(timeline.marks.last?.detail == "alice sent m-1")
        #expect(timeline.traffic == [
            SessionTimeline.Second(second: 0, upstreamBytes: 300, downstreamBytes: 1500),
            SessionTimeline.Second(second: 1, upstreamBytes: 0, downstreamBytes: 1500),
        ])
        #expect(timeline.end == 5)
    }

    @Test func everyListIsCappedAndWhatIsLeftOutIsCounted() {
        var recorder = SessionTimelineRecorder()
        for number in 1...(SessionTimeline.maximumConnections + 7) {
            recorder.record(Self.event(number, .open, number, detail: "p → h:1"), proxy: "lowband", offset: .zero)
            recorder.record(Self.event(number, .reset, number, detail: "x"), proxy: "lowband", offset: .zero)
        }
        let timeline = recorder.finish(at: 10, stretches: [])
        #expect(timeline.connections.count == SessionTimeline.maximumConnections)
        #expect(timeline.omittedConnections == 7)
        #expect(timeline.marks.count == SessionTimeline.maximumMarks)
        #expect(timeline.omittedMarks == SessionTimeline.maximumConnections + 7 - SessionTimeline.maximumMarks)
    }

    @Test func bytesOfAnotherProxyArrivingOutOfOrderLandInTheirSecond() {
        var timeline = SessionTimeline()
        timeline.count(10, upstream: false, at: 3.2)
        timeline.count(5, upstream: true, at: 1.9)
        timeline.count(7, upstream: false, at: 3.9)
        timeline.count(1, upstream: false, at: 2.0)
        #expect(timeline.traffic.map(\.second) == [1, 2, 3])
        #expect(timeline.traffic.map(\.downstreamBytes) == [0, 1, 17])
        #expect(timeline.traffic.map(\.upstreamBytes) == [5, 0, 0])
    }
}
