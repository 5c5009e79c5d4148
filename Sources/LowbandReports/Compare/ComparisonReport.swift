import Foundation

/// The renderings of a ``BenchmarkComparison``: the plain-text table `lowband compare` prints and
/// the Markdown summary for a pull-request comment (`--format markdown`).
public enum ComparisonReport {
    /// How many missing metrics the failure line names before it says "and N more".
    static let namedMissingLimit = 10

    /// The plain-text report: the table, regressions first (only the changes with `changesOnly`),
    /// one line per metric this machine did not measure, the missing metrics, the timing rows
    /// without samples, and the summary line that starts with `PASS` or `FAIL`.
    public static func text(_ comparison: BenchmarkComparison, changesOnly: Bool = false) -> String {
        let shown = comparison.entriesByVerdict.filter { $0.verdict != .notMeasured && (!changesOnly || $0.verdict.isChange) }
        var text = ""
        if changesOnly, shown.isEmpty {
            text += "No metric changed beyond its threshold.\n"
        } else {
            var table = TextTable(
                headers: ["benchmark", "metric", "unit", "baseline", "current", "change", "verdict"],
                alignments: [.left, .left, .left, .right, .right, .right, .left]
            )
            table.rows = shown.map(cells)
            text += table.rendered()
        }
        text += "\n" + notes(comparison, markdown: false)
        let hidden = comparison.entries.count - shown.count - comparison.count(.notMeasured)
        if changesOnly, hidden > 0 {
            text += "\(hidden) unchanged or ungated metric\(hidden == 1 ? "" : "s") not shown (--changes-only)\n"
        }
        return text + summary(comparison) + "\n"
    }

    /// The Markdown report for a pull-request comment: the verdict line first, then the
    /// regressions and other changes in a table, the unchanged rows folded in a `<details>` block,
    /// and the notes (not measured, missing, timing rows without samples).
    public static func markdown(_ comparison: BenchmarkComparison) -> String {
        let verdict = comparison.fails ? "❌ **FAIL**" : "✅ **PASS**"
        var text = "### Benchmark comparison: \(verdict)\n\n"
        let rows = comparison.entriesByVerdict.filter { $0.verdict != .notMeasured }
        let changes = rows.filter(\.verdict.isChange)
        let rest = rows.filter { !$0.verdict.isChange }
        let header = "| benchmark | metric | unit | baseline | current | change | verdict |\n|---|---|---|--:|--:|--:|---|\n"
        func table(_ entries: [BenchmarkComparison.Entry]) -> String {
            header + entries.map { entry in
                var fields = cells(entry).map(escaped)
                if entry.verdict == .regression { fields[6] = "**\(fields[6])**" }
                return "| " + fields.joined(separator: " | ") + " |\n"
            }.joined()
        }
        text += changes.isEmpty ? "No metric changed beyond its threshold.\n" : table(changes)
        if !rest.isEmpty {
            text += "\n<details><summary>\(rest.count) unchanged or ungated metric\(rest.count == 1 ? "" : "s")</summary>\n\n" + table(rest) + "\n</details>\n"
        }
        let notes = notes(comparison, markdown: true)
        if !notes.isEmpty { text += "\n" + notes }
        return text + "\n`" + summary(comparison) + "`\n"
    }

    /// `PASS: 58 metrics: 0 regression, …` with the statistic, thresholds and test that applied.
    public static func summary(_ comparison: BenchmarkComparison) -> String {
        let policy = comparison.policy
        let counts = BenchmarkComparison.Verdict.allCases.map { "\(comparison.count($0)) \($0.rawValue.lowercased())" }
        let ratioGate = policy.ratioThreshold.map { ", ratio threshold \(Percentage(fraction: $0))" } ?? ""
        let timeGate = policy.timeThreshold.map { "time threshold \(Percentage(fraction: $0))" } ?? "times not gated"
        let tested = comparison.entries.contains { $0.test != nil }
        let timePart = tested
            ? ", times by Mann-Whitney U at α \(Percentage(fraction: policy.significance)) with min effect \(Percentage(fraction: policy.minimumEffect))"
                + (comparison.timingWithoutSamples > 0 ? ", without samples \(timeGate)" : "")
            : ", \(timeGate)"
        let counted = comparison.entries.contains { $0.countLimit != nil }
        let countGate = !counted ? "" : policy.instructionThreshold.map { ", instruction counts \(Percentage(fraction: $0))" }
            ?? ", instruction counts by their spread (at least \(Percentage(fraction: InstructionGate.floor)))"
        let thresholdPart = "(\(policy.statistic.rawValue), threshold \(Percentage(fraction: policy.threshold))\(ratioGate)\(countGate)"
        return "\(comparison.fails ? "FAIL" : "PASS"): \(comparison.entries.count) metrics: \(counts.joined(separator: ", ")) \(thresholdPart)\(timePart))"
    }

