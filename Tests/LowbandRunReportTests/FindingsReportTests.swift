import Foundation
import Testing

@testable import LowbandRunReport
import LowbandFindings

/// The report's account of a run's broken promises and of where its delivery time went.
@Suite struct FindingsReportTests {
    private func record(
        profile: String = "edge", clients: Int = 3, invariants: [InvariantCheck] = [], violations: [InvariantViolation] = [],
        stages: [RunMetric] = [], slowest: [MessageBreakdown] = [], timeline: [TimelineEvent] = []
    ) -> RunRecord {
        RunRecord(
            scenario: "subway", profile: profile, seed: 5, clients: clients, virtualTime: true,
            command: "lowband run --scenario subway --profile \(profile) --seed 5", durationSeconds: 300, partial: false,
            floorMilliseconds: nil, metrics: [RunMetric(name: "push_to_visible", unit: "ms", values: [300, 400])],
            traffic: [], timeline: timeline, invariants: invariants, violations: violations, stages: stages, slowest: slowest
        )
    }

    private let broken = [
        InvariantCheck(name: "acknowledged_lost", promise: "every stored message reaches every member", checked: 49, violations: 0),
        InvariantCheck(name: "order", promise: "a sender's messages are stored in the order written", checked: 55, violations: 2),
        InvariantCheck(name: "cache_lost_after_kill", promise: "a killed app keeps what it stored", checked: 0, violations: 0),
    ]
    private let twoViolations = [
        InvariantViolation(invariant: "order", seconds: 61.5, client: 2, chat: 7, message: 2051, clientID: 99, detail: "message 2051 before 2050", traceLines: ["{\"t_ns\":61000000000,\"event\":\"arrived\",\"client\":2}"]),
        InvariantViolation(invariant: "order", seconds: 200, detail: "server stored 2060 before 2059"),
    ]

    /// `stage.<name>` metrics with the given samples per stage (others all zero) and the total.
    private func stages(_ samples: [LatencyStage: [Double]], deliveries: Int) -> [RunMetric] {
        let metrics = LatencyStage.allCases.map { stage in
            RunMetric(name: "stage.\(stage.rawValue)", unit: "ms", values: samples[stage] ?? Array(repeating: 0, count: deliveries))
        }
        let totals = (0..<deliveries).map { index in metrics.reduce(0) { $0 + $1.values[index] } }
        return metrics + [RunMetric(name: "stage.total", unit: "ms", values: totals)]
    }

    private func breakdown(message: Int64, receiver: Int, _ stages: [LatencyStage: Double], carrier: String = "push", attempts: Int = 1) -> MessageBreakdown {
        MessageBreakdown(
            message: message, chat: 67, sender: 3, receiver: receiver, startSeconds: 2326.1,
            stages: LatencyStage.allCases.map { stages[$0] ?? 0 }, carrier: carrier, attempts: attempts
        )
    }

    // MARK: Promises

