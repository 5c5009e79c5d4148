package import LowbandRunReport

/// What a run produced: its record and its trace.
package struct ScenarioOutput: Sendable {
    /// The run's figures, checks and verdict, as written to the report.
    package var record: RunRecord
    /// JSON Lines, without newlines: the network's decisions (the shaper's trace, times moved to
    /// the run's clock) and the client events, one object per line, keys always present in a
    /// fixed order, `t_ns` first. See docs/RUN.md.
    package var trace: [String]
    /// Every delivered message's time split into stages, per receiver, in message order.
    package var breakdowns: [MessageBreakdown]
    /// With faults: every scheduled fault by number (`fault 3: app kill of client 1 for 24.9 s,
    /// 35.164–60.030 s`), as played, or why it was not; the numbers `--without-faults` takes
    /// and a verdict's `cause:` names. Written as faults.txt.
    package var faults: [String] = []

    /// An output; `breakdowns` defaults to none.
    package init(record: RunRecord, trace: [String], breakdowns: [MessageBreakdown] = []) {
        self.record = record
        self.trace = trace
        self.breakdowns = breakdowns
    }

    /// The trace as a file's text: every line followed by a newline.
    package var traceText: String {
        var text = ""
        text.reserveCapacity(trace.count * 120)
        for line in trace {
            text += line
            text += "\n"
        }
        return text
    }
}
