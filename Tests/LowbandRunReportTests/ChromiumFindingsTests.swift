import Foundation
import LowbandRunReport
import LowbandTestSupport
import Testing

/// The promises and stage charts as a browser lays them out: links that land on real marks,
/// waterfall bars end to end, labels inside what they label.
extension ChromiumRenderTests {
    struct FindingsLayout: Decodable {
        struct Link: Decodable {
            var href: String
            var entry: String
            var section: String
            var found: Bool
            var inSVG: Bool
            var figure: String?
            var back: String?
            var width: Double
            var height: Double
            var client: Int?
            /// Vertical distance from the mark's tip to the centre of its lane's label.
            var laneOffset: Double?
        }

        struct Row: Decodable {
            var label: String
            var labelRight: Double
            var span: [Double]
            var bars: [[Double]]
            var labels: [[Double]]
            var endingLeft: Double
            var endingRight: Double
        }

        struct Waterfall: Decodable {
            var id: String
            var width: Double
            var rows: [Row]
        }

        struct Stack: Decodable {
            var id: String
            var bars: [[Double]]
            var labels: [[Double]]
            var totalLeft: Double
        }

        var banner: Bool
        var pass: Bool
        var links: [Link]
        var waterfalls: [Waterfall]
        var stacks: [Stack]
    }

    /// Measures links, marks, waterfall rows and stacked bars after layout (user units of each SVG
    /// for geometry, the page for lane positions) and writes the result into the DOM.
    static let findingsProbe = """
        <script>
        (() => {
          const box = e => { const b = e.getBBox(); return [b.x, b.width]; };
          const labelled = groups => groups.filter(g => g.querySelector('text')).map(g => [g.querySelector('text').getComputedTextLength(), g.querySelector('rect').getBBox().width]);
          const links = [...document.querySelectorAll('a.violation-time')].map(a => {
            const href = a.getAttribute('href');
            const mark = document.getElementById(href.slice(1));
            const entry = a.closest('li');
            const place = entry.querySelector('.violation-place');
            const client = place ? /client (\\d+)/.exec(place.textContent) : null;
            const result = { href, entry: entry.id, section: a.closest('section.invariants').id, found: !!mark, inSVG: false, width: 0, height: 0, client: client ? Number(client[1]) : null };
            if (mark) {
              const rect = mark.getBoundingClientRect();
              const svg = mark.closest('svg');
              const laneName = client ? 'client ' + client[1] : 'network';
              const lane = svg ? [...svg.querySelectorAll('text.lane-label')].find(t => t.textContent === laneName) : null;
              Object.assign(result, {
                inSVG: !!svg, figure: mark.closest('figure') ? mark.closest('figure').id : null, back: mark.getAttribute('href'),
                width: rect.width, height: rect.height,
                laneOffset: lane ? rect.bottom - (lane.getBoundingClientRect().top + lane.getBoundingClientRect().height / 2) : null,
              });
            }
            return result;
          });
          const waterfalls = [...document.querySelectorAll('figure.chart[id^="chart-waterfall-"]')].filter(f => f.querySelector('svg')).map(figure => ({
            id: figure.id,
            width: figure.querySelector('svg').viewBox.baseVal.width,
            rows: [...figure.querySelectorAll('g.waterfall-row')].map(row => {
              const label = row.querySelector('text.row-label').getBBox();
              const ending = row.querySelector('text.total-label').getBBox();
              return {
                label: row.querySelector('text.row-label').textContent, labelRight: label.x + label.width,
                span: box(row.querySelector('line.waterfall-span')),
                bars: [...row.querySelectorAll('rect.waterfall-bar')].map(box),
                labels: labelled([...row.querySelectorAll('g.waterfall-stage')]),
                endingLeft: ending.x, endingRight: ending.x + ending.width,
              };
            }),
          }));
          const stacks = [...document.querySelectorAll('figure.chart[id^="chart-stages-"]')].filter(f => f.querySelector('svg')).map(figure => ({
            id: figure.id,
            bars: [...figure.querySelectorAll('rect.stage-bar')].map(box),
            labels: labelled([...figure.querySelectorAll('g.stage-segment')]),
            totalLeft: figure.querySelector('text.total-label').getBBox().x,
          }));
          const pre = document.createElement('pre');
          pre.id = 'findings-probe';
          pre.textContent = JSON.stringify({ banner: !!document.getElementById('violations-banner'), pass: !!document.getElementById('invariants-pass'), links, waterfalls, stacks });
          document.body.appendChild(pre);
        })();
        </script>
        """

