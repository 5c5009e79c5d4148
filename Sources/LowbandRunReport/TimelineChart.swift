/// Outages, disconnects, reconnects and broken promises of one profile's run on a time axis:
/// outages as shaded bands across every lane, one lane per client that had an event (up to
/// ``maximumClientLanes``) and one shared lane for the clients that had none, or for larger
/// crowds one aggregated lane with the number of clients offline over time and one lane of
/// broken promises. A broken promise's mark links to its entry
/// in the promises section (``ViolationMarks``).
enum TimelineChart {
    static let maximumClientLanes = 12

    static func figureID(slug: String) -> String { "chart-timeline-\(slug)" }

    static func figure(record: RunRecord, slug: String) -> String {
        let id = figureID(slug: slug)
        let events = TimelineSpans.ordered(record.timeline)
        guard !events.isEmpty || !record.violations.isEmpty else {
            let note = "No outages, disconnects or reconnects were recorded for \(record.profile)."
            return "<figure id=\"\(id)\" class=\"chart no-data\"><p class=\"no-data\">\(HTMLEscaping.escape(note))</p></figure>"
        }
        let count = { (kind: TimelineEvent.Kind) in events.filter { $0.kind == kind }.count }
        let outages = TimelineSpans.outages(events, runEnd: TimelineSpans.runEnd(record)).count
        let caption = "Timeline of \(record.profile): \(outages) outage\(outages == 1 ? "" : "s"), "
            + "\(count(.disconnect)) disconnect\(count(.disconnect) == 1 ? "" : "s"), \(count(.reconnect)) reconnect\(count(.reconnect) == 1 ? "" : "s")"
            + violationsNote(record.violations.count) + ". Hover a mark for its time and detail."
        return "<figure id=\"\(id)\" class=\"chart\">\(chart(record: record, slug: slug, events: events, id: id))<figcaption>\(HTMLEscaping.escape(caption))</figcaption></figure>"
    }

    /// A horizontal strip of the chart.
    private struct Lane {
        var label: String
        var client: Int?
        var height: Double
        /// The shared lane of clients with no event: labelled, never marked.
        var quiet = false
        /// The radio's power states over time, drawn as bands (``RadioLane``).
        var radio = false
    }

    private static func violationsNote(_ count: Int) -> String {
        count == 0 ? "" : ", \(count) broken promise\(count == 1 ? "" : "s") (a mark links to its entry)"
    }

    /// The lanes, top to bottom. Aggregated: network, disconnects, reconnects, broken promises
    /// (when there are any), clients offline (always last).
    /// Clients with something on the timeline get a lane each (up to ``maximumClientLanes``);
    /// the clients with nothing share one lane, so a quiet crowd is one row, not twenty empty ones.
    private static func lanes(for record: RunRecord, events: [TimelineEvent]) -> (lanes: [Lane], aggregated: Bool) {
        let involved = Set(events.compactMap(\.client) + record.violations.compactMap(\.client))
        let clientCount = Swift.max(record.clients, (involved.max() ?? -1) + 1)
        var lanes = [Lane(label: "network", client: nil, height: 24)]
        if events.contains(where: { $0.kind == .radio }) { lanes.append(Lane(label: "radio", client: nil, height: 16, quiet: false, radio: true)) }
        let active = (0..<Swift.max(clientCount, 0)).filter(involved.contains)
        if active.count <= maximumClientLanes {
            lanes += active.map { Lane(label: "client \($0)", client: $0, height: 20) }
            let quiet = clientCount - active.count
            if quiet > 0 {
                let label = quiet == clientCount ? (quiet == 1 ? "client 0" : "all \(quiet) clients") : "\(quiet) other\(quiet == 1 ? "" : "s")"
                lanes.append(Lane(label: label, client: nil, height: 20, quiet: true))
            }
            return (lanes, false)
        }
        lanes += [
            Lane(label: "disconnects", client: nil, height: 20),
            Lane(label: "reconnects", client: nil, height: 20),
        ]
        if !record.violations.isEmpty { lanes.append(Lane(label: "broken promises", client: nil, height: 20)) }
        lanes.append(Lane(label: "clients offline", client: nil, height: 90))
        return (lanes, true)
    }

