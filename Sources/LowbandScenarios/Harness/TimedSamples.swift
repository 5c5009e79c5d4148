import LowbandRunReport

/// Latency samples with the time each began, so the report can plot them over the run.
struct TimedSamples {
    /// Milliseconds, in the order measured.
    private(set) var values: [Double] = []
    /// Seconds from the start of the run, parallel to ``values``.
    private(set) var startSeconds: [Double] = []

    /// Records an interval of `delay` that ended at `end` (the run's clock).
    mutating func append(_ delay: Duration, endingAt end: Duration) {
        values.append(delay.milliseconds)
        startSeconds.append((end - delay).seconds)
    }

    /// The samples as a metric in ms.
    func metric(named name: String) -> RunMetric {
        RunMetric(name: name, unit: "ms", values: values, startSeconds: startSeconds)
    }
}
