package import LowbandFindings

/// A recorded session's timeline (`SessionTimeline`, LowbandFindings) on one time axis: the link's lane
/// (outages, handovers, partitions and toxics as bands; profile or seed switches, rules changes
/// and refusals as marks), bytes per second each way, the app's events when it posted some, and
/// a lane per destination with a row per connection (its handshake, its life, a reset's ✕, its
/// DNS lookup). Outages shade every lane. Rows are capped; the rest of a destination's
/// connections share one row.
package enum SessionTimelineChart {
    /// Connection rows drawn at most; beyond them each destination gets one shared row.
    static let maximumRows = 60
    static let width = 960.0
    static let labelWidth = 210.0
    static let rowHeight = 14.0

    private static let fills: [String] = ["#0072B2", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#E69F00", "#7E57C2", "#8F4A00"]

    /// A `<figure>` with the chart, its legend and caption; `title` names the session.
    package static func figure(_ timeline: SessionTimeline, title: String) -> String {
        let id = "chart-session-timeline"
        guard !timeline.connections.isEmpty || !timeline.stretches.isEmpty || !timeline.marks.isEmpty else {
            return "<figure id=\"\(id)\" class=\"chart no-data\"><p class=\"no-data\">Nothing went through the proxy.</p></figure>"
        }
        let destinations = timeline.destinations
        let resets = timeline.connections.filter(\.reset).count
        var caption = "\(timeline.connections.count) connection\(timeline.connections.count == 1 ? "" : "s") to \(destinations.count) destination\(destinations.count == 1 ? "" : "s")"
            + ", " + [("outage", "outage"), ("handover", "handover"), ("partition", "partition")].map { kind, word in
                let count = timeline.stretches.filter { $0.kind.split(separator: " ").first.map(String.init) == kind }.count
                return "\(count) \(word)\(count == 1 ? "" : "s")"
            }.joined(separator: ", ") + ", \(resets) reset\(resets == 1 ? "" : "s")"
        if timeline.omittedConnections > 0 { caption += "; \(timeline.omittedConnections) later connections not kept" }
        caption += ". Each row is a connection: light while its handshake crossed the link, solid while open; ✕ a reset, ○ a DNS lookup. Hover anything for its detail."
        return "<figure id=\"\(id)\" class=\"chart\">\(chart(timeline, destinations: destinations, id: id, title: title))<figcaption>\(HTMLEscaping.escape(caption))</figcaption></figure>"
    }

    private struct Row {
        var label: String
        var title: String
        var connections: [SessionTimeline.Connection]
        var header: Bool
    }

    private static func rows(_ timeline: SessionTimeline, destinations: [(destination: String, connections: [Int])]) -> [Row] {
        var rows: [Row] = []
        var budget = maximumRows
        for (index, group) in destinations.enumerated() {
            let connections = group.connections.map { timeline.connections[$0] }
            let bytes = connections.reduce(0) { $0 + $1.upstreamBytes + $1.downstreamBytes }
            let rule = connections.compactMap(\.rule).first.map { " · \($0)" } ?? ""
            rows.append(Row(
                label: group.destination, title: "\(group.destination): \(connections.count) connection(s), \(NumberFormatting.bytes(Double(bytes)))\(rule)",
                connections: [], header: true))
            let shown = index == destinations.count - 1 ? budget : Swift.min(budget, Swift.max(3, budget / Swift.max(destinations.count - index, 1)))
            let own = connections.prefix(Swift.max(shown, 0))
            for connection in own {
                rows.append(Row(label: "  #\(connection.number)\(connection.proxy == "lowband" ? "" : " \(connection.proxy)")", title: describe(connection), connections: [connection], header: false))
            }
            budget -= own.count
            let rest = Array(connections.dropFirst(own.count))
            if !rest.isEmpty {
                rows.append(Row(label: "  \(rest.count) more", title: "\(rest.count) more connections to \(group.destination)", connections: rest, header: false))
            }
        }
        return rows
    }

    private static func chart(_ timeline: SessionTimeline, destinations: [(destination: String, connections: [Int])], id: String, title: String) -> String {
        let rows = rows(timeline, destinations: destinations)
        let appMarks = timeline.marks.filter { $0.kind == "app" }
        // One lane per device, in the order they first posted (marks from before devices were
        // named share one lane).
        var devices: [String] = []
        for mark in appMarks where !devices.contains(mark.device ?? "app") { devices.append(mark.device ?? "app") }
        let linkTop = 30.0
        let trafficTop = linkTop + 26
        let trafficHeight = 64.0
        let appTop = trafficTop + trafficHeight + 8
        let appHeight = Double(devices.count) * 20
        let rowsTop = appTop + appHeight + 8
        let plotBottom = rowsTop + Double(rows.count) * rowHeight
        let height = plotBottom + 50
        let area = PlotArea(left: labelWidth, top: linkTop, width: width - labelWidth - 20, height: plotBottom - linkTop)
        let end = Swift.max(timeline.end, timeline.connections.map { $0.closed ?? $0.opened }.max() ?? 0, 0.001)
        let time = LinearScale(domain: 0, end, range: area.left, area.right).niced()
        let x = { (seconds: Double) in Swift.min(Swift.max(time(seconds), area.left), area.right) }
        var body: [String] = []
        body.append(ChartAxes.bottom(area: area, ticks: time.ticks(), position: { time($0) }, label: { NumberFormatting.duration(seconds: $0) }, title: "time since the session started"))
        // Outages and other down stretches shade every lane; toxics mark the link's lane.
        for stretch in timeline.stretches {
            let x1 = x(stretch.start), x2 = Swift.max(x(stretch.end), x1 + 1)
            let kind = stretch.kind.split(separator: " ").first.map(String.init) ?? ""
            let what = "\(stretch.kind) on \(stretch.proxy) from \(NumberFormatting.duration(seconds: stretch.start)) to \(NumberFormatting.duration(seconds: stretch.end))"
                + (stretch.origin.map { " (\($0))" } ?? "")
            if stretch.down {
                body.append(SVG.rect(x: x1, y: linkTop, width: x2 - x1, height: plotBottom - linkTop, attributes: ["class": "stretch-down", "fill": "#424242", "fill-opacity": "0.14"], title: what))
                body.append(SVG.rect(x: x1, y: linkTop + 4, width: x2 - x1, height: 14, attributes: ["class": "stretch \(kind)", "fill": kind == "handover" ? "#7E57C2" : kind == "partition" ? "#8D6E63" : "#424242"], title: what))
            } else {
                body.append(SVG.rect(x: x1, y: linkTop + 18, width: x2 - x1, height: 4, attributes: ["class": "stretch toxic", "fill": "#E69F00"], title: what))
            }
        }
        body.append(SVG.text("link", x: labelWidth - 8, y: linkTop + 15, anchor: "end", attributes: ["class": "lane-label"]))
        for mark in timeline.marks where ["link", "routes", "denied", "refused", "toxic"].contains(mark.kind) {
            let symbol = mark.kind == "link" ? "▲" : mark.kind == "routes" ? "◆" : mark.kind == "toxic" ? "✚" : "⊘"
            body.append(SVG.text(symbol, x: x(mark.at), y: linkTop + 15, anchor: "middle", attributes: ["class": "mark mark-\(mark.kind)", "fill": mark.kind == "link" ? "#0072B2" : "#616161"]))
            body[body.count - 1] = SVG.group([body[body.count - 1]], title: "\(NumberFormatting.duration(seconds: mark.at)) \(mark.kind): \(mark.detail ?? "")")
        }
        body.append(traffic(timeline, x: x, top: trafficTop, height: trafficHeight))
        for (lane, device) in devices.enumerated() {
            let top = appTop + Double(lane) * 20
            body.append(SVG.text(device, x: labelWidth - 8, y: top + 13, anchor: "end", attributes: ["class": "lane-label app-lane"]))
            for mark in appMarks where (mark.device ?? "app") == device {
                body.append(SVG.circle(cx: x(mark.at), cy: top + 9, r: 3.5, attributes: ["class": "mark mark-app", "fill": "#7E57C2"], title: "\(NumberFormatting.duration(seconds: mark.at)) \(mark.detail ?? "")"))
            }
        }
        let fillOf = Dictionary(uniqueKeysWithValues: destinations.enumerated().map { ($1.destination, fills[$0 % fills.count]) })
        let dnsMarks = Dictionary(grouping: timeline.marks.filter { $0.kind == "dns" && $0.connection != nil }) { "\($0.proxy ?? "") \($0.connection ?? 0)" }
        for (index, row) in rows.enumerated() {
            let y = rowsTop + Double(index) * rowHeight
            body.append(SVG.text(String(row.label.prefix(30)), x: labelWidth - 8, y: y + 10.5, anchor: "end", attributes: ["class": row.header ? "lane-label destination" : "lane-label connection"]))
            if row.header {
                body.append(SVG.line(x1: area.left, y1: y + 0.5, x2: area.right, y2: y + 0.5, attributes: ["stroke": ChartPalette.grid]))
                continue
            }
            for connection in row.connections {
                let fill = fillOf[connection.destination] ?? fills[0]
                let opened = x(connection.opened)
                let connected = connection.connected.map(x) ?? x(connection.closed ?? end)
                let closed = Swift.max(x(connection.closed ?? end), connected)
                let shared = row.connections.count > 1
                let title = shared ? row.title : describe(connection)
                body.append(SVG.rect(x: opened, y: y + 3, width: Swift.max(connected - opened, 0.5), height: 8, attributes: ["class": "handshake", "fill": fill, "fill-opacity": "0.3"], title: title))
                body.append(SVG.rect(x: connected, y: y + 3, width: Swift.max(closed - connected, 1), height: 8, attributes: ["class": "connection", "fill": fill, "fill-opacity": shared ? "0.35" : "1"], title: title))
                if connection.reset {
                    body.append(SVG.text("✕", x: closed, y: y + 11, anchor: "middle", attributes: ["class": "mark mark-reset", "fill": "#C62828"]))
                }
                for dns in dnsMarks["\(connection.proxy) \(connection.number)"] ?? [] {
                    body.append(SVG.circle(cx: x(dns.at), cy: y + 7, r: 3, attributes: ["class": "mark mark-dns", "fill": "none", "stroke": "#212121"], title: "\(NumberFormatting.duration(seconds: dns.at)) DNS: \(dns.detail ?? "")"))
                }
            }
        }
        let legend = ChartLegend.render([
            .init(symbol: .swatch(color: "#424242", opacity: "1"), label: "outage"),
            .init(symbol: .swatch(color: "#7E57C2", opacity: "1"), label: "handover"),
            .init(symbol: .swatch(color: "#8D6E63", opacity: "1"), label: "partition"),
            .init(symbol: .swatch(color: "#E69F00", opacity: "1"), label: "toxic"),
            .init(symbol: .swatch(color: "#D55E00", opacity: "0.7"), label: "bytes up (above)"),
            .init(symbol: .swatch(color: "#0072B2", opacity: "0.7"), label: "bytes down (below)"),
            .init(symbol: .mark(SVG.text("▲", x: 0, y: 4, anchor: "middle", attributes: ["fill": "#0072B2"])), label: "profile or seed switch"),
            .init(symbol: .mark(SVG.text("✕", x: 0, y: 4, anchor: "middle", attributes: ["fill": "#C62828"])), label: "reset"),
            .init(symbol: .mark(SVG.circle(cx: 0, cy: 0, r: 3, attributes: ["fill": "none", "stroke": "#212121"])), label: "DNS lookup"),
            .init(symbol: .mark(SVG.circle(cx: 0, cy: 0, r: 3.5, attributes: ["fill": "#7E57C2"])), label: "app event"),
        ], x: labelWidth, y: 8, maxWidth: width - labelWidth)
        body.append(legend.markup)
        return SVG.document(
            id: id, width: width, height: height, title: title,
            description: "The session's connections by destination on one time axis, with the link's outages, handovers and toxics and the bytes per second each way.",
            body: body)
    }

    /// Bytes per second: toward servers above the midline, toward clients below.
    private static func traffic(_ timeline: SessionTimeline, x: (Double) -> Double, top: Double, height: Double) -> String {
        let middle = top + height / 2
        let peak = Double(timeline.traffic.map { Swift.max($0.upstreamBytes, $0.downstreamBytes) }.max() ?? 0)
        var parts = [
            SVG.text("bytes/s", x: labelWidth - 8, y: middle + 4, anchor: "end", attributes: ["class": "lane-label"]),
            SVG.line(x1: x(0), y1: middle, x2: x(timeline.end), y2: middle, attributes: ["stroke": ChartPalette.grid]),
        ]
        guard peak > 0 else { return SVG.group(parts, attributes: ["class": "traffic"]) }
        parts.append(SVG.text("\(NumberFormatting.bytes(peak))/s", x: labelWidth + 4, y: top + 9, attributes: ["class": "tick-label"]))
        let scale = (height / 2 - 2) / peak
        for second in timeline.traffic {
            let x1 = x(Double(second.second)), x2 = Swift.max(x(Double(second.second + 1)), x1 + 0.5)
            let words = "second \(second.second): \(NumberFormatting.bytes(Double(second.upstreamBytes))) up, \(NumberFormatting.bytes(Double(second.downstreamBytes))) down"
            if second.upstreamBytes > 0 {
                let h = Double(second.upstreamBytes) * scale
                parts.append(SVG.rect(x: x1, y: middle - h, width: x2 - x1, height: h, attributes: ["class": "bytes-up", "fill": "#D55E00", "fill-opacity": "0.7"], title: words))
            }
            if second.downstreamBytes > 0 {
                let h = Double(second.downstreamBytes) * scale
                parts.append(SVG.rect(x: x1, y: middle, width: x2 - x1, height: h, attributes: ["class": "bytes-down", "fill": "#0072B2", "fill-opacity": "0.7"], title: words))
            }
        }
        return SVG.group(parts, attributes: ["class": "traffic"])
    }

    /// A connection in words, for its tooltip.
    static func describe(_ connection: SessionTimeline.Connection) -> String {
        var words = "#\(connection.number) → \(connection.destination)"
        if let via = connection.via { words += " (\(via))" }
        if let rule = connection.rule { words += " [\(rule)]" }
        words += ": opened \(NumberFormatting.duration(seconds: connection.opened))"
        if let connected = connection.connected { words += ", connected \(NumberFormatting.duration(seconds: connected))" }
        if let closed = connection.closed { words += ", closed \(NumberFormatting.duration(seconds: closed))" } else { words += ", open at the end" }
        words += "; \(NumberFormatting.bytes(Double(connection.upstreamBytes))) up, \(NumberFormatting.bytes(Double(connection.downstreamBytes))) down"
        if connection.reset { words += "; reset" }
        if let reason = connection.closeReason { words += " (\(reason))" }
        return words
    }
}