    /// A change as a signed percentage precise enough to read against a fine threshold:
    /// `+12.5%`, `+0.26%`, `-140%`, `+inf%`.
    public static func percent(_ fraction: Double) -> String {
        if fraction.isInfinite { return fraction > 0 ? "+inf%" : "-inf%" }
        let percent = fraction * 100
        let decimals = abs(percent) >= 100 ? 0 : (abs(percent) >= 1 ? 1 : 2)
        let scale = pow(10, Double(decimals))
        let value = (percent * scale).rounded() / scale
        var text = String(format: "%.\(decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        if text == "-0" { text = "0" }
        return (value > 0 ? "+" : "") + text + "%"
    }

    /// The table cells of `entry`; a tested row's change is the Hodges–Lehmann shift with its
    /// interval and the p-value: `+6.1% [+5.2%, +7.0%] p=3e-12`.
    static func cells(_ entry: BenchmarkComparison.Entry) -> [String] {
        var change = entry.change.map { percent($0) } ?? "-"
        if let test = entry.test {
            change += " [\(percent(test.lower)), \(percent(test.upper))] p=\(pValue(test.pValue))"
        }
        if let limit = entry.countLimit {
            change += " (limit \(Percentage(fraction: limit)))"
        }
        return [
            "\(entry.key.suite)/\(entry.key.benchmark)", entry.key.metric, entry.unit,
            entry.baseline.map(TextTable.number) ?? "-", entry.current.map(TextTable.number) ?? "-",
            change, entry.verdict.rawValue,
        ]
    }

    /// A p-value in two significant digits: `0.43`, `0.0012`, `3.1e-12`.
    static func pValue(_ p: Double) -> String {
        p >= 0.001 ? String(format: "%.2g", p) : String(format: "%.1e", p)
    }

    /// The lines after the table: metrics not measured, missing metrics, timing rows without samples.
    static func notes(_ comparison: BenchmarkComparison, markdown: Bool) -> String {
        let bullet = markdown ? "- " : ""
        var text = ""
        for metric in comparison.unmeasured {
            text += bullet + metric.line + (comparison.policy.requireAll && metric.rows > 0 ? " (fails the gate: --require-all)" : "") + "\n"
        }
        let missing = comparison.entries.filter { $0.verdict == .missing }
        if !missing.isEmpty {
            var names = missing.prefix(namedMissingLimit).map { "\($0.key.suite)/\($0.key.benchmark) \($0.key.metric)" }.joined(separator: ", ")
            if missing.count > namedMissingLimit { names += " and \(missing.count - namedMissingLimit) more" }
            let what = "\(missing.count) baseline metric\(missing.count == 1 ? " is" : "s are") missing from the current report: \(names)"
            text += bullet + (comparison.policy.allowMissing
                ? "\(what) (allowed by --allow-missing)\n"
                : "\(what); pass --allow-missing if they were removed on purpose\n")
        }
        let untested = comparison.timingWithoutSamples
        if untested > 0 {
            let rule = comparison.policy.timeThreshold.map { "--time-threshold \(Percentage(fraction: $0))" } ?? "shown as info, not gated"
            text += bullet + "\(untested) timing row\(untested == 1 ? " has" : "s have") no samples in one of the reports: compared by threshold (\(rule)), not by the statistical test\n"
        }
        return text
    }

    /// `text` with the characters that would break a Markdown table cell escaped.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|")
    }
}
