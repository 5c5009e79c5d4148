/// The slowest deliveries of one profile drawn the way a browser's network panel draws
/// requests: one row per delivery, its stages as bars end to end from the moment the message was
/// stored, every row on one time axis, so what made each of them slow reads at a glance. The
/// same chart draws a session's legs (``SessionWaterfall``), with its parts as the stages.
enum WaterfallChart {
    static func figureID(slug: String) -> String { "chart-waterfall-\(slug)" }

    static let rowHeight = 22.0
    static let barHeight = 14.0
    static let fontSize = 11.0

    static func figure(record: RunRecord, slug: String) -> String {
        let id = figureID(slug: slug)
        let rows = record.slowest.map(Row.init)
        guard !rows.isEmpty else {
            let note = "No deliveries to show for \(record.profile): no delivered message was broken down into stages."
            return "<figure id=\"\(id)\" class=\"chart no-data\"><p class=\"no-data\">\(HTMLEscaping.escape(note))</p></figure>"
        }
        let shown = rows.count == 1 ? "slowest delivery" : "\(rows.count) slowest deliveries"
        let caption = "The \(shown) on \(record.profile), slowest first: each bar is a stage, starting where the previous one ended, "
            + "on one time axis from the moment the message was stored; the figure after a row is its total. Hover a bar for its stage and time."
        let drawn = LatencyStage.allCases.filter { stage in rows.contains { row in row.stages.contains { $0.key == stage.rawValue } } }
        let chart = chart(
            rows, legend: StageLegend.entries(), id: id, title: "Slowest deliveries on \(record.profile), stage by stage",
            axisTitle: "time since the message was stored (ms / s)", what: "deliveries")
        return "<figure id=\"\(id)\" class=\"chart\">\(chart)"
            + "<figcaption>\(HTMLEscaping.escape(caption))\(StageLegend.glossary(drawn))</figcaption></figure>"
    }

    /// A part of a row: a stage of a delivery, or a part of a session's leg.
    struct Segment {
        /// `data-stage` of its bar.
        var key: String
        var label: String
        var fill: String
        /// `on-light` or `on-dark`: the class of text drawn on it.
        var textClass: String
        var milliseconds: Double
    }

    /// One delivery as the chart draws it.
    struct Row {
        var label: String
        /// The stages with time in them, in order.
        var stages: [Segment]
        var total: Double
        /// The text after the bars: the total, and how the message came when that is unusual.
        var ending: String
        var tooltip: String

        init(_ breakdown: MessageBreakdown) {
            label = "msg \(breakdown.message) → client \(breakdown.receiver)"
            // A stage that is not a finite, non-negative number is drawn as no time at all.
            stages = LatencyStage.allCases.compactMap { stage in
                let value = breakdown.milliseconds(stage)
                let color = ChartPalette.stage(stage)
                return value.isFinite && value > 0 ? Segment(key: stage.rawValue, label: stage.label, fill: color.fill, textClass: color.textClass, milliseconds: value) : nil
            }
            total = stages.reduce(0) { $0 + $1.milliseconds }
            var ending = NumberFormatting.duration(milliseconds: total)
            if breakdown.carrier != "push" { ending += " · via \(breakdown.carrier)" }
            if breakdown.attempts > 1 { ending += " · sent \(breakdown.attempts)×" }
            self.ending = ending
            let sender = breakdown.sender.map { "client \($0)" } ?? "the server"
            let sends = breakdown.attempts == 1 ? "1 send" : "\(breakdown.attempts) sends"
            let parts = stages.map { "\($0.label) \(NumberFormatting.duration(milliseconds: $0.milliseconds))" }.joined(separator: ", ")
            tooltip = "message \(breakdown.message) in chat \(breakdown.chat), from \(sender) to client \(breakdown.receiver), "
                + "stored at \(NumberFormatting.number(breakdown.startSeconds)) s, via \(breakdown.carrier), \(sends): "
                + "\(NumberFormatting.duration(milliseconds: total))\(parts.isEmpty ? "" : " — \(parts)")"
        }

