import Testing

@testable import LowbandRunReport

@Suite struct RunReportHTMLTests {
    private func record(
        profile: String = "edge", partial: Bool = false, floor: Double? = 300, metrics: [RunMetric] = [],
        traffic: [TrafficBucket] = [], timeline: [TimelineEvent] = [], clients: Int = 2, duration: Double = 60
    ) -> RunRecord {
        RunRecord(
            scenario: "push-to-visible", profile: profile, seed: 7, clients: clients, virtualTime: true,
            command: "lowband run --scenario push-to-visible --profile \(profile) --seed 7", durationSeconds: duration,
            partial: partial, floorMilliseconds: floor, metrics: metrics, traffic: traffic, timeline: timeline
        )
    }

    @Test func aMultiProfileReportHasEveryChartAndTheReproducingCommand() {
        let records = SyntheticRuns.records()
        let html = RunReportHTML.render(records: records)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<title>lowband run — subway on gprs, edge, 3g</title>"))
        #expect(html.contains("<code>lowband run --scenario subway --profiles gprs,edge,3g --seed 42 --clients 6 --duration 300s --virtual-time</code>"))
        #expect(MarkupChecks.count("<pre class=\"command\">", in: html) == 1, "one shared command is printed once")
        #expect(html.contains("seed 42"))
        #expect(html.contains("6 clients"))
        #expect(html.contains("virtual time"))
        #expect(!html.contains("partial-banner"))

        let latency = MarkupChecks.element("<figure id=\"chart-latency\"", closing: "</figure>", in: html)
        #expect(latency != nil)
        #expect(MarkupChecks.count("class=\"series series-latency\"", in: latency ?? "") == 3)
        #expect(MarkupChecks.count("class=\"floor\"", in: latency ?? "") == 3)
        #expect(latency?.contains("logarithmic") == true, "floors near 100 ms and tails near 18 s span more than two decades")
        for profile in ["gprs", "edge", "3g"] {
            let traffic = MarkupChecks.element("<figure id=\"chart-traffic-\(profile)\"", closing: "</figure>", in: html)
            #expect(traffic?.contains("class=\"series series-down\"") == true, "\(profile) traffic down")
            #expect(traffic?.contains("class=\"series series-up\"") == true, "\(profile) traffic up")
            #expect(traffic?.contains("<title") == true)
            let timeline = MarkupChecks.element("<figure id=\"chart-timeline-\(profile)\"", closing: "</figure>", in: html)
            #expect(MarkupChecks.count("class=\"outage-band\"", in: timeline ?? "") >= 3, "\(profile) outages")
            #expect(MarkupChecks.count("class=\"mark-reconnect\"", in: timeline ?? "") >= 6 * 3)
            #expect(timeline?.contains(">client 5</text>") == true, "one lane per client")
        }
        #expect(MarkupChecks.malformedNumbers(in: html).isEmpty)
    }

    /// A 20-client crowd where two clients lost their connection: their two lanes and one shared
    /// lane for the other 18, not twenty rows of which eighteen are empty.
    @Test func quietClientsShareOneTimelineLane() {
        let html = RunReportHTML.render(records: [record(
            metrics: [RunMetric(name: "delivery_delay", unit: "ms", values: [400, 500])],
            timeline: [
                TimelineEvent(seconds: 10, kind: .disconnect, client: 3), TimelineEvent(seconds: 20, kind: .reconnect, client: 3),
                TimelineEvent(seconds: 30, kind: .disconnect, client: 7), TimelineEvent(seconds: 40, kind: .reconnect, client: 7),
            ],
            clients: 20)])
        let timeline = MarkupChecks.element("<figure id=\"chart-timeline-edge\"", closing: "</figure>", in: html) ?? ""
        #expect(MarkupChecks.count("class=\"lane-label\"", in: timeline) == 4, "network, client 3, client 7, the others")
        #expect(timeline.contains(">client 3</text>") && timeline.contains(">client 7</text>") && timeline.contains(">18 others</text>"))
        #expect(!timeline.contains(">client 0</text>"))
        #expect(MarkupChecks.count("class=\"mark-reconnect\"", in: timeline) == 2)

        let quiet = RunReportHTML.render(records: [record(
            metrics: [RunMetric(name: "delivery_delay", unit: "ms", values: [400, 500])],
            timeline: [TimelineEvent(seconds: 0, kind: .note, detail: "started")], clients: 20)])
        let quietTimeline = MarkupChecks.element("<figure id=\"chart-timeline-edge\"", closing: "</figure>", in: quiet) ?? ""
        #expect(quietTimeline.contains(">all 20 clients</text>"))
        #expect(MarkupChecks.count("class=\"lane-label\"", in: quietTimeline) == 2)
    }

