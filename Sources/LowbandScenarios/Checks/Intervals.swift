/// Disjoint, sorted time intervals (half-open), for "while the session was up and the network
/// delivered".
struct Intervals {
    private(set) var spans: [Range<Duration>] = []

    init(_ spans: [Range<Duration>] = []) {
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) where !span.isEmpty {
            if let last = self.spans.last, span.lowerBound <= last.upperBound {
                self.spans[self.spans.count - 1] = last.lowerBound ..< max(last.upperBound, span.upperBound)
            } else {
                self.spans.append(span)
            }
        }
    }

    /// These intervals less `other`'s.
    func subtracting(_ other: Intervals) -> Intervals {
        var result: [Range<Duration>] = []
        for span in spans {
            var start = span.lowerBound
            for cut in other.spans where cut.upperBound > start && cut.lowerBound < span.upperBound {
                if cut.lowerBound > start { result.append(start ..< cut.lowerBound) }
                start = max(start, cut.upperBound)
            }
            if start < span.upperBound { result.append(start ..< span.upperBound) }
        }
        return Intervals(result)
    }

    /// How much of `window` the intervals cover.
    func covered(_ window: Range<Duration>) -> Duration {
        var total: Duration = .zero
        for span in spans where span.upperBound > window.lowerBound {
            if span.lowerBound >= window.upperBound { break }
            total += min(span.upperBound, window.upperBound) - max(span.lowerBound, window.lowerBound)
        }
        return total
    }

    /// Whether `window` is covered without a gap.
    func covers(_ window: Range<Duration>) -> Bool {
        spans.contains { $0.lowerBound <= window.lowerBound && $0.upperBound >= window.upperBound }
    }

    /// The instant at which `amount` of coverage has accumulated from `start` on; nil if it
    /// never does before `end`.
    func instant(accumulating amount: Duration, from start: Duration, before end: Duration) -> Duration? {
        var left = amount
        for span in spans where span.upperBound > start {
            let from = max(span.lowerBound, start)
            if from >= end { break }
            let to = min(span.upperBound, end)
            if to - from >= left { return from + left }
            left -= to - from
        }
        return nil
    }
}