    @Test func aBrokenPromiseRaisesTheBannerAndEveryEntryLinksToItsMarkAndBack() throws {
        let html = RunReportHTML.render(records: [record(profile: "gprs"), record(invariants: broken, violations: twoViolations)])
        let banner = try #require(MarkupChecks.element("<div id=\"violations-banner\"", closing: "</div>", in: html))
        #expect(banner.contains("FAIL"))
        #expect(banner.contains("<a href=\"#invariants-edge\">edge</a>: order ×2"))
        #expect(!banner.contains("gprs"), "only the profile that broke a promise is named")
        #expect(!html.contains("invariants-pass"))

        let section = try #require(MarkupChecks.element("<section class=\"invariants\" id=\"invariants-edge\">", closing: "</section>", in: html))
        #expect(section.contains("<tr class=\"fail\"><th scope=\"row\"><code>order</code></th><td class=\"words\">a sender&#39;s messages are stored in the order written</td><td class=\"num\">55</td><td class=\"num\">2</td><td class=\"result fail\">FAIL</td></tr>"))
        #expect(section.contains("<td class=\"result pass\">PASS</td>"))
        #expect(section.contains("<td class=\"result unchecked\">not checked</td>"), "a check with no case says so instead of passing")

        let first = try #require(MarkupChecks.element("<li class=\"violation\" id=\"violation-edge-1\">", closing: "</li>", in: html))
        #expect(first.contains("<a class=\"violation-time\" href=\"#mark-violation-edge-1\">61.5 s on the timeline</a>"))
        #expect(first.contains("client 2 · chat 7 · message 2051 · client id 99"))
        #expect(first.contains("message 2051 before 2050"))
        #expect(first.contains("<details><summary>"))
        #expect(first.contains("<pre class=\"trace\">{&quot;t_ns&quot;:61000000000,&quot;event&quot;:&quot;arrived&quot;,&quot;client&quot;:2}</pre>"))
        let second = try #require(MarkupChecks.element("<li class=\"violation\" id=\"violation-edge-2\">", closing: "</li>", in: html))
        #expect(second.contains("No trace lines") || second.contains("no trace lines"))

        let timeline = try #require(MarkupChecks.element("<figure id=\"chart-timeline-edge\"", closing: "</figure>", in: html))
        #expect(timeline.contains("<a href=\"#violation-edge-1\" id=\"mark-violation-edge-1\" class=\"mark-violation\"><title>61.5 s — broken promise order, client 2: message 2051 before 2050</title>"))
        #expect(timeline.contains("<a href=\"#violation-edge-2\" id=\"mark-violation-edge-2\" class=\"mark-violation\">"))
        #expect(timeline.contains("broken promise (links to its entry)"), "the legend explains the mark")
        #expect(html.contains("Outages, reconnects and broken promises"))
        #expect(Self.unresolvedFragments(in: html).isEmpty, "\(Self.unresolvedFragments(in: html))")
    }

    @Test func aRunThatKeptItsPromisesHasNoFailBanner() {
        let kept = broken.map { check in
            var check = check
            check.violations = 0
            return check
        }
        let html = RunReportHTML.render(records: [record(invariants: kept)])
        #expect(!html.contains("violations-banner"))
        #expect(html.contains("<div id=\"invariants-pass\" class=\"banner pass\"><strong>PASS</strong> — every promise checked held on edge (2 of 3 held, 1 not checked (no case: cache_lost_after_kill)).</div>"))
        #expect(html.contains("Every promise checked held: 2 of 3 checked, 1 with no case to check in this run."))
        #expect(!html.contains("class=\"violations"))
        #expect(!html.contains("id=\"mark-violation"))
    }

    @Test func violationsOfManyProfilesKeepTheirOwnIds() {
        let records = SyntheticFindings.adding(to: SyntheticRuns.records(), violating: ["gprs", "3g"])
        let html = RunReportHTML.render(records: records)
        for profile in ["gprs", "3g"] {
            let count = records.first { $0.profile == profile }?.violations.count ?? 0
            #expect(count == 6)
            for number in 1...count {
                #expect(MarkupChecks.count("id=\"violation-\(profile)-\(number)\"", in: html) == 1)
                #expect(MarkupChecks.count("id=\"mark-violation-\(profile)-\(number)\"", in: html) == 1)
            }
        }
        #expect(!html.contains("violation-edge-"))
        #expect(html.contains("on 2 of 3 profiles"))
        #expect(Self.unresolvedFragments(in: html).isEmpty, "\(Self.unresolvedFragments(in: html))")
        #expect(MarkupChecks.malformedNumbers(in: html).isEmpty)
    }

    @Test func largeCrowdsGetALaneOfBrokenPromises() {
        let violations = (0..<30).map { InvariantViolation(invariant: "order", seconds: Double($0 * 5), client: $0 * 3, detail: "out of order") }
        let html = RunReportHTML.render(records: [record(clients: 100, invariants: [InvariantCheck(name: "order", promise: "kept in order", checked: 90, violations: 30)], violations: violations)])
        let timeline = MarkupChecks.element("<figure id=\"chart-timeline-edge\"", closing: "</figure>", in: html) ?? ""
        #expect(timeline.contains(">broken promises</text>"))
        #expect(!timeline.contains(">client 0</text>"))
        #expect(MarkupChecks.count("class=\"mark-violation\"", in: timeline) == 30)
    }

