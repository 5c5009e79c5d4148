import Foundation
import LowbandRunReport
import LowbandTestSupport
import Testing

/// The report as a browser sees it: rendered by headless Chromium, the charts must be SVG
/// elements with real extent, and nothing may be fetched from elsewhere.
@Suite(.serialized, .enabled(if: Chromium.executable != nil, "no chromium in PATH: scripts/setup.sh installs Debian's chromium package"))
struct ChromiumRenderTests {
    /// What the probe script measured of one chart.
    struct ChartLayout: Decodable {
        var id: String
        var isSVG: Bool
        var width: Double
        var height: Double
        var series: [[Double]]
        var bands: [Double]
        var marks: Int
        var texts: Int
    }

    /// Measures every chart after layout and writes the result into the DOM, where --dump-dom shows it.
    /// Added to a copy of the report only: the report itself carries no script.
    static let probe = """
        <script>
        (() => {
          const charts = [...document.querySelectorAll('figure.chart')].filter(f => f.querySelector('svg')).map(figure => {
            const svg = figure.querySelector('svg');
            const box = svg.getBoundingClientRect();
            return {
              id: figure.id, isSVG: svg instanceof SVGSVGElement, width: box.width, height: box.height,
              series: [...svg.querySelectorAll('path.series')].map(p => { const b = p.getBBox(); return [b.width, b.height]; }),
              bands: [...svg.querySelectorAll('rect.outage-band')].map(r => r.getBoundingClientRect().width),
              marks: svg.querySelectorAll('.mark-disconnect, .mark-reconnect').length,
              texts: [...svg.querySelectorAll('text')].filter(t => t.getComputedTextLength() > 0).length,
            };
          });
          const pre = document.createElement('pre');
          pre.id = 'layout-probe';
          pre.textContent = JSON.stringify(charts);
          document.body.appendChild(pre);
        })();
        </script>
        """

    private func report() -> String {
        RunReportHTML.render(records: SyntheticRuns.records(seed: 42, clients: 6, samples: 500, partialProfiles: ["3g"]))
    }

    @Test func chromiumLaysOutEveryChartAndFetchesNothing() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-report")
        let html = report()
        let page = directory.url.appendingPathComponent("report-probed.html")
        try Data(html.replacingOccurrences(of: "</body>", with: Self.probe + "\n</body>").utf8).write(to: page)

        let chromium = Chromium(executable: try #require(Chromium.executable), workDirectory: directory.url)
        let output = try await chromium.dumpDOM(of: page)
        try #require(output.status == 0, "chromium exited with \(output.status): \(output.stderr.suffix(2_000))")
        let dom = output.stdout

        let probe = try #require(MarkupChecks.element("<pre id=\"layout-probe\">", closing: "</pre>", in: dom), "the probe did not run; DOM starts: \(dom.prefix(500))")
        let json = probe.dropFirst("<pre id=\"layout-probe\">".count).dropLast("</pre>".count)
        let charts = try JSONDecoder().decode([ChartLayout].self, from: Data(json.utf8))
        let byID = Dictionary(uniqueKeysWithValues: charts.map { ($0.id, $0) })
        let expected = ["chart-latency"] + ["gprs", "edge", "3g"].flatMap { ["chart-latency-time-\($0)", "chart-traffic-\($0)", "chart-timeline-\($0)"] }
        #expect(Set(byID.keys) == Set(expected))
        for chart in charts {
            #expect(chart.isSVG, "\(chart.id) is parsed as SVG")
            #expect(chart.width > 600 && chart.height > 150, "\(chart.id) is laid out at \(chart.width)×\(chart.height)")
            #expect(chart.texts >= 8, "\(chart.id) has axis labels and a legend with rendered text")
        }
        let latency = try #require(byID["chart-latency"])
        #expect(latency.series.count == 3, "one curve per profile")
        #expect(latency.series.allSatisfy { $0[0] > 50 && $0[1] > 100 }, "each curve spans the axis: \(latency.series)")
        for profile in ["gprs", "edge", "3g"] {
            let overTime = try #require(byID["chart-latency-time-\(profile)"])
            #expect(overTime.bands.count >= 3, "the outages behind the latency dots on \(profile)")
            let traffic = try #require(byID["chart-traffic-\(profile)"])
            #expect(traffic.series.count == 2, "down and up")
            #expect(traffic.series.allSatisfy { $0[0] > 500 && $0[1] > 10 }, "\(profile) traffic: \(traffic.series)")
            #expect(traffic.bands.count >= 3)
            let timeline = try #require(byID["chart-timeline-\(profile)"])
            #expect(timeline.bands.count >= 3, "outage bands on \(profile)")
            #expect(timeline.bands.allSatisfy { $0 > 2 }, "visible outage bands: \(timeline.bands)")
            #expect(timeline.marks >= 2 * 6 * timeline.bands.count, "a disconnect and a reconnect per client per outage")
        }
        #expect(dom.contains("id=\"partial-banner\""))
        #expect(dom.contains("<code>lowband run --scenario subway --profiles gprs,edge,3g --seed 42"))
        #expect(Self.externalReferences(in: dom).isEmpty, "\(Self.externalReferences(in: dom))")
        #expect(Self.externalReferences(in: html).isEmpty)
    }

    @Test func theScreenshotShowsARenderedPage() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-report")
        let page = directory.url.appendingPathComponent("report.html")
        try Data(report().utf8).write(to: page)
        let image = directory.url.appendingPathComponent("report.png")

        let chromium = Chromium(executable: try #require(Chromium.executable), workDirectory: directory.url)
        let output = try await chromium.screenshot(of: page, to: image, width: 1200, height: 2000)
        try #require(output.status == 0, "chromium exited with \(output.status): \(output.stderr.suffix(2_000))")
        let png = try Data(contentsOf: image)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "a PNG")
        let header = [UInt8](png.prefix(24))
        let width = header.count == 24 ? header[16..<20].reduce(0) { $0 << 8 | Int($1) } : 0
        let height = header.count == 24 ? header[20..<24].reduce(0) { $0 << 8 | Int($1) } : 0
        #expect(width == 1200 && height == 2000, "viewport-sized: \(width)×\(height)")
        // A blank page of that size compresses to a few kilobytes; text and charts do not.
        #expect(png.count > 60_000, "\(png.count) bytes")
        Attachment.record(png, named: "lowband-report.png")
    }

    /// `src`/`href` attributes, CSS `url(...)` and `@import` that point outside the document.
    static func externalReferences(in html: String) -> [String] {
        var found: [String] = []
        let lowered = html.lowercased()
        for attribute in ["src=", "href=", "xlink:href=", "url(", "@import", "srcset="] {
            var rest = Substring(lowered)
            while let range = rest.range(of: attribute) {
                let value = rest[range.upperBound...].drop { $0 == "\"" || $0 == "'" || $0 == " " }.prefix(40)
                if !value.hasPrefix("#") { found.append(attribute + value) }
                rest = rest[range.upperBound...]
            }
        }
        return found
    }
}
