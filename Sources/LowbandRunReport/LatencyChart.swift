/// The distribution of the main latency metric, one cumulative curve per profile on a shared
/// time axis, with each profile's physical floor marked: how far above the floor, and how heavy
/// the tail, at a glance.
enum LatencyChart {
    static let figureID = "chart-latency"
    /// More points than this per curve are thinned to evenly spaced quantiles.
    static let maximumPoints = 1000

    /// A `<figure>` with the chart, or with a note when no profile has samples of `metricName`.
    static func figure(records: [RunRecord], slugs: [String], metricName: String?) -> String {
        let series = records.enumerated().map { index, record in
            Series(
                profile: record.profile, slug: slugs[index], index: index,
                samples: metricName.flatMap(record.metric(named:)).map(LatencyMetricChoice.finiteSamples)?.sorted() ?? [],
                floor: record.floorMilliseconds.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
            )
        }
        guard let metricName, series.contains(where: { !$0.samples.isEmpty }) else {
            let what = metricName.map { "No samples of \(LatencyMetricChoice.readable($0)) were recorded." }
                ?? "No latency figure to chart: no metric in ms with at least two samples was recorded."
            return "<figure id=\"\(figureID)\" class=\"chart no-data\"><p class=\"no-data\">\(HTMLEscaping.escape(what))</p></figure>"
        }
        let title = "\(LatencyMetricChoice.readable(metricName)) — distribution per profile"
        let (svg, scale) = chart(series: series, title: title)
        let scaleNote = scale.isLogarithmic ? " Time axis is logarithmic." : ""
        let floorNote = series.contains { $0.floor != nil } ? " Dashed vertical lines mark each profile's physical floor (the least one-way delay plus the push's bytes at the bottleneck rate)." : ""
        let caption = "Share of \(LatencyMetricChoice.readable(metricName)) samples at or below a given time (cumulative distribution), per profile; dots mark p50, p90 and p99.\(scaleNote)\(floorNote)"
        return "<figure id=\"\(figureID)\" class=\"chart\">\(svg)<figcaption>\(HTMLEscaping.escape(caption))</figcaption></figure>"
    }

    struct Series {
        var profile: String
        var slug: String
        var index: Int
        /// Sorted, finite.
        var samples: [Double]
        var floor: Double?
    }

    /// The cumulative step points (value, fraction at or below it), thinned to `maximumPoints`.
    static func cumulativePoints(sorted samples: [Double], maximumPoints: Int = maximumPoints) -> [(value: Double, fraction: Double)] {
        let count = samples.count
        guard count > 0 else { return [] }
        if count <= maximumPoints {
            return samples.enumerated().map { ($0.element, Double($0.offset + 1) / Double(count)) }
        }
        return (1...maximumPoints).map { step in
            let rank = Int((Double(step) / Double(maximumPoints) * Double(count)).rounded(.up))
            let index = Swift.min(Swift.max(rank, 1), count) - 1
            return (samples[index], Double(index + 1) / Double(count))
        }
    }

