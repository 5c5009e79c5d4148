import Foundation
import LowbandRunReport
import LowbandTestSupport
import Testing

/// Chart text as a browser lays it out: at 1, 3 and 8 profiles no two labels of a chart may
/// cover each other ("floor 3g" drawn over "floor edge" reads as "oor 3g").
@Suite(.serialized, .enabled(if: Chromium.executable != nil, "no chromium in PATH: scripts/setup.sh installs Debian's chromium package"))
struct ChromiumLabelTests {
    struct Overlap: Decodable, CustomStringConvertible {
        var chart: String
        var first: String
        var second: String
        var description: String { "\(chart): '\(first)' overlaps '\(second)'" }
    }

    struct Probe: Decodable {
        var charts: Int
        var texts: Int
        var overlaps: [Overlap]
        /// Texts reaching outside their chart (cut off by the browser).
        var outside: [String]
    }

    /// Every rendered `<text>` of every chart, as client rectangles; pairs that intersect by more
    /// than a pixel each way are written into the DOM.
    static let probe = """
        <script>
        (() => {
          const overlaps = [];
          const outside = [];
          let texts = 0;
          const charts = [...document.querySelectorAll('figure.chart svg')];
          for (const svg of charts) {
            const boxes = [...svg.querySelectorAll('text')]
              .filter(t => t.getComputedTextLength() > 0)
              .map(t => ({ text: t.textContent, box: t.getBoundingClientRect() }));
            texts += boxes.length;
            const frame = svg.getBoundingClientRect();
            for (const { text, box } of boxes) {
              if (box.left < frame.left - 1 || box.right > frame.right + 1 || box.top < frame.top - 1 || box.bottom > frame.bottom + 1) outside.push(svg.id + ': ' + text);
            }
            for (let i = 0; i < boxes.length; i++) {
              for (let j = i + 1; j < boxes.length; j++) {
                const a = boxes[i].box, b = boxes[j].box;
                const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
                const dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
                if (dx > 1 && dy > 1) overlaps.push({ chart: svg.id, first: boxes[i].text, second: boxes[j].text });
              }
            }
          }
          const pre = document.createElement('pre');
          pre.id = 'label-probe';
          pre.textContent = JSON.stringify({ charts: charts.length, texts, overlaps, outside });
          document.body.appendChild(pre);
        })();
        </script>
        """

    @Test(arguments: [1, 3, 8])
    func chartLabelsNeverOverlap(profileCount: Int) async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-labels")
        let records = SyntheticRuns.records(seed: 7, clients: 4, samples: 300, profiles: Array(SyntheticRuns.eightProfiles.prefix(profileCount)))
        let html = RunReportHTML.render(records: records)
        let page = directory.url.appendingPathComponent("report-probed.html")
        try Data(html.replacingOccurrences(of: "</body>", with: Self.probe + "\n</body>").utf8).write(to: page)

        let chromium = Chromium(executable: try #require(Chromium.executable), workDirectory: directory.url)
        let output = try await chromium.dumpDOM(of: page)
        try #require(output.status == 0, "chromium exited with \(output.status): \(output.stderr.suffix(2_000))")
        let element = try #require(MarkupChecks.element("<pre id=\"label-probe\">", closing: "</pre>", in: output.stdout), "the probe did not run")
        let json = element.dropFirst("<pre id=\"label-probe\">".count).dropLast("</pre>".count)
        let probe = try JSONDecoder().decode(Probe.self, from: Data(String(json).replacingOccurrences(of: "&amp;", with: "&").utf8))
        #expect(probe.charts >= 1 + 2 * profileCount, "the latency chart and each profile's charts were measured")
        #expect(probe.texts > 20 * profileCount)
        #expect(probe.overlaps.isEmpty, "\(probe.overlaps.count) overlaps: \(probe.overlaps.prefix(12))")
        #expect(probe.outside.isEmpty, "cut off: \(probe.outside.prefix(12))")
    }
}