    /// Renders `records`, loads the report with the probe in Chromium and returns what it measured.
    private func layout(of records: [RunRecord]) async throws -> FindingsLayout {
        let directory = try TemporaryDirectory(prefix: "lowband-report")
        let page = directory.url.appendingPathComponent("report-findings.html")
        let html = RunReportHTML.render(records: records)
        try Data(html.replacingOccurrences(of: "</body>", with: Self.findingsProbe + "\n</body>").utf8).write(to: page)
        let chromium = Chromium(executable: try #require(Chromium.executable), workDirectory: directory.url)
        let output = try await chromium.dumpDOM(of: page)
        try #require(output.status == 0, "chromium exited with \(output.status): \(output.stderr.suffix(2_000))")
        let opening = "<pre id=\"findings-probe\">"
        let probe = try #require(MarkupChecks.element(opening, closing: "</pre>", in: output.stdout), "the probe did not run; DOM starts: \(output.stdout.prefix(500))")
        // The DOM serialiser escapes &, < and > in text; the JSON holds `→` and quotes only.
        let json = probe.dropFirst(opening.count).dropLast("</pre>".count).replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(FindingsLayout.self, from: Data(json.utf8))
    }

    private func records(violating: Set<String>) -> [RunRecord] {
        SyntheticFindings.adding(to: SyntheticRuns.records(seed: 42, clients: 6, samples: 200), seed: 42, violating: violating)
    }

    @Test func everyBrokenPromiseLinksToAMarkOnItsLaneThatLinksBack() async throws {
        let records = records(violating: ["gprs", "3g"])
        let layout = try await layout(of: records)
        #expect(layout.links.count == records.reduce(0) { $0 + $1.violations.count })
        #expect(layout.links.count == 12)
        for link in layout.links {
            let slug = link.section.dropFirst("invariants-".count)
            #expect(link.found, "\(link.href) resolves to an element")
            #expect(link.inSVG && link.figure == "chart-timeline-\(slug)", "\(link.href) is a mark on \(slug)'s timeline, not \(link.figure ?? "nothing")")
            #expect(link.back == "#\(link.entry)", "the mark of \(link.entry) links back to it, not to \(link.back ?? "nothing")")
            #expect(link.width > 4 && link.height > 4, "\(link.href) is a mark one can click: \(link.width)×\(link.height)")
            let offset = try #require(link.laneOffset, "\(link.href) has a lane")
            #expect(abs(offset) < 6, "\(link.href) points at its \(link.client.map { "client \($0)" } ?? "network") lane: \(offset) px off")
        }
        #expect(Set(layout.links.map(\.section)) == ["invariants-gprs", "invariants-3g"])
    }

    @Test func theBannerAppearsExactlyWhenAPromiseBroke() async throws {
        let failing = try await layout(of: records(violating: ["edge"]))
        #expect(failing.banner)
        #expect(!failing.pass)
        let clean = try await layout(of: records(violating: []))
        #expect(!clean.banner)
        #expect(clean.pass)
        #expect(clean.links.isEmpty)
    }

    @Test func waterfallBarsRunEndToEndAcrossEachRowsTotal() async throws {
        let records = records(violating: [])
        let layout = try await layout(of: records)
        #expect(layout.waterfalls.map(\.id) == ["chart-waterfall-gprs", "chart-waterfall-edge", "chart-waterfall-3g"])
        for (waterfall, record) in zip(layout.waterfalls, records) {
            #expect(waterfall.rows.map(\.label) == record.slowest.map { "msg \($0.message) → client \($0.receiver)" })
            for (row, delivery) in zip(waterfall.rows, record.slowest) {
                let bars = row.bars
                try #require(!bars.isEmpty, "\(row.label) has bars")
                #expect(abs(bars[0][0] - row.span[0]) < 0.05, "\(row.label) starts at the message's start")
                for (previous, next) in zip(bars, bars.dropFirst()) {
                    #expect(abs(previous[0] + previous[1] - next[0]) < 0.05, "\(row.label): a bar starts where the previous ended: \(bars)")
                }
                let end = bars[bars.count - 1][0] + bars[bars.count - 1][1]
                #expect(abs(end - (row.span[0] + row.span[1])) < 0.05, "\(row.label): the bars add up to the row's total span")
                let perMillisecond = row.span[1] / delivery.totalMilliseconds
                let first = (waterfall.rows.first?.span[1] ?? 0) / (record.slowest.first?.totalMilliseconds ?? 1)
                #expect(abs(perMillisecond / first - 1) < 0.005, "\(row.label): one time axis for every row")
                for (text, bar) in row.labels.map({ ($0[0], $0[1]) }) {
                    #expect(text <= bar, "\(row.label): a label \(text) wide sits in a bar \(bar) wide")
                }
                #expect(row.labelRight <= row.span[0], "\(row.label): the row label ends before the bars")
                #expect(row.endingLeft >= end, "\(row.label): the total follows the bars")
                #expect(row.endingRight <= waterfall.width, "\(row.label): the total stays inside the chart")
            }
        }
        #expect(layout.waterfalls.contains { $0.rows.contains { !$0.labels.isEmpty } }, "some bars are wide enough to be labelled")

        #expect(layout.stacks.count == 3)
        for stack in layout.stacks {
            for (previous, next) in zip(stack.bars, stack.bars.dropFirst()) {
                #expect(abs(previous[0] + previous[1] - next[0]) < 0.05, "\(stack.id): segments end to end")
            }
            for label in stack.labels { #expect(label[0] <= label[1], "\(stack.id): label \(label[0]) fits its segment \(label[1])") }
            let end = (stack.bars.last?[0] ?? 0) + (stack.bars.last?[1] ?? 0)
            #expect(stack.totalLeft >= end, "\(stack.id): the mean total follows the bar")
        }
    }
}