    @Test func theSummaryTableComparesTheMainMetricWithTheFloorAndTheMedian() {
        var measured = record(floor: 200, metrics: [
            RunMetric(name: "push_to_visible", unit: "ms", values: [300, 400, 500, 600]),
            RunMetric(name: "bytes_down", unit: "bytes", values: [12_345]),
            RunMetric(name: "outbox_drain", unit: "ms", values: []),
        ])
        measured.medianMilliseconds = 250
        measured.samplesBelowFloor = 0
        let html = RunReportHTML.render(records: [measured])
        let table = MarkupChecks.element("<table class=\"summary\"", closing: "</table>", in: html) ?? ""
        for header in ["metric", "unit", "p50", "p90", "p99", "max", "samples", "floor", "median", "p50 / median", "below floor"] {
            #expect(table.contains("<th scope=\"col\"") && table.contains(">\(header)</th>"), "column \(header)")
        }
        #expect(table.contains("<th scope=\"row\">push_to_visible</th><td>ms</td><td class=\"num\">400 ms</td><td class=\"num\">600 ms</td><td class=\"num\">600 ms</td><td class=\"num\">600 ms</td><td class=\"num\">4</td><td class=\"num\">200 ms</td><td class=\"num\">250 ms</td><td class=\"num\">1.6×</td><td class=\"num\">0</td>"))
        #expect(table.contains("<th scope=\"row\">bytes_down</th><td>bytes</td><td class=\"num\">12.3 KB</td>"))
        #expect(table.contains("<th scope=\"row\">outbox_drain</th><td>ms</td><td class=\"num\">no samples</td>"))
    }

    @Test func aPartialRecordRaisesTheBannerAndBadge() {
        let html = RunReportHTML.render(records: [record(profile: "gprs"), record(profile: "edge", partial: true)])
        let banner = MarkupChecks.element("<div id=\"partial-banner\"", closing: "</div>", in: html)
        #expect(banner?.contains("PARTIAL") == true)
        #expect(banner?.contains("edge") == true)
        #expect(banner?.contains("gprs") == false)
        #expect(MarkupChecks.count("<span class=\"badge\">PARTIAL</span>", in: html) == 1)
    }

    @Test func emptyInputsGiveNotesNotBrokenCharts() {
        let empty = RunReportHTML.render(records: [])
        #expect(empty.contains("no results"))
        #expect(empty.contains("</html>"))
        #expect(!empty.contains("<svg"))

        let html = RunReportHTML.render(records: [record(metrics: [RunMetric(name: "push_to_visible", unit: "ms", values: [])])])
        #expect(html.contains("<figure id=\"chart-latency\" class=\"chart no-data\"><p class=\"no-data\">No samples of push to visible were recorded.</p></figure>"))
        #expect(html.contains("<figure id=\"chart-traffic-edge\" class=\"chart no-data\"><p class=\"no-data\">No traffic was recorded for edge.</p>"))
        #expect(html.contains("<figure id=\"chart-timeline-edge\" class=\"chart no-data\"><p class=\"no-data\">No outages, disconnects or reconnects were recorded for edge.</p>"))
        #expect(!html.contains("<svg"))

        let noMetrics = RunReportHTML.render(records: [record(metrics: [])])
        #expect(noMetrics.contains("No latency figure to chart"))
        #expect(noMetrics.contains("No figures were recorded for edge."))
    }