    private static func chart(series: [Series], title: String) -> (String, ValueScale) {
        let width = 960.0
        let legendEntries = series.map { item -> ChartLegend.Entry in
            var label = item.profile
            if let summary = RunMetric(name: "", unit: "ms", values: item.samples).summary {
                label += " · p50 \(NumberFormatting.duration(milliseconds: summary.p50)) · p99 \(NumberFormatting.duration(milliseconds: summary.p99))"
            } else {
                label += " · no samples"
            }
            if let floor = item.floor { label += " · floor \(NumberFormatting.duration(milliseconds: floor))" }
            return ChartLegend.Entry(symbol: .line(color: ChartPalette.color(forSeries: item.index), dash: ChartPalette.dash(forSeries: item.index)), label: label)
        }
        let legend = ChartLegend.render(legendEntries, x: 110, y: 18, maxWidth: width - 140)
        let plotLeft = 110.0
        let plotWidth = width - 110 - 48
        let values = series.flatMap(\.samples) + series.compactMap(\.floor)
        let positive = values.filter { $0 > 0 }
        let scale = ValueScale.fitting(minimum: positive.min() ?? 1, maximum: values.max() ?? 1, range: plotLeft, plotLeft + plotWidth)
        // Floor labels get rows of their own above the plot, as many as keep them apart.
        let floorLabelSize = 11.0
        let floorRowHeight = 14.0
        let floored = series.filter { $0.floor != nil }.sorted { ($0.floor ?? 0, $0.index) < ($1.floor ?? 0, $1.index) }
        let floorRows = LabelRows(
            floored.map { (scale($0.floor ?? 0), "floor \($0.profile)") },
            fontSize: floorLabelSize, left: 4, right: width - 4)
        let area = PlotArea(left: plotLeft, top: 18 + legend.height + 14 + Double(floorRows.rowCount) * floorRowHeight, width: plotWidth, height: 320)
        let height = area.bottom + 52
        let fractionScale = LinearScale(domain: 0, 1, range: area.bottom, area.top)

        var body: [String] = [legend.markup]
        body.append(ChartAxes.bottom(
            area: area, ticks: scale.ticks(count: 8), position: { scale($0) },
            label: { NumberFormatting.duration(milliseconds: $0) },
            title: "time (ms / s)\(scale.isLogarithmic ? ", log scale" : "")"
        ))
        body.append(ChartAxes.left(
            area: area, ticks: [0, 0.25, 0.5, 0.75, 1], position: { fractionScale($0) },
            label: { NumberFormatting.percent($0) }, title: "share of samples at or below (%)"
        ))
        var guides: [String] = []
        for (fraction, name) in [(0.5, "p50"), (0.9, "p90"), (0.99, "p99")] {
            let y = fractionScale(fraction)
            guides.append(SVG.line(x1: area.left, y1: y, x2: area.right, y2: y, attributes: ["stroke": "#BBBBBB", "stroke-dasharray": "2 3"]))
            guides.append(SVG.text(name, x: area.right + 4, y: y + 4, attributes: ["class": "tick-label"]))
        }
        body.append(SVG.group(guides, attributes: ["class": "percentile-guides"]))

        var floors: [String] = []
        for (item, placement) in zip(floored, floorRows.placements) {
            guard let floor = item.floor else { continue }
            let x = scale(floor)
            let color = ChartPalette.color(forSeries: item.index)
            // The dashed line runs up to its label's row, so each label sits on its own line.
            let labelY = area.top - 4 - Double(floorRows.rowCount - 1 - placement.row) * floorRowHeight
            floors.append(SVG.line(
                x1: x, y1: labelY - floorLabelSize + 2, x2: x, y2: area.bottom,
                attributes: ["class": "floor", "data-profile": item.slug, "stroke": color, "stroke-width": "1.5", "stroke-dasharray": "5 4"],
                title: "\(item.profile) floor: \(NumberFormatting.duration(milliseconds: floor))"
            ))
            floors.append(SVG.text("floor \(item.profile)", x: placement.x, y: labelY, anchor: placement.anchor, attributes: ["class": "floor-label", "fill": color]))
        }
        body.append(SVG.group(floors, attributes: ["class": "floors"]))

        for item in series where !item.samples.isEmpty {
            body.append(curve(item, scale: scale, fractionScale: fractionScale))
        }
        let description = series.map { item -> String in
            guard let summary = RunMetric(name: "", unit: "ms", values: item.samples).summary else { return "\(item.profile): no samples" }
            return "\(item.profile): p50 \(NumberFormatting.duration(milliseconds: summary.p50)), p99 \(NumberFormatting.duration(milliseconds: summary.p99)), \(summary.samples) samples"
        }.joined(separator: "; ")
        return (SVG.document(id: figureID, width: width, height: height, title: title, description: description, body: body), scale)
    }

    private static func curve(_ item: Series, scale: ValueScale, fractionScale: LinearScale) -> String {
        let color = ChartPalette.color(forSeries: item.index)
        var data = PathData()
        let points = cumulativePoints(sorted: item.samples)
        data.move(scale(points[0].value), fractionScale(0))
        for point in points {
            data.horizontal(scale(point.value))
            data.vertical(fractionScale(point.fraction))
        }
        var attributes: [(String, String)] = [("stroke", color), ("stroke-width", "2"), ("fill", "none"), ("stroke-linejoin", "round")]
        if let dash = ChartPalette.dash(forSeries: item.index) { attributes.append(("stroke-dasharray", dash)) }
        var markup = "<path class=\"series series-latency\" data-profile=\"\(item.slug)\" d=\"\(data.text)\""
        for (name, value) in attributes { markup += " \(name)=\"\(value)\"" }
        markup += "><title>\(HTMLEscaping.escape(item.profile)): \(item.samples.count) samples</title></path>"

        var dots: [String] = []
        if let summary = RunMetric(name: "", unit: "ms", values: item.samples).summary {
            for (fraction, name, value) in [(0.5, "p50", summary.p50), (0.9, "p90", summary.p90), (0.99, "p99", summary.p99)] {
                dots.append(SVG.circle(
                    cx: scale(value), cy: fractionScale(fraction), r: 4,
                    attributes: ["class": "percentile-dot", "fill": color, "stroke": "#FFFFFF", "stroke-width": "1.5"],
                    title: "\(item.profile) \(name): \(NumberFormatting.duration(milliseconds: value))"
                ))
            }
        }
        return SVG.group([markup] + dots, attributes: ["class": "profile-series", "data-profile": item.slug])
    }
}
