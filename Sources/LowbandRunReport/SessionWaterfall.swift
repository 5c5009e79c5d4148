/// The slowest legs of a session judged from an app's events (docs/APP-EVENTS.md), drawn by the
/// run report's waterfall: one row per leg, its parts end to end from the moment the message was
/// sent, every row on one time axis.
package enum SessionWaterfall {
    /// The parts a leg is split into, in order, with their colours and what each holds.
    static let parts: [(name: String, fill: String, textClass: String, meaning: String)] = [
        ("link down", "#C62828", "on-dark", "an upstream was in an outage, handover, partition or blackhole"),
        ("loss stalls", "#8F4A00", "on-dark", "a link stalled on a lost piece"),
        ("queueing", "#E69F00", "on-light", "bytes waited in a link's queue for the link"),
        ("transit", "#56B4E9", "on-light", "the profile's one-way delays both ways"),
        ("app", "#7E57C2", "on-dark", "the rest: the app's own code, reconnects and retries"),
    ]

    /// One leg: a message's way to its acknowledgement or to one device.
    package struct Leg: Sendable {
        /// The row's label (`m-3 → bob`).
        package var label: String
        /// Its parts by name (`link down`, `loss stalls`, `queueing`, `transit`, `app`), in
        /// milliseconds.
        package var parts: [(name: String, milliseconds: Double)]
        /// Said when the row is hovered.
        package var tooltip: String

        /// A leg with every field given.
        package init(label: String, parts: [(name: String, milliseconds: Double)], tooltip: String) {
            self.label = label
            self.parts = parts
            self.tooltip = tooltip
        }
    }

    /// A `<figure>` with the `limit` slowest of `legs` (slowest first) and a glossary of the parts.
    package static func figure(_ legs: [Leg], title: String, limit: Int = 30) -> String {
        let id = "chart-waterfall-session"
        let rows = legs.map(row).sorted { $0.total > $1.total }.prefix(limit)
        guard !rows.isEmpty else {
            return "<figure id=\"\(id)\" class=\"chart no-data\"><p class=\"no-data\">No message was acknowledged or delivered.</p></figure>"
        }
        let legend = parts.map { ChartLegend.Entry(symbol: .swatch(color: $0.fill, opacity: "1"), label: $0.name) }
        let chart = WaterfallChart.chart(
            Array(rows), legend: legend, id: id, title: title, axisTitle: "time since the message was sent (ms / s)", what: "legs")
        let shown = rows.count == 1 ? "slowest leg" : "\(rows.count) slowest legs"
        let caption = "The \(shown), slowest first: each bar is a part, starting where the previous one ended, on one time axis from the moment "
            + "the message was sent; the figure after a row is its total. Hover a bar for its part and time."
        let glossary = parts.map { "<dfn>\(HTMLEscaping.escape($0.name))</dfn>: \(HTMLEscaping.escape($0.meaning))" }.joined(separator: " · ")
        return "<figure id=\"\(id)\" class=\"chart\">\(chart)<figcaption>\(HTMLEscaping.escape(caption))"
            + "<p class=\"glossary\"><span class=\"glossary-title\">Glossary —</span> \(glossary).</p></figcaption></figure>"
    }

    private static func row(_ leg: Leg) -> WaterfallChart.Row {
        let segments = parts.compactMap { part -> WaterfallChart.Segment? in
            guard let milliseconds = leg.parts.first(where: { $0.name == part.name })?.milliseconds else { return nil }
            return WaterfallChart.Segment(key: part.name.replacingOccurrences(of: " ", with: "_"), label: part.name, fill: part.fill, textClass: part.textClass, milliseconds: milliseconds)
        }
        let total = segments.reduce(0) { $0 + ($1.milliseconds.isFinite && $1.milliseconds > 0 ? $1.milliseconds : 0) }
        return WaterfallChart.Row(label: leg.label, stages: segments, ending: NumberFormatting.duration(milliseconds: total), tooltip: leg.tooltip)
    }
}