    @Test func marksAtOneMomentOnOneLaneAreSetApartWithinThePlot() {
        let dodged = ViolationMarks.dodged([500, 100, 100, 100, 800, 800], lanes: [1, 1, 1, 1, 2, 2], within: 90...800)
        #expect(dodged == [500, 100, 110, 120, 790, 800], "in time order, ``spacing`` apart, pushed left at the right edge")
        #expect(ViolationMarks.dodged([100, 100], lanes: [1, 2], within: 0...800) == [100, 100], "other lanes do not interfere")
        // 92 broken promises at the run's last second stay near it instead of spreading back in time.
        let crowd = ViolationMarks.dodged(Array(repeating: 800, count: 92), lanes: Array(repeating: 1, count: 92), within: 90...800)
        #expect(crowd.allSatisfy { $0 >= 800 - ViolationMarks.maximumShift && $0 <= 800 }, "\(crowd)")
        #expect(Set(crowd) == [770, 780, 790, 800])
        #expect(crowd == crowd.sorted(), "in time order")
    }

    // MARK: Where the time went

    @Test func theStackedBarDrawsMeansThatAddUpToTheMeanTotal() throws {
        let metrics = stages([.uplinkTransit: [100, 300], .resyncWait: [0, 1_000], .downlinkTransit: [200, 200]], deliveries: 2)
        let html = RunReportHTML.render(records: [record(stages: metrics)])
        let figure = try #require(MarkupChecks.element("<figure id=\"chart-stages-edge\" class=\"chart\">", closing: "</figure>", in: html))
        #expect(figure.contains("mean total (900 ms)"), "the caption says the means add up")
        #expect(figure.contains("Means, not medians"))
        #expect(MarkupChecks.count("class=\"stage-segment\"", in: figure) == 3, "stages with no time are not drawn")
        #expect(figure.contains("<title>resync wait: mean 500 ms, 55.6% of the mean total</title>"))
        #expect(figure.contains(">mean total 900 ms</text>"))
        #expect(figure.contains("<dfn>resync wait</dfn>: the receiver had no session"), "the glossary names the drawn stages")
        #expect(!figure.contains("<dfn>outbox wait</dfn>"))
        // End to end: each segment starts where the previous ended.
        let bars = Self.rects(classed: "stage-bar", in: figure)
        #expect(bars.count == 3)
        for (previous, next) in zip(bars, bars.dropFirst()) {
            #expect(abs(previous.x + previous.width - next.x) < 0.02, "\(bars)")
        }
        #expect(abs(bars[1].width - 2.5 * bars[0].width) < 0.05, "500 ms is two and a half times 200 ms: \(bars)")

        let table = try #require(MarkupChecks.element("<table class=\"stages\">", closing: "</table>", in: html))
        #expect(table.contains("<th scope=\"row\">resync wait</th><td class=\"num\">500 ms</td><td class=\"num\">55.6%</td><td class=\"num\">0 ms</td><td class=\"num\">1.0 s</td>"))
        #expect(table.contains("<th scope=\"row\">total</th><td class=\"num\">900 ms</td><td class=\"num\">100%</td><td class=\"num\">300 ms</td>"))
        #expect(table.contains("<th scope=\"row\">server</th><td class=\"num\">0 ms</td><td class=\"num\">0%</td>"))
    }