    private static func chart(record: RunRecord, slug: String, events: [TimelineEvent], id: String) -> String {
        let width = 960.0
        let runEnd = TimelineSpans.runEnd(record)
        let (lanes, aggregated) = lanes(for: record, events: events)
        var entries = [
            ChartLegend.Entry(symbol: .swatch(color: ChartPalette.outage, opacity: ChartPalette.outageOpacity), label: "outage"),
            ChartLegend.Entry(symbol: .mark(disconnectMark(x: 0, y: 0)), label: "disconnect"),
            ChartLegend.Entry(symbol: .mark(reconnectMark(x: 0, y: 0)), label: "reconnect"),
            ChartLegend.Entry(symbol: .swatch(color: ChartPalette.disconnect, opacity: "0.45"), label: aggregated ? "clients offline" : "client offline"),
            ChartLegend.Entry(symbol: .mark(noteMark(x: 0, y: 0)), label: "note"),
        ]
        if !record.violations.isEmpty {
            entries.append(ChartLegend.Entry(symbol: .mark(ViolationMarks.mark(x: 0, y: 4)), label: "broken promise (links to its entry)"))
        }
        if events.contains(where: { $0.kind == .radio }) {
            entries += [
                ChartLegend.Entry(symbol: .swatch(color: RadioLane.shades[0], opacity: "1"), label: "radio: top state"),
                ChartLegend.Entry(symbol: .swatch(color: RadioLane.shades[1], opacity: "1"), label: "lower states (paler further down)"),
                ChartLegend.Entry(symbol: .swatch(color: RadioLane.promoting, opacity: "1"), label: "promoting"),
            ]
        }
        let legend = ChartLegend.render(entries, x: 110, y: 16, maxWidth: width - 120)
        let plotHeight = lanes.reduce(0) { $0 + $1.height }
        let area = PlotArea(left: 110, top: 16 + legend.height + 10, width: width - 110 - 24, height: plotHeight)
        let height = area.bottom + 50
        let time = LinearScale(domain: 0, runEnd > 0 ? runEnd : 1, range: area.left, area.right)

        var body: [String] = [legend.markup]
        var laneTop = area.top
        var laneMarkup: [String] = []
        var laneCentres: [(client: Int?, centre: Double)] = []
        var allCentres: [Double] = []
        var radioLane: (top: Double, height: Double)?
        for (index, lane) in lanes.enumerated() {
            if index % 2 == 1 {
                laneMarkup.append(SVG.rect(x: area.left, y: laneTop, width: area.width, height: lane.height, attributes: ["fill": "#F6F6F6"]))
            }
            laneMarkup.append(SVG.text(lane.label, x: area.left - 12, y: laneTop + lane.height / 2 + 4, anchor: "end", attributes: ["class": "lane-label"]))
            if lane.radio {
                radioLane = (laneTop, lane.height)
            } else if lane.quiet {
                laneMarkup.append(SVG.text("no disconnects, reconnects or broken promises", x: area.left + 8, y: laneTop + lane.height / 2 + 4, attributes: ["class": "lane-label quiet-lane"]))
            } else if index == 0 || !aggregated {
                laneCentres.append((lane.client, laneTop + lane.height / 2))
            }
            if !lane.radio { allCentres.append(laneTop + lane.height / 2) }
            laneTop += lane.height
        }
        body.append(SVG.group(laneMarkup, attributes: ["class": "lanes"]))
        body.append(OutageBands.render(TimelineSpans.outages(events, runEnd: runEnd), time: time, top: area.top, bottom: area.bottom))
        if let radioLane {
            body.append(RadioLane.render(events, time: time, top: radioLane.top, height: radioLane.height, runEnd: runEnd))
        }
        body.append(ChartAxes.bottom(
            area: area, ticks: time.ticks(count: 10), position: { time($0) },
            label: { NumberFormatting.number($0) }, title: "time since start (s)"
        ))

        var marks: [String] = []
        if aggregated, let lane = lanes.last {
            marks.append(offlineCountArea(events, time: time, top: area.bottom - lane.height, bottom: area.bottom, runEnd: runEnd))
        } else {
            for (client, centre) in laneCentres {
                for span in TimelineSpans.offline(events, client: client, runEnd: runEnd) {
                    marks.append(SVG.rect(
                        x: time(span.start), y: centre - 3, width: Swift.max(time(span.end) - time(span.start), 1), height: 6,
                        attributes: ["class": "offline-span", "fill": ChartPalette.disconnect, "fill-opacity": "0.45"],
                        title: "\(client.map { "client \($0)" } ?? "clients") offline \(NumberFormatting.duration(seconds: span.end - span.start))"
                    ))
                }
            }
        }
        let networkCentre = laneCentres.first?.centre ?? area.top + 12
        for event in events {
            let x = time(event.seconds)
            // Aggregated: lane 1 holds every client's disconnects, lane 2 their reconnects.
            let y = aggregated && event.client != nil
                ? allCentres[event.kind == .disconnect ? 1 : 2]
                : (laneCentres.first { $0.client == event.client }?.centre ?? networkCentre)
            let who = event.client.map { "client \($0) " } ?? ""
            let detail = event.detail.isEmpty ? "" : ": \(event.detail)"
            let tooltip = "\(NumberFormatting.number(event.seconds)) s — \(who)\(event.kind.rawValue.replacingUnderscores)\(detail)"
            switch event.kind {
            case .disconnect: marks.append(SVG.group([disconnectMark(x: x, y: y)], attributes: ["class": "mark-disconnect"], title: tooltip))
            case .reconnect: marks.append(SVG.group([reconnectMark(x: x, y: y)], attributes: ["class": "mark-reconnect"], title: tooltip))
            case .note: marks.append(SVG.group([noteMark(x: x, y: networkCentre)], attributes: ["class": "mark-note"], title: tooltip))
            case .outageStart, .outageEnd:
                marks.append(SVG.line(x1: x, y1: area.top, x2: x, y2: area.top + 24, attributes: ["class": "mark-outage-edge", "stroke": ChartPalette.outage, "stroke-width": "1.5"], title: tooltip))
            case .radio:
                continue
            }
        }
        body.append(SVG.group(marks, attributes: ["class": "marks"]))
        body.append(ViolationMarks.render(record.violations, slug: slug, time: time, area: area) { violation in
            if aggregated { return allCentres[3] }
            return laneCentres.first { $0.client != nil && $0.client == violation.client }?.centre ?? networkCentre
        })

        let title = "Outages and reconnects on \(record.profile)"
        let description = "\(events.count) events\(violationsNote(record.violations.count)) over \(NumberFormatting.duration(seconds: runEnd)), \(aggregated ? "clients aggregated" : "one lane per client")."
        return SVG.document(id: id, width: width, height: height, title: title, description: description, body: body)
    }