        /// A row with every field given.
        init(label: String, stages: [Segment], ending: String, tooltip: String) {
            self.label = label
            self.stages = stages.filter { $0.milliseconds.isFinite && $0.milliseconds > 0 }
            total = self.stages.reduce(0) { $0 + $1.milliseconds }
            self.ending = ending
            self.tooltip = tooltip
        }
    }

    static func chart(_ rows: [Row], legend entries: [ChartLegend.Entry], id: String, title: String, axisTitle: String, what: String) -> String {
        let width = 960.0
        let legend = ChartLegend.render(entries, x: 24, y: 16, maxWidth: width - 48)
        // Margins sized to the widest row label and ending, so neither reaches the bars.
        let left = Swift.max(110, (rows.map { TextWidth.estimate($0.label, fontSize: fontSize) }.max() ?? 0) + 24)
        let right = (rows.map { TextWidth.estimate($0.ending, fontSize: fontSize) }.max() ?? 0) + 16
        let area = PlotArea(left: left, top: 16 + legend.height + 12, width: width - left - right, height: Double(rows.count) * rowHeight)
        let height = area.bottom + 50
        let longest = rows.map(\.total).max() ?? 0
        let time = LinearScale(domain: 0, longest > 0 ? longest : 1, range: area.left, area.right).niced(tickCount: 8)

        var body: [String] = [legend.markup]
        var stripes: [String] = []
        for index in rows.indices where index % 2 == 1 {
            stripes.append(SVG.rect(x: area.left, y: area.top + Double(index) * rowHeight, width: area.width, height: rowHeight, attributes: ["fill": "#F6F6F6"]))
        }
        body.append(SVG.group(stripes, attributes: ["class": "stripes"]))
        body.append(ChartAxes.bottom(
            area: area, ticks: time.ticks(count: 8), position: { time($0) },
            label: { NumberFormatting.duration(milliseconds: $0) }, title: axisTitle
        ))
        for (index, row) in rows.enumerated() {
            body.append(rowMarkup(row, top: area.top + Double(index) * rowHeight, area: area, time: time))
        }
        let description = "\(rows.count) \(what), the slowest \(NumberFormatting.duration(milliseconds: longest)); longest stage of the slowest: "
            + (rows[0].stages.max { $0.milliseconds < $1.milliseconds }.map(\.label) ?? "none") + "."
        return SVG.document(id: id, width: width, height: height, title: title, description: description, body: body)
    }

    private static func rowMarkup(_ row: Row, top: Double, area: PlotArea, time: LinearScale) -> String {
        let barTop = top + (rowHeight - barHeight) / 2
        let middle = top + rowHeight / 2 + 4
        var parts = [SVG.text(row.label, x: area.left - 10, y: middle, anchor: "end", attributes: ["class": "row-label"])]
        // The row's whole span as a thin line under its bars: visible even where stages are too
        // short to see.
        parts.append(SVG.line(
            x1: time(0), y1: barTop + barHeight + 1.5, x2: time(row.total), y2: barTop + barHeight + 1.5,
            attributes: ["class": "waterfall-span", "stroke": "#888888", "stroke-width": "1.5"]
        ))
        var start = 0.0
        for segment in row.stages {
            let milliseconds = segment.milliseconds
            let x = time(start)
            let barWidth = time(start + milliseconds) - x
            let duration = NumberFormatting.duration(milliseconds: milliseconds)
            var bar = [SVG.rect(x: x, y: barTop, width: barWidth, height: barHeight, attributes: ["class": "waterfall-bar", "fill": segment.fill])]
            if let label = TextWidth.fitting(["\(segment.label) \(duration)", duration], in: barWidth, fontSize: fontSize) {
                bar.append(SVG.text(label, x: x + barWidth / 2, y: middle, anchor: "middle", attributes: ["class": "bar-label \(segment.textClass)"]))
            }
            parts.append(SVG.group(bar, attributes: ["class": "waterfall-stage", "data-stage": segment.key], title: "\(segment.label): \(duration)"))
            start += milliseconds
        }
        parts.append(SVG.text(row.ending, x: time(row.total) + 6, y: middle, attributes: ["class": "total-label"]))
        return SVG.group(parts, attributes: ["class": "waterfall-row"], title: row.tooltip)
    }
}