    @Test func theWaterfallDrawsEachSlowDeliveryStageByStageOnOneAxis() throws {
        let slowest = [
            breakdown(message: 2051, receiver: 12, [.outboxWait: 4_000, .uplinkTransit: 250, .resyncWait: 20_000, .downlinkTransit: 240, .clientStore: 0.4], carrier: "login", attempts: 2),
            breakdown(message: 2060, receiver: 3, [.uplinkTransit: 240, .downlinkLossStalls: 3_000, .downlinkTransit: 230]),
        ]
        let html = RunReportHTML.render(records: [record(stages: stages([.uplinkTransit: [250, 240]], deliveries: 2), slowest: slowest)])
        let figure = try #require(MarkupChecks.element("<figure id=\"chart-waterfall-edge\" class=\"chart\">", closing: "</figure>", in: html))
        #expect(MarkupChecks.count("class=\"waterfall-row\"", in: figure) == 2)
        #expect(figure.contains(">msg 2051 → client 12</text>"))
        #expect(figure.contains(">msg 2060 → client 3</text>"))
        #expect(figure.contains(">24 s · via login · sent 2×</text>"), "the total, and what made the delivery unusual")
        #expect(figure.contains(">3.5 s</text>"))
        for stage in LatencyStage.allCases {
            #expect(figure.contains(">\(stage.label)</text>"), "the legend has a colour for \(stage.label)")
        }
        #expect(figure.contains("<title>client decode + store: 400 µs</title>"), "a bar too thin to label still has its tooltip")
        #expect(figure.contains(">resync wait 20 s</text>"), "a wide bar is labelled with its stage and time")
        #expect(!figure.contains(">client decode + store 400 µs</text>") && !figure.contains(">400 µs</text>"), "a thin bar gets no label to overlap its neighbours")
        #expect(figure.contains("<dfn>downlink loss stalls</dfn>"))

        let rows = figure.components(separatedBy: "class=\"waterfall-row\"").dropFirst()
        let first = Self.rects(classed: "waterfall-bar", in: rows.first ?? "")
        #expect(first.count == 5)
        for (previous, next) in zip(first, first.dropFirst()) {
            #expect(abs(previous.x + previous.width - next.x) < 0.02, "bars end to end: \(first)")
        }
        let second = Self.rects(classed: "waterfall-bar", in: rows.last ?? "")
        #expect(first.first?.x == second.first?.x, "every row starts at the message's start on one axis")
        let firstEnd = (first.last?.x ?? 0) + (first.last?.width ?? 0) - (first.first?.x ?? 0)
        let secondEnd = (second.last?.x ?? 0) + (second.last?.width ?? 0) - (second.first?.x ?? 0)
        #expect(abs(firstEnd / secondEnd - 24_490.4 / 3_470) < 0.01, "row lengths are proportional to their totals")
    }

    @Test func olderRecordsSayNotCheckedAndNoDeliveries() throws {
        let encoded = try JSONEncoder().encode([record()])
        var objects = try #require(try JSONSerialization.jsonObject(with: encoded) as? [[String: Any]])
        for key in ["invariants", "violations", "stages", "slowest"] { objects[0].removeValue(forKey: key) }
        let old = try JSONDecoder().decode([RunRecord].self, from: JSONSerialization.data(withJSONObject: objects))
        let html = RunReportHTML.render(records: old)
        #expect(html.contains("<section class=\"invariants\" id=\"invariants-edge\"><h3>Promises</h3><p class=\"no-data\">Promises not checked: this record of edge has no invariant checks.</p></section>"))
        #expect(html.contains("<figure id=\"chart-stages-edge\" class=\"chart no-data\"><p class=\"no-data\">No deliveries were broken down into stages on edge (this record has no stage figures).</p></figure>"))
        #expect(html.contains("<figure id=\"chart-waterfall-edge\" class=\"chart no-data\"><p class=\"no-data\">No deliveries to show for edge"))
        #expect(!html.contains("violations-banner"))
        #expect(!html.contains("invariants-pass"))
        #expect(!html.contains("<table class=\"stages\">"))
    }