    /// The number of clients offline as a step area within a lane, labelled with its peak.
    private static func offlineCountArea(_ events: [TimelineEvent], time: LinearScale, top: Double, bottom: Double, runEnd: Double) -> String {
        let steps = TimelineSpans.offlineCount(events)
        let peak = steps.map(\.count).max() ?? 0
        let count = LinearScale(domain: 0, Double(Swift.max(peak, 1)), range: bottom - 2, top + 6)
        var outline = PathData()
        outline.move(time(0), count(0))
        for step in steps {
            outline.horizontal(time(step.seconds))
            outline.vertical(count(Double(step.count)))
        }
        outline.horizontal(time(runEnd))
        outline.vertical(count(0))
        outline.close()
        return SVG.group([
            SVG.path(outline, attributes: ["class": "offline-count", "fill": ChartPalette.disconnect, "fill-opacity": "0.45", "stroke": ChartPalette.disconnect, "stroke-width": "1"]),
            SVG.text("peak \(peak)", x: time(0) + 4, y: top + 14, attributes: ["class": "tick-label"]),
        ], attributes: ["class": "offline-aggregate"])
    }

    static func disconnectMark(x: Double, y: Double) -> String {
        var cross = PathData()
        cross.move(x - 4, y - 4)
        cross.line(x + 4, y + 4)
        cross.move(x - 4, y + 4)
        cross.line(x + 4, y - 4)
        return SVG.path(cross, attributes: ["stroke": ChartPalette.disconnect, "stroke-width": "2.2", "stroke-linecap": "round", "fill": "none"])
    }

    static func reconnectMark(x: Double, y: Double) -> String {
        SVG.circle(cx: x, cy: y, r: 4, attributes: ["fill": ChartPalette.reconnect, "stroke": "#FFFFFF", "stroke-width": "1"])
    }

    static func noteMark(x: Double, y: Double) -> String {
        var diamond = PathData()
        diamond.move(x, y - 5)
        diamond.line(x + 4, y)
        diamond.line(x, y + 5)
        diamond.line(x - 4, y)
        diamond.close()
        return SVG.path(diamond, attributes: ["fill": ChartPalette.note])
    }
}

extension String {
    /// `outage_start` → `outage start`.
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
}
