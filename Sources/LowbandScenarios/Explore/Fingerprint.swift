import LowbandBasics
import LowbandRunReport

/// A hash of what a run decided and found: every trace line, then the record's figures,
/// timeline and checks. Two runs of one seed must have the same (`--check-determinism`).
enum Fingerprint {
    static func of(_ output: ScenarioOutput) -> String {
        var hash = FNV1a()
        for line in output.trace {
            hash.add(line)
            hash.add("\n")
        }
        hash.add(summary(output.record))
        return hash.value.hexDigits
    }

    /// The first trace line that differs between two runs, or the record part that does.
    static func firstDifference(_ a: ScenarioOutput, _ b: ScenarioOutput) -> String {
        for (index, (left, right)) in zip(a.trace, b.trace).enumerated() where left != right {
            return "trace line \(index + 1): \(left)  vs  \(right)"
        }
        if a.trace.count != b.trace.count {
            return "the traces have \(a.trace.count) and \(b.trace.count) lines"
        }
        return "the traces agree; the records differ: \(summary(a.record))  vs  \(summary(b.record))"
    }

    private static func summary(_ record: RunRecord) -> String {
        var text = ""
        for metric in record.metrics { text += "\(metric.name)=\(metric.values);" }
        for check in record.invariants { text += "\(check.name):\(check.checked)/\(check.violations);" }
        for violation in record.violations { text += "\(violation.invariant)@\(violation.seconds):\(violation.detail);" }
        for event in record.timeline { text += "\(event.seconds) \(event.kind.rawValue) \(event.client ?? -1) \(event.detail);" }
        return text
    }
}
