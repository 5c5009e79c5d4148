/// Disjoint, sorted stretches of time in seconds (half-open): when a device was connected, when
/// its link delivered. The promise checks judge over them, whoever produced them.
public struct Stretches: Sendable, Hashable {
    /// The stretches, sorted and merged where they touch.
    public private(set) var spans: [Range<Double>] = []

    /// `spans` sorted and merged (empty ones dropped).
    public init(_ spans: [Range<Double>] = []) {
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) where !span.isEmpty {
            if let last = self.spans.last, span.lowerBound <= last.upperBound {
                self.spans[self.spans.count - 1] = last.lowerBound ..< max(last.upperBound, span.upperBound)
            } else {
                self.spans.append(span)
            }
        }
    }

    /// These stretches less `other`'s.
    public func subtracting(_ other: Stretches) -> Stretches {
        var result: [Range<Double>] = []
        for span in spans {
            var start = span.lowerBound
            for cut in other.spans where cut.upperBound > start && cut.lowerBound < span.upperBound {
                if cut.lowerBound > start { result.append(start ..< cut.lowerBound) }
                start = max(start, cut.upperBound)
            }
            if start < span.upperBound { result.append(start ..< span.upperBound) }
        }
        return Stretches(result)
    }

    /// Whether `window` is covered without a gap.
    public func covers(_ window: Range<Double>) -> Bool {
        spans.contains { $0.lowerBound <= window.lowerBound && $0.upperBound >= window.upperBound }
    }

    /// The instant at which `amount` seconds of coverage have accumulated from `start` on; nil
    /// if they do not before `end`.
    public func instant(accumulating amount: Double, from start: Double, before end: Double) -> Double? {
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

    /// Seconds of `window` covered.
    public func covered(_ window: Range<Double>) -> Double {
        spans.reduce(0) { total, span in
            total + max(0, min(span.upperBound, window.upperBound) - max(span.lowerBound, window.lowerBound))
        }
    }
}
