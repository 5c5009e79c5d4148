/// The main latency metric of one profile over the run: one dot per sample at the time its
/// interval began, over the outages shaded as on the timeline, so a slow tail can be tied to
/// the outage or handover that caused it (a message sent inside an outage waits out the rest
/// of it: the dots fall in a diagonal across the band).
enum LatencyTimeChart {
    static func figureID(slug: String) -> String { "chart-latency-time-\(slug)" }
    /// More samples than this are thinned to an even selection, keeping the largest of each run.
    static let maximumDots = 4000

    static func figure(record: RunRecord, slug: String, metricName: String?) -> String {
        let id = figureID(slug: slug)
        guard let metricName, let metric = record.metric(named: metricName) else {
            return note(id, "No latency figure of \(record.profile) to plot over time.")
        }
        let name = LatencyMetricChoice.readable(metricName)
        guard let starts = metric.startSeconds, starts.count == metric.values.count else {
            return note(id, "This run did not record when each \(name) sample began, so it cannot be plotted over time.")
        }
        let points = zip(starts, metric.values).filter { $0.0.isFinite && $0.1.isFinite && $0.1 >= 0 }.map { (seconds: Swift.max($0.0, 0), value: $0.1) }
        guard !points.isEmpty else { return note(id, "No \(name) samples were recorded on \(record.profile).") }
        let outages = TimelineSpans.outages(record.timeline, runEnd: TimelineSpans.runEnd(record))
        let caption = "\(name.prefix(1).uppercased() + name.dropFirst()) of each sample on \(record.profile), at the time it began (\(points.count) samples); shaded: "
            + "\(outages.count) outage\(outages.count == 1 ? "" : "s"). A sample that began inside an outage waits out the rest of it."
        return "<figure id=\"\(id)\" class=\"chart\">\(chart(record: record, points: points, outages: outages, id: id, name: name))<figcaption>\(HTMLEscaping.escape(caption))</figcaption></figure>"
    }

    private static func note(_ id: String, _ text: String) -> String {
        "<figure id=\"\(id)\" class=\"chart no-data\"><p class=\"no-data\">\(HTMLEscaping.escape(text))</p></figure>"
    }

    /// At most `maximumDots` points: every k-th, plus the largest of each stride so the tail stays.
    static func thinned(_ points: [(seconds: Double, value: Double)]) -> [(seconds: Double, value: Double)] {
        guard points.count > maximumDots else { return points }
        let stride = (points.count + maximumDots / 2 - 1) / (maximumDots / 2)
        var kept: [(seconds: Double, value: Double)] = []
        var start = 0
        while start < points.count {
            let slice = points[start ..< Swift.min(start + stride, points.count)]
            kept.append(slice[slice.startIndex])
            if let largest = slice.indices.max(by: { slice[$0].value < slice[$1].value }), largest != slice.startIndex {
                kept.append(slice[largest])
            }
            start += stride
        }
        return kept
    }

    private static func chart(record: RunRecord, points: [(seconds: Double, value: Double)], outages: [TimeSpan], id: String, name: String) -> String {
        let width = 960.0
        let runEnd = Swift.max(TimelineSpans.runEnd(record), points.map(\.seconds).max() ?? 0)
        var entries = [ChartLegend.Entry(symbol: .mark(SVG.circle(cx: 0, cy: 0, r: 3, attributes: ["fill": ChartPalette.color(forSeries: 0)])), label: "one \(name) sample")]
        if !outages.isEmpty {
            entries.append(ChartLegend.Entry(symbol: .swatch(color: ChartPalette.outage, opacity: ChartPalette.outageOpacity), label: "outage"))
        }
        let legend = ChartLegend.render(entries, x: 110, y: 16, maxWidth: width - 120)
        let area = PlotArea(left: 110, top: 16 + legend.height + 10, width: width - 110 - 24, height: 220)
        let height = area.bottom + 50
        let time = LinearScale(domain: 0, runEnd > 0 ? runEnd : 1, range: area.left, area.right)
        let values = points.map(\.value)
        let positive = values.filter { $0 > 0 }
        let scale = ValueScale.fitting(minimum: positive.min() ?? 1, maximum: values.max() ?? 1, range: area.bottom, area.top)

        var body: [String] = [legend.markup]
        body.append(OutageBands.render(outages, time: time, top: area.top, bottom: area.bottom))
        body.append(ChartAxes.bottom(
            area: area, ticks: time.ticks(count: 10), position: { time($0) },
            label: { NumberFormatting.number($0) }, title: "time the sample began (s since start)"))
        body.append(ChartAxes.left(
            area: area, ticks: scale.ticks(count: 5), position: { scale($0) },
            label: { NumberFormatting.duration(milliseconds: $0) }, title: "\(name)\(scale.isLogarithmic ? ", log" : "")"))
        let floorOfPlot = positive.min() ?? 1
        let color = ChartPalette.color(forSeries: 0)
        let dots = thinned(points).map { point in
            SVG.circle(
                cx: time(point.seconds), cy: scale(scale.isLogarithmic ? Swift.max(point.value, floorOfPlot) : point.value), r: 2.5,
                attributes: ["fill": color, "fill-opacity": "0.7"],
                title: "\(NumberFormatting.number(point.seconds)) s: \(NumberFormatting.duration(milliseconds: point.value))")
        }
        body.append(SVG.group(dots, attributes: ["class": "latency-dots"]))
        let description = "\(points.count) samples of \(name) over \(NumberFormatting.duration(seconds: runEnd)), \(outages.count) outages shaded."
        return SVG.document(id: id, width: width, height: height, title: "\(name) over time on \(record.profile)", description: description, body: body)
    }
}