    @Test func hostileFindingsAreEscapedAndNeverReachTheSVGAsNaN() {
        let html = RunReportHTML.render(records: [record(
            invariants: [InvariantCheck(name: "<b>order</b>", promise: "</td><script>alert(1)</script>", checked: Int.max, violations: Int.max)],
            violations: [InvariantViolation(invariant: "<i>x</i>", seconds: .nan, client: -4, detail: "<script>alert(2)</script>", traceLines: ["</pre><script>alert(3)</script>"])],
            stages: [RunMetric(name: "stage.uplink_queue", unit: "ms", values: [.nan, .infinity, 5]), RunMetric(name: "stage.total", unit: "ms", values: [.infinity])],
            slowest: [MessageBreakdown(message: 1, chat: 1, sender: nil, receiver: 0, startSeconds: .nan, stages: [.nan, -3, .infinity, 10], carrier: "<push>", attempts: 1)]
        )])
        #expect(!html.contains("<script"))
        #expect(!html.contains("<b>") && !html.contains("<i>"))
        #expect(!html.contains("<push>"))
        #expect(MarkupChecks.malformedNumbers(in: html) == [])
        let lowered = html.lowercased()
        #expect(!lowered.contains("nan"))
        #expect(!lowered.contains("inf"))
        #expect(html.contains("id=\"mark-violation-edge-1\""), "a violation at no usable time still has its mark")
    }

    @Test func findingsKeepOneSeedOneReportByteForByte() {
        let render = { (seed: UInt64) in
            RunReportHTML.render(records: SyntheticFindings.adding(to: SyntheticRuns.records(seed: seed), seed: seed, violating: ["edge"]))
        }
        #expect(render(9) == render(9))
        #expect(render(9) != render(10))
    }

    // MARK: Helpers

    /// `href="#…"` values whose target id does not occur exactly once.
    static func unresolvedFragments(in html: String) -> [String] {
        var missing: [String] = []
        for part in html.components(separatedBy: "href=\"#").dropFirst() {
            guard let end = part.firstIndex(of: "\"") else { continue }
            let id = part[..<end]
            if MarkupChecks.count("id=\"\(id)\"", in: html) != 1 { missing.append(String(id)) }
        }
        return missing
    }

    /// The x and width of every `<rect>` of class `name`, in document order.
    static func rects(classed name: String, in markup: some StringProtocol) -> [(x: Double, width: Double)] {
        String(markup).components(separatedBy: "<rect ").dropFirst().compactMap { element in
            let rect = " " + element.prefix { $0 != ">" }
            guard rect.contains(" class=\"\(name)\"") else { return nil }
            func value(_ attribute: String) -> Double? {
                guard let start = rect.range(of: " \(attribute)=\"") else { return nil }
                return Double(rect[start.upperBound...].prefix { $0 != "\"" })
            }
            guard let x = value("x"), let width = value("width") else { return nil }
            return (x, width)
        }
    }
}

/// A promise's verdict reads the same in the terminal and the report: cases checked are cases,
/// never a count that looks like lost messages.
@Suite struct InvariantVerdictTests {
    @Test func verdictsSayHeldOnCasesOrNotChecked() {
        #expect(InvariantCheck(name: "duplicated", promise: "", checked: 52, violations: 0).verdict == "held on 52 cases")
        #expect(InvariantCheck(name: "order", promise: "", checked: 1, violations: 0).verdict == "held on 1 case")
        #expect(InvariantCheck(name: "acknowledged_lost", promise: "", checked: 0, violations: 0).verdict == "not checked")
        #expect(InvariantCheck(name: "order", promise: "", checked: 52, violations: 3).verdict == "broken 3 times in 52 cases")
        #expect(InvariantCheck(name: "order", promise: "", checked: 52, violations: 1).verdict == "broken once in 52 cases")
    }

    @Test func theTallyCountsHeldBrokenAndUnchecked() {
        let held = InvariantCheck(name: "a", promise: "", checked: 5, violations: 0)
        let unchecked = InvariantCheck(name: "b", promise: "", checked: 0, violations: 0)
        let broken = InvariantCheck(name: "c", promise: "", checked: 5, violations: 2)
        #expect([held, held, unchecked].tally == "2 of 3 held, 1 not checked (no case: b)")
        #expect([held, held].tally == "2 of 2 held")
        #expect([held, broken, unchecked, unchecked].tally == "1 of 4 broken, 1 held, 2 not checked (no case: b, b)")
    }
}
