/// The tables of the report: every figure of one profile, and the runs side by side.
enum SummaryTable {
    /// One row per metric of `record`: its percentiles in the metric's own unit, and for the main
    /// latency metric, when the record knows its floor, the floor, the median the profile implies,
    /// p50 over that median and the samples below the floor.
    static func profile(_ record: RunRecord, latencyMetric: String?) -> String {
        guard !record.metrics.isEmpty else {
            return "<p class=\"no-data\">No figures were recorded for \(HTMLEscaping.escape(record.profile)).</p>"
        }
        let floor = record.floorMilliseconds.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        var header = ["metric", "unit", "p50", "p90", "p99", "max", "samples"]
        let median = record.medianMilliseconds.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        if floor != nil { header += ["floor", "median", "p50 / median", "below floor"] }
        var rows: [[String]] = []
        for metric in record.metrics {
            let samples = LatencyMetricChoice.finiteSamples(metric)
            var row = [metric.name, metric.unit]
            if let summary = RunMetric(name: metric.name, unit: metric.unit, values: samples).summary {
                row += [summary.p50, summary.p90, summary.p99, summary.max].map { NumberFormatting.value($0, unit: metric.unit) }
                row.append(NumberFormatting.number(Double(summary.samples)))
                if let floor {
                    if metric.name == latencyMetric, metric.unit == "ms" {
                        row += [
                            NumberFormatting.duration(milliseconds: floor), median.map { NumberFormatting.duration(milliseconds: $0) } ?? "",
                            median.map { NumberFormatting.number(summary.p50 / $0) + "×" } ?? "",
                            record.samplesBelowFloor.map { NumberFormatting.number(Double($0)) } ?? "",
                        ]
                    } else {
                        row += ["", "", "", ""]
                    }
                }
            } else {
                row += ["no samples", "", "", "", "0"] + (floor == nil ? [] : ["", "", "", ""])
            }
            rows.append(row)
        }
        return table(header: header, rows: rows, caption: "All figures of \(record.profile)", cssClass: "summary")
    }

    /// One row per record: how it ran and its main latency figure, so profiles compare in one look.
    static func runs(_ records: [RunRecord], latencyMetric: String?) -> String {
        var header = ["profile", "status", "seed", "clients", "clock", "duration"]
        if let latencyMetric {
            let name = LatencyMetricChoice.readable(latencyMetric)
            header += ["\(name) p50", "p90", "p99", "floor", "median", "p50 / median"]
        }
        let rows = records.map { record -> [String] in
            var row = [
                record.profile, record.partial ? "PARTIAL" : "complete", String(record.seed),
                String(record.clients), record.virtualTime ? "virtual" : "wall",
                NumberFormatting.duration(seconds: record.durationSeconds) + (record.drain.map { " + \(NumberFormatting.duration(seconds: $0.seconds)) drain" } ?? ""),
            ]
            guard let latencyMetric else { return row }
            let summary = record.metric(named: latencyMetric).flatMap { RunMetric(name: $0.name, unit: $0.unit, values: LatencyMetricChoice.finiteSamples($0)).summary }
            let floor = record.floorMilliseconds.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
            let median = record.medianMilliseconds.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
            if let summary {
                row += [summary.p50, summary.p90, summary.p99].map { NumberFormatting.duration(milliseconds: $0) }
            } else {
                row += ["no samples", "", ""]
            }
            row.append(floor.map { NumberFormatting.duration(milliseconds: $0) } ?? "")
            row.append(median.map { NumberFormatting.duration(milliseconds: $0) } ?? "")
            row.append(summary.flatMap { summary in median.map { NumberFormatting.number(summary.p50 / $0) + "×" } } ?? "")
            return row
        }
        return table(header: header, rows: rows, caption: "Runs", cssClass: "runs")
    }

    /// An HTML table; every cell is escaped, every column after the first `textColumns`
    /// right-aligned.
    static func table(header: [String], rows: [[String]], caption: String, cssClass: String, textColumns: Int = 2) -> String {
        var html = "<table class=\"\(cssClass)\"><caption>\(HTMLEscaping.escape(caption))</caption><thead><tr>"
        for (index, title) in header.enumerated() {
            html += "<th scope=\"col\"\(index >= textColumns ? " class=\"num\"" : "")>\(HTMLEscaping.escape(title))</th>"
        }
        html += "</tr></thead><tbody>"
        for row in rows {
            html += "<tr>"
            for (index, cell) in row.enumerated() {
                let classes = [index >= textColumns ? "num" : nil, cell == "PARTIAL" ? "partial" : nil].compactMap(\.self)
                let classAttribute = classes.isEmpty ? "" : " class=\"\(classes.joined(separator: " "))\""
                html += index == 0 ? "<th scope=\"row\">\(HTMLEscaping.escape(cell))</th>" : "<td\(classAttribute)>\(HTMLEscaping.escape(cell))</td>"
            }
            html += "</tr>"
        }
        return html + "</tbody></table>"
    }
}
