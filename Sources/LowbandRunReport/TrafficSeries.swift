import LowbandBasics
/// A run's traffic buckets as rates: each bucket's width inferred from the next bucket's start,
/// so irregular buckets are drawn at their true throughput.
struct TrafficSeries: Sendable, Hashable {
    struct Bucket: Sendable, Hashable {
        var start: Double
        var end: Double
        var upBytes: Double
        var downBytes: Double

        var upRate: Double { upBytes / (end - start) }
        var downRate: Double { downBytes / (end - start) }
    }

    /// Sorted by start, each with a positive width; buckets at a non-finite time are dropped and
    /// negative byte counts count as zero.
    let buckets: [Bucket]
    /// The usual bucket width, in seconds (the median of the gaps between starts).
    let typicalWidth: Double

    init(_ record: RunRecord) {
        var sorted: [TrafficBucket] = []
        // Buckets sharing a start are one bucket counted in pieces.
        for bucket in record.traffic.filter({ $0.startSeconds.isFinite }).sorted(by: { $0.startSeconds < $1.startSeconds }) {
            if let last = sorted.last, last.startSeconds == bucket.startSeconds {
                sorted[sorted.count - 1].upBytes = last.upBytes &+ Swift.max(bucket.upBytes, 0)
                sorted[sorted.count - 1].downBytes = last.downBytes &+ Swift.max(bucket.downBytes, 0)
            } else {
                sorted.append(bucket)
            }
        }
        let gaps = zip(sorted, sorted.dropFirst()).map { $1.startSeconds - $0.startSeconds }.filter { $0 > 0 }.sorted()
        let fallback: Double = {
            if let last = sorted.last, record.endSeconds.isFinite, record.endSeconds > last.startSeconds {
                return record.endSeconds - last.startSeconds
            }
            return 1
        }()
        // The median gap, nearest rank as every figure of the report.
        let typical = Percentile.of(sorted: gaps, 0.5) ?? fallback
        typicalWidth = typical
        var buckets: [Bucket] = []
        for (index, bucket) in sorted.enumerated() {
            let next = index + 1 < sorted.count ? sorted[index + 1].startSeconds : nil
            let width = next.map { $0 - bucket.startSeconds }.flatMap { $0 > 0 ? Swift.min($0, typical) : nil } ?? typical
            let start = Swift.max(bucket.startSeconds, 0)
            buckets.append(Bucket(start: start, end: start + width, upBytes: Double(Swift.max(bucket.upBytes, 0)), downBytes: Double(Swift.max(bucket.downBytes, 0))))
        }
        self.buckets = buckets
    }

    var totalUp: Double { buckets.reduce(0) { $0 + $1.upBytes } }
    var totalDown: Double { buckets.reduce(0) { $0 + $1.downBytes } }
    var peakRate: Double { buckets.reduce(0) { Swift.max($0, $1.upRate, $1.downRate) } }
}