    @Test func hostileNumbersNeverReachTheSVGAsNaNOrInfinity() {
        let html = RunReportHTML.render(records: [
            record(
                profile: "a", floor: .nan,
                metrics: [RunMetric(name: "push_to_visible", unit: "ms", values: [.nan, .infinity, -5, 0, 0, 1e308])],
                traffic: [TrafficBucket(startSeconds: .infinity, upBytes: 5, downBytes: 5), TrafficBucket(startSeconds: -3, upBytes: -10, downBytes: Int.max / 2), TrafficBucket(startSeconds: -3, upBytes: 0, downBytes: 0)],
                timeline: [TimelineEvent(seconds: .nan, kind: .outageStart), TimelineEvent(seconds: -1, kind: .disconnect, client: 0), TimelineEvent(seconds: 1e300, kind: .reconnect, client: 0)],
                duration: .infinity
            ),
            record(profile: "b", floor: 0, metrics: [RunMetric(name: "push_to_visible", unit: "ms", values: [42])], traffic: [TrafficBucket(startSeconds: 0, upBytes: 0, downBytes: 0)], timeline: [TimelineEvent(seconds: 0, kind: .outageEnd)], duration: 0),
        ])
        #expect(html.contains("<figure id=\"chart-latency\" class=\"chart\">"))
        #expect(html.contains("id=\"chart-traffic-b\""))
        #expect(MarkupChecks.malformedNumbers(in: html) == [])
        let lowered = html.lowercased()
        // Not even in the text: a figure that is not a number is shown as a dash.
        #expect(!lowered.contains("nan"))
        #expect(!lowered.contains("inf"))
    }

    @Test func textFromFilesAndCommandsIsEscaped() {
        var hostile = record(profile: "<img src=x onerror=alert(1)>", metrics: [RunMetric(name: "push_to_visible", unit: "ms", values: [1, 2, 3])],
                             traffic: [TrafficBucket(startSeconds: 0, upBytes: 1, downBytes: 2)],
                             timeline: [TimelineEvent(seconds: 1, kind: .note, detail: "</title><script>alert(2)</script>")])
        hostile.command = "lowband run --profile '</code><script>alert(3)</script>' && rm -rf /"
        hostile.scenario = "push&<b>"
        let html = RunReportHTML.render(records: [hostile])
        #expect(!html.contains("<img"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<b>"))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(html.contains("&lt;/code&gt;&lt;script&gt;alert(3)&lt;/script&gt;&#39; &amp;&amp; rm -rf /"))
        #expect(html.contains("id=\"chart-traffic-img-src-x-onerror-alert-1\""))
    }

    @Test func largeCrowdsAreAggregatedIntoOneLane() {
        let events = (0..<100).flatMap { client in
            [TimelineEvent(seconds: Double(client % 10), kind: .disconnect, client: client), TimelineEvent(seconds: 20 + Double(client % 7), kind: .reconnect, client: client)]
        }
        let html = RunReportHTML.render(records: [record(timeline: events, clients: 100)])
        let timeline = MarkupChecks.element("<figure id=\"chart-timeline-edge\"", closing: "</figure>", in: html) ?? ""
        #expect(timeline.contains("class=\"offline-aggregate\""))
        #expect(timeline.contains(">peak 100</text>"))
        #expect(!timeline.contains(">client 0</text>"))
        #expect(timeline.contains(">disconnects</text>") && timeline.contains(">reconnects</text>"))
        #expect(MarkupChecks.count("class=\"mark-disconnect\"", in: timeline) == 100)
    }

    @Test func oneSeedGivesOneReportByteForByte() {
        #expect(RunReportHTML.render(records: SyntheticRuns.records(seed: 9)) == RunReportHTML.render(records: SyntheticRuns.records(seed: 9)))
        #expect(RunReportHTML.render(records: SyntheticRuns.records(seed: 9)) != RunReportHTML.render(records: SyntheticRuns.records(seed: 10)))
    }

    @Test func profilesWithOneSlugGetDistinctChartIds() {
        let html = RunReportHTML.render(records: [record(profile: "EDGE"), record(profile: "edge")])
        #expect(html.contains("id=\"chart-traffic-edge\""))
        #expect(html.contains("id=\"chart-traffic-edge-2\""))
    }
}
