import Foundation
package import LowbandReports
package import LowbandRunReport

/// What `lowband run` writes into its output folder, and the tables it prints: the run's
/// outputs as a library, so the command only parses options and calls it.
package enum RunOutputs {
    /// The rows of `results.csv`: one per metric with samples (suite `run.<scenario>`, benchmark
    /// `<profile>`), `invariant.<name>` (violations, count) and `invariant.<name>.cases` (cases
    /// checked; 0 is "not checked") per promise, plus `floor` and `median` (ms), `p50_vs_median`
    /// (x) and `below_floor` (count) when the scenario has a floor, and the ratios of a profile
    /// run with and without the wire dictionary (``DictionaryComparison``).
    package static func rows(for records: [RunRecord], environment: RunEnvironment) -> [BenchmarkRow] {
        var rows: [BenchmarkRow] = []
        for record in records {
            let suite = "run.\(record.scenario)"
            for metric in record.metrics where !metric.values.isEmpty {
                rows.append(BenchmarkRow(suite: suite, benchmark: record.profile, metric: metric.name, unit: metric.unit, samples: metric.values, environment: environment))
            }
            for check in record.invariants {
                rows.append(BenchmarkRow(suite: suite, benchmark: record.profile, metric: "invariant.\(check.name)", unit: "count", samples: [Double(check.violations)], environment: environment))
                rows.append(BenchmarkRow(suite: suite, benchmark: record.profile, metric: "invariant.\(check.name).cases", unit: "cases", samples: [Double(check.checked)], environment: environment))
            }
            for stage in record.stages where !stage.values.isEmpty {
                rows.append(BenchmarkRow(suite: suite, benchmark: record.profile, metric: stage.name, unit: stage.unit, samples: stage.values, environment: environment))
            }
            if let floor = record.floorMilliseconds {
                rows.append(BenchmarkRow(suite: suite, benchmark: record.profile, metric: "floor", unit: "ms", samples: [floor], environment: environment))
            }
            if let median = record.medianMilliseconds {
                rows.append(BenchmarkRow(suite: suite, benchmark: record.profile, metric: "median", unit: "ms", samples: [median], environment: environment))
                if median > 0, let p50 = record.metrics.first(where: { $0.unit == "ms" })?.summary?.p50 {
                    rows.append(BenchmarkRow(suite: suite, benchmark: record.profile, metric: "p50_vs_median", unit: "x", samples: [p50 / median], environment: environment))
                }
            }
            if let below = record.samplesBelowFloor {
                rows.append(BenchmarkRow(suite: suite, benchmark: record.profile, metric: "below_floor", unit: "count", samples: [Double(below)], environment: environment))
            }
        }
        return rows + DictionaryComparison.rows(for: records, environment: environment)
    }

    /// Writes results.csv, the trace(s), record.json and report.html into `directory`.
    /// One profile: `trace.jsonl`; several: `trace-<profile>.jsonl` each.
    package static func write(_ outputs: [ScenarioOutput], to directory: String, environment: RunEnvironment) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var written: [String] = []
        let records = outputs.map(\.record)
        // record.json's encoding is the largest part of the writing (a 100-client crowd hour's
        // record is 13 MB); it runs on another core while the other files are made, written
        // directly rather than through JSONEncoder (the same bytes, RecordJSONTests).
        let recordJSON = BackgroundWork {
            Data(try RunRecord.prettyJSON(records))
        }
        // The report and the breakdowns are rendered beside it, each on a thread of its own: the
        // files are independent, and only their order in `written` is fixed.
        let provenance = ReportProvenance(
            commit: environment.commit, commitNote: environment.commitNote, host: environment.host,
            swiftVersion: environment.swiftVersion, timestamp: environment.timestamp)
        let report = BackgroundWork {
            Data(RunReportHTML.render(records: records, provenance: provenance).utf8)
        }
        let breakdownTables = outputs.map { output in
            let breakdowns = output.breakdowns
            return BackgroundWork { Data(BreakdownTable.renderUTF8(breakdowns)) }
        }
        let csv = "\(directory)/results.csv"
        try BenchmarkCSV.write(rows: rows(for: records, environment: environment), to: csv)
        written.append(csv)
        for output in outputs {
            let name = outputs.count == 1 ? "trace.jsonl" : "trace-\(fileSafe(output.record.profile)).jsonl"
            let path = "\(directory)/\(name)"
            // The text's own bytes, not a copy of them (27 MB for the 100-client crowd hour).
            var text = output.traceText
            try text.withUTF8 { bytes in
                guard let base = bytes.baseAddress else { return try Data().write(to: URL(fileURLWithPath: path)) }
                try Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none).write(to: URL(fileURLWithPath: path))
            }
            written.append(path)
        }
        for output in outputs where !output.faults.isEmpty {
            let name = outputs.count == 1 ? "faults.txt" : "faults-\(fileSafe(output.record.profile)).txt"
            let path = "\(directory)/\(name)"
            try Data((output.faults.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
            written.append(path)
        }
        for (output, table) in zip(outputs, breakdownTables) {
            let name = outputs.count == 1 ? "breakdown.csv" : "breakdown-\(fileSafe(output.record.profile)).csv"
            let path = "\(directory)/\(name)"
            try table.value().write(to: URL(fileURLWithPath: path))
            written.append(path)
        }
        let reportPath = "\(directory)/report.html"
        let recordPath = "\(directory)/record.json"
        try recordJSON.value().write(to: URL(fileURLWithPath: recordPath))
        written.append(recordPath)
        try report.value().write(to: URL(fileURLWithPath: reportPath))
        written.append(reportPath)
        return written
    }

    /// A profile name (or file path) usable in a file name.
    package static func fileSafe(_ text: String) -> String {
        let name = text.split(separator: "/").last.map(String.init) ?? text
        let base = name.hasSuffix(".yaml") ? String(name.dropLast(5)) : name.hasSuffix(".yml") ? String(name.dropLast(4)) : name
        return String(base.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
    }

    /// One row per metric: p50 p90 p99 max samples.
    package static func summary(_ record: RunRecord) -> String {
        var table = TextTable(
            headers: ["metric", "unit", "p50", "p90", "p99", "max", "samples"],
            alignments: [.left, .left, .right, .right, .right, .right, .right])
        for metric in record.metrics {
            guard let summary = metric.summary else {
                table.rows.append([metric.name, metric.unit, "-", "-", "-", "-", "0"])
                continue
            }
            table.rows.append([metric.name, metric.unit] + [summary.p50, summary.p90, summary.p99, summary.max].map(number) + [String(summary.samples)])
        }
        if let floor = record.floorMilliseconds {
            table.rows.append(["floor", "ms", number(floor), "", "", "", "1"])
        }
        if let median = record.medianMilliseconds {
            table.rows.append(["median", "ms", number(median), "", "", "", "1"])
        }
        if let below = record.samplesBelowFloor {
            table.rows.append(["below_floor", "count", String(below), "", "", "", "1"])
        }
        return table.rendered()
    }

    /// The promises checked and every violation (at most `limit` printed), or nothing when the
    /// run checked none.
    package static func invariants(_ record: RunRecord, limit: Int = 10) -> String {
        guard !record.invariants.isEmpty else { return "" }
        let broken = record.invariants.filter { $0.violations > 0 }
        var text = ""
        if let settle = record.settleSeconds, let liveness = record.livenessSeconds {
            text += String(format: "bounds: settle %.1f s, liveness %.1f s (docs/EXPLORE.md)\n", settle, liveness)
        }
        if let drain = record.drain {
            text += "drain: after the traffic, \(drain.words) (docs/RUN.md, \"The drain\")\n"
        }
        let verdicts = record.invariants.map { "\($0.name) \($0.verdict)" }.joined(separator: ", ")
        text += broken.isEmpty
            ? "invariants: \(record.invariants.tally) — \(verdicts)\n"
            : "INVARIANTS BROKEN: \(broken.map { "\($0.name) ×\($0.violations)" }.joined(separator: ", ")) (\(record.invariants.tally)) — \(verdicts)\n"
        for violation in record.violations.prefix(limit) {
            text += "  \(violation.summary)\n"
        }
        let total = broken.reduce(0) { $0 + $1.violations }
        if total > limit { text += "  … \(total - limit) more in record.json and report.html\n" }
        return text
    }

    /// Where the time of delivered messages went: one row per stage that took any time.
    package static func stages(_ record: RunRecord) -> String {
        guard let total = record.stages.first(where: { $0.name == "stage.total" })?.summary else { return "" }
        var table = TextTable(
            headers: ["where the time went (\(total.samples) deliveries)", "p50 ms", "p90 ms", "p99 ms", "max ms"],
            alignments: [.left, .right, .right, .right, .right])
        for metric in record.stages {
            guard let summary = metric.summary, summary.max > 0 else { continue }
            let name = String(metric.name.dropFirst("stage.".count))
            let label = LatencyStage(rawValue: name)?.label ?? name
            table.rows.append([label] + [summary.p50, summary.p90, summary.p99, summary.max].map(number))
        }
        return table.rendered()
    }

    /// One row per metric, one column per profile: p50 (and p99 when there are several samples).
    package static func comparison(_ records: [RunRecord]) -> String {
        var names: [(String, String)] = []
        for record in records {
            for metric in record.metrics where !names.contains(where: { $0.0 == metric.name }) {
                names.append((metric.name, metric.unit))
            }
        }
        var table = TextTable(
            headers: ["metric", "unit"] + records.map(\.profile),
            alignments: [.left, .left] + records.map { _ in .right })
        for (name, unit) in names {
            table.rows.append([name, unit] + records.map { record in
                guard let summary = record.metric(named: name)?.summary else { return "-" }
                return summary.samples > 1 ? "\(number(summary.p50)) (p99 \(number(summary.p99)))" : number(summary.p50)
            })
        }
        if records.contains(where: { $0.floorMilliseconds != nil }) {
            table.rows.append(["floor", "ms"] + records.map { $0.floorMilliseconds.map(number) ?? "-" })
        }
        if records.contains(where: { $0.medianMilliseconds != nil }) {
            table.rows.append(["median", "ms"] + records.map { $0.medianMilliseconds.map(number) ?? "-" })
        }
        return table.rendered()
    }

    /// Milliseconds and counts for reading: whole numbers as such, else one decimal.
    /// Whole numbers as they are, others to one decimal, and those under 1 to two significant
    /// digits: 0.04 J per message would read 0.0 to one decimal.
    package static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        if abs(value) < 1 { return String(format: "%.2g", value) }
        return String(format: "%.1f", value)
    }
}
