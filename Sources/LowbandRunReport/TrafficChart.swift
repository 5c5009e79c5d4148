/// Bytes over time for one profile, down (server → client) and up (client → server) as
/// throughput per bucket, with the outages shaded behind them so a stall reads as what it is.
enum TrafficChart {
    static func figureID(slug: String) -> String { "chart-traffic-\(slug)" }

    static func figure(record: RunRecord, slug: String) -> String {
        let id = figureID(slug: slug)
        let series = TrafficSeries(record)
        guard !series.buckets.isEmpty else {
            let note = "No traffic was recorded for \(record.profile)."
            return "<figure id=\"\(id)\" class=\"chart no-data\"><p class=\"no-data\">\(HTMLEscaping.escape(note))</p></figure>"
        }
        let caption = "Throughput of \(record.profile) per \(NumberFormatting.duration(seconds: series.typicalWidth)) bucket: "
            + "\(NumberFormatting.bytes(series.totalDown)) down, \(NumberFormatting.bytes(series.totalUp)) up in total; shaded: outages."
        return "<figure id=\"\(id)\" class=\"chart\">\(chart(record: record, series: series, id: id))<figcaption>\(HTMLEscaping.escape(caption))</figcaption></figure>"
    }

    private static func chart(record: RunRecord, series: TrafficSeries, id: String) -> String {
        let width = 960.0
        let runEnd = TimelineSpans.runEnd(record)
        let outages = TimelineSpans.outages(record.timeline, runEnd: runEnd)
        var entries = [
            ChartLegend.Entry(symbol: .swatch(color: ChartPalette.down, opacity: "0.35"), label: "down ↓ server → client · \(NumberFormatting.bytes(series.totalDown)) total"),
            ChartLegend.Entry(symbol: .swatch(color: ChartPalette.up, opacity: "0.35"), label: "up ↑ client → server · \(NumberFormatting.bytes(series.totalUp)) total"),
        ]
        if !outages.isEmpty {
            entries.append(ChartLegend.Entry(symbol: .swatch(color: ChartPalette.outage, opacity: ChartPalette.outageOpacity), label: "outage"))
        }
        let legend = ChartLegend.render(entries, x: 110, y: 16, maxWidth: width - 120)
        let area = PlotArea(left: 110, top: 16 + legend.height + 10, width: width - 110 - 24, height: 200)
        let height = area.bottom + 50

        let time = LinearScale(domain: 0, runEnd > 0 ? runEnd : 1, range: area.left, area.right)
        let rate = LinearScale(domain: 0, series.peakRate > 0 ? series.peakRate : 1, range: area.bottom, area.top).niced(tickCount: 4)

        var body: [String] = [legend.markup]
        body.append(OutageBands.render(outages, time: time, top: area.top, bottom: area.bottom))
        body.append(ChartAxes.bottom(
            area: area, ticks: time.ticks(count: 10), position: { time($0) },
            label: { NumberFormatting.number($0) }, title: "time since start (s)"
        ))
        body.append(ChartAxes.left(
            area: area, ticks: rate.ticks(count: 4), position: { rate($0) },
            label: { NumberFormatting.bytesTick($0) + "/s" }, title: "throughput (bytes/s)"
        ))
        body.append(stepArea(series.buckets, direction: "down", color: ChartPalette.down, value: \.downRate, time: time, rate: rate))
        body.append(stepArea(series.buckets, direction: "up", color: ChartPalette.up, value: \.upRate, time: time, rate: rate))
        let title = "Bytes over time on \(record.profile), per direction"
        let description = "\(NumberFormatting.bytes(series.totalDown)) down and \(NumberFormatting.bytes(series.totalUp)) up over \(NumberFormatting.duration(seconds: runEnd)); peak \(NumberFormatting.bytes(series.peakRate))/s."
        return SVG.document(id: id, width: width, height: height, title: title, description: description, body: body)
    }

    /// A step area from the axis up to each bucket's rate, falling back to zero across gaps.
    private static func stepArea(
        _ buckets: [TrafficSeries.Bucket], direction: String, color: String,
        value: KeyPath<TrafficSeries.Bucket, Double>, time: LinearScale, rate: LinearScale
    ) -> String {
        var outline = PathData()
        var previousEnd: Double?
        for bucket in buckets {
            if let end = previousEnd, bucket.start > end + 1e-9 {
                outline.vertical(rate(0))
                outline.horizontal(time(bucket.start))
            } else if previousEnd == nil {
                outline.move(time(bucket.start), rate(0))
            }
            outline.vertical(rate(bucket[keyPath: value]))
            outline.horizontal(time(bucket.end))
            previousEnd = bucket.end
        }
        outline.vertical(rate(0))
        var filled = outline
        filled.close()
        return SVG.group([
            SVG.path(filled, attributes: ["fill": color, "fill-opacity": "0.3", "stroke": "none"]),
            SVG.path(outline, attributes: ["class": "series series-\(direction)", "fill": "none", "stroke": color, "stroke-width": "1.5", "stroke-linejoin": "round"]),
        ], attributes: ["class": "traffic traffic-\(direction)"])
    }
}

/// Outage spans as shaded vertical bands, each with a tooltip giving its times.
enum OutageBands {
    static func render(_ spans: [TimeSpan], time: LinearScale, top: Double, bottom: Double) -> String {
        let bands = spans.map { span -> String in
            let x = time(span.start)
            let width = Swift.max(time(span.end) - x, 1.5)
            let ending = span.openEnded ? "until the run stopped" : "to \(NumberFormatting.number(span.end)) s"
            return SVG.rect(
                x: x, y: top, width: width, height: bottom - top,
                attributes: ["class": "outage-band", "fill": ChartPalette.outage, "fill-opacity": ChartPalette.outageOpacity],
                title: "outage from \(NumberFormatting.number(span.start)) s \(ending) (\(NumberFormatting.duration(seconds: span.end - span.start)))"
            )
        }
        return SVG.group(bands, attributes: ["class": "outages"])
    }
}
