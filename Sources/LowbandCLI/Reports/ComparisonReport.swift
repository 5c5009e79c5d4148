import Foundation

extension CompareCommand {
    /// How many missing metrics the failure line names before it says "and N more".
    static let namedMissingLimit = 10

    /// What `lowband compare` prints: the table, regressions first (only the changes with
    /// `changesOnly`), one line per metric this machine did not measure, the missing metrics, and
    /// the summary line that starts with `PASS` or `FAIL`.
    public static func report(_ comparison: BenchmarkComparison, changesOnly: Bool = false) -> String {
        let shown = comparison.entriesByVerdict.filter { $0.verdict != .notMeasured && (!changesOnly || $0.verdict.isChange) }
        var text = ""
        if changesOnly, shown.isEmpty {
            text += "No metric changed beyond its threshold.\n"
        } else {
            var table = TextTable(
                headers: ["benchmark", "metric", "unit", "baseline", "current", "change", "verdict"],
                alignments: [.left, .left, .left, .right, .right, .right, .left]
            )
            for entry in shown {
                table.rows.append([
                    "\(entry.key.suite)/\(entry.key.benchmark)", entry.key.metric, entry.unit,
                    entry.baseline.map(TextTable.number) ?? "-", entry.current.map(TextTable.number) ?? "-",
                    entry.change.map { percent($0) } ?? "-", entry.verdict.rawValue,
                ])
            }
            text += table.rendered()
        }
        text += "\n"
        for metric in comparison.unmeasured {
            text += metric.line + "\n"
        }
        let missing = comparison.entries.filter { $0.verdict == .missing }
        if !missing.isEmpty {
            var names = missing.prefix(namedMissingLimit).map { "\($0.key.suite)/\($0.key.benchmark) \($0.key.metric)" }.joined(separator: ", ")
            if missing.count > namedMissingLimit { names += " and \(missing.count - namedMissingLimit) more" }
            let what = "\(missing.count) baseline metric\(missing.count == 1 ? " is" : "s are") missing from the current report: \(names)"
            text += comparison.policy.allowMissing
                ? "\(what) (allowed by --allow-missing)\n"
                : "\(what); pass --allow-missing if they were removed on purpose\n"
        }
        let hidden = comparison.entries.count - shown.count - comparison.count(.notMeasured)
        if changesOnly, hidden > 0 {
            text += "\(hidden) unchanged or ungated metric\(hidden == 1 ? "" : "s") not shown (--changes-only)\n"
        }
        return text + summary(comparison) + "\n"
    }

    /// `PASS: 58 metrics: 0 regression, …` with the statistic and thresholds that applied.
    static func summary(_ comparison: BenchmarkComparison) -> String {
        let policy = comparison.policy
        let counts = BenchmarkComparison.Verdict.allCases.map { "\(comparison.count($0)) \($0.rawValue.lowercased())" }
        let ratioGate = policy.ratioThreshold.map { ", ratio threshold \(Percentage(fraction: $0))" } ?? ""
        let timeGate = policy.timeThreshold.map { "time threshold \(Percentage(fraction: $0))" } ?? "times not gated"
        return "\(comparison.fails ? "FAIL" : "PASS"): \(comparison.entries.count) metrics: \(counts.joined(separator: ", ")) "
            + "(\(policy.statistic.rawValue), threshold \(Percentage(fraction: policy.threshold))\(ratioGate), \(timeGate))"
    }

    /// A change as a signed percentage precise enough to read against a fine threshold:
    /// `+12.5%`, `+0.26%`, `-140%`, `+inf%`.
    package static func percent(_ fraction: Double) -> String {
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
}
