/// Where one profile's delivery time went on average: a horizontal bar of the mean time per
/// stage, stacked in the order a message goes through the stages, and a table of every stage's
/// percentiles.
///
/// The bar stacks means because means add up (see ``StageFigures``); the table gives the
/// percentiles, which do not.
enum StageChart {
    static func figureID(slug: String) -> String { "chart-stages-\(slug)" }

    /// The figure (or a note when the record broke no delivery into stages) and the table.
    static func section(record: RunRecord, slug: String) -> String {
        let id = figureID(slug: slug)
        let figures = StageFigures(record)
        guard figures.deliveries > 0 else {
            let note = "No deliveries were broken down into stages on \(record.profile)"
                + (record.stages.isEmpty ? " (this record has no stage figures)." : ".")
            return "<figure id=\"\(id)\" class=\"chart no-data\"><p class=\"no-data\">\(HTMLEscaping.escape(note))</p></figure>"
        }
        let deliveries = "\(NumberFormatting.number(Double(figures.deliveries))) deliver\(figures.deliveries == 1 ? "y" : "ies")"
        let figure: String
        if figures.segments.isEmpty {
            let note = "The \(deliveries) on \(record.profile) spent no measurable time in any stage."
            figure = "<figure id=\"\(id)\" class=\"chart no-data\"><p class=\"no-data\">\(HTMLEscaping.escape(note))</p></figure>"
        } else {
            let caption = "Mean time per stage of the \(deliveries) on \(record.profile), stacked in the order a message goes through them. "
                + "Means, not medians: the stages' means add up to the mean total (\(NumberFormatting.duration(milliseconds: figures.meanTotal))), "
                + "percentiles do not — the table below gives each stage's p50, p90, p99 and max."
            figure = "<figure id=\"\(id)\" class=\"chart\">\(chart(figures, profile: record.profile, id: id))"
                + "<figcaption>\(HTMLEscaping.escape(caption))"
                + StageLegend.glossary(figures.segments.map(\.stage)) + "</figcaption></figure>"
        }
        return figure + table(figures, profile: record.profile, deliveries: deliveries)
    }

    private static func chart(_ figures: StageFigures, profile: String, id: String) -> String {
        let width = 960.0
        let legend = ChartLegend.render(
            StageLegend.entries { stage in figures.rows.first { $0.stage == stage }.map { NumberFormatting.duration(milliseconds: $0.mean) } },
            x: 110, y: 16, maxWidth: width - 120
        )
        let total = figures.meanTotal
        let totalLabel = "mean total \(NumberFormatting.duration(milliseconds: total))"
        let rightMargin = TextWidth.estimate(totalLabel, fontSize: 12) + 16
        let area = PlotArea(left: 110, top: 16 + legend.height + 14, width: width - 110 - rightMargin, height: 32)
        let height = area.bottom + 50
        let time = LinearScale(domain: 0, total, range: area.left, area.right).niced(tickCount: 8)

        var body: [String] = [legend.markup]
        body.append(ChartAxes.bottom(
            area: area, ticks: time.ticks(count: 8), position: { time($0) },
            label: { NumberFormatting.duration(milliseconds: $0) }, title: "mean time per delivery (ms / s)"
        ))
        body.append(SVG.text("mean", x: area.left - 12, y: area.top + area.height / 2 + 4, anchor: "end", attributes: ["class": "lane-label"]))
        var segments: [String] = []
        var start = 0.0
        for (stage, mean) in figures.segments {
            let x = time(start)
            let barWidth = time(start + mean) - x
            let share = NumberFormatting.share(mean / total)
            let duration = NumberFormatting.duration(milliseconds: mean)
            var parts = [SVG.rect(
                x: x, y: area.top, width: barWidth, height: area.height,
                attributes: ["class": "stage-bar", "fill": ChartPalette.stage(stage).fill, "stroke": "#FFFFFF", "stroke-width": "0.5"]
            )]
            if let label = TextWidth.fitting(["\(stage.label) \(duration)", duration], in: barWidth, fontSize: 11) {
                parts.append(SVG.text(label, x: x + barWidth / 2, y: area.top + area.height / 2 + 4, anchor: "middle", attributes: ["class": "bar-label \(ChartPalette.stage(stage).textClass)"]))
            }
            segments.append(SVG.group(
                parts, attributes: ["class": "stage-segment", "data-stage": stage.rawValue],
                title: "\(stage.label): mean \(duration), \(share) of the mean total"
            ))
            start += mean
        }
        body.append(SVG.group(segments, attributes: ["class": "stages"]))
        body.append(SVG.text(totalLabel, x: time(total) + 8, y: area.top + area.height / 2 + 4, attributes: ["class": "total-label"]))

        let description = figures.segments.map { "\($0.stage.label) \(NumberFormatting.duration(milliseconds: $0.mean))" }.joined(separator: ", ")
        return SVG.document(
            id: id, width: width, height: height, title: "Where the time went on \(profile): mean per stage",
            description: "\(totalLabel): \(description).", body: body
        )
    }

    /// Mean, share and percentiles of every stage, then the total.
    private static func table(_ figures: StageFigures, profile: String, deliveries: String) -> String {
        let total = figures.meanTotal
        var rows = figures.rows.map { row -> [String] in
            var cells = [row.label, NumberFormatting.duration(milliseconds: row.mean), total > 0 ? NumberFormatting.share(row.mean / total) : ""]
            cells += percentiles(row.summary)
            return cells
        }
        if let row = figures.total {
            rows.append(["total", NumberFormatting.duration(milliseconds: row.mean), total > 0 ? "100%" : ""] + percentiles(row.summary))
        }
        return SummaryTable.table(
            header: ["stage", "mean", "share of mean", "p50", "p90", "p99", "max"], rows: rows,
            caption: "Stages of the \(deliveries) on \(profile)", cssClass: "stages", textColumns: 1
        )
    }

    private static func percentiles(_ summary: RunSummary?) -> [String] {
        guard let summary else { return ["no samples", "", "", ""] }
        return [summary.p50, summary.p90, summary.p99, summary.max].map { NumberFormatting.duration(milliseconds: $0) }
    }
}
