/// The Hodges–Lehmann estimate of the shift between two samples, with its distribution-free
/// confidence interval: the pairing that goes with the Mann–Whitney U test.
///
/// The estimate is the median of the n₁·n₂ differences `x − y` (x from the first sample, y from the
/// second); the interval runs from the k-th smallest to the k-th largest difference, where k comes
/// from U's distribution at the confidence level (exact for small samples without ties, otherwise
/// from the normal approximation), as R's `wilcox.test(conf.int = TRUE)` computes it. The
/// differences are never materialised: an order statistic is found by bisection over values,
/// counting with two pointers over the sorted samples, so 5,000 × 5,000 samples need no 25 million
/// element array.
public struct HodgesLehmann: Sendable, Hashable {
    /// The median difference first − second.
    public var shift: Double
    /// The lower end of the confidence interval of the shift.
    public var lower: Double
    /// The upper end of the confidence interval of the shift.
    public var upper: Double
    /// The interval's nominal confidence, e.g. 0.99.
    public var confidence: Double

    /// The shift of `first` against `second` with a `confidence` interval (0 < confidence < 1).
    /// Precondition: neither sample is empty.
    public init(_ first: [Double], _ second: [Double], confidence: Double) {
        precondition(!first.isEmpty && !second.isEmpty, "a shift needs two non-empty samples")
        let differences = PairwiseDifferences(first, second)
        let total = first.count * second.count
        shift = total % 2 == 1
            ? differences.smallest(total / 2 + 1)
            : (differences.smallest(total / 2) + differences.smallest(total / 2 + 1)) / 2
        let k = Self.rank(first.count, second.count, hasTies: Ranks(first + second).tieGroups.isEmpty == false, confidence: confidence)
        lower = differences.smallest(k)
        upper = differences.smallest(total - k + 1)
        self.confidence = confidence
    }

    /// The rank k (1-based, at least 1) of the interval's lower end among the sorted differences.
    static func rank(_ n1: Int, _ n2: Int, hasTies: Bool, confidence: Double) -> Int {
        let tail = (1 - confidence) / 2
        let product = n1 * n2
        if !hasTies, n1 <= MannWhitneyU.exactLimit, n2 <= MannWhitneyU.exactLimit {
            // The largest k with P(U ≤ k − 1) ≤ tail: the interval [d(k), d(n₁n₂−k+1)].
            let distribution = UDistribution(n1, n2)
            var k = 0
            while k < product, distribution.probability(atMost: k) <= tail { k += 1 }
            return Swift.max(1, Swift.min(k, (product + 1) / 2))
        }
        let z = NormalDistribution.upperQuantile(tail)
        let spread = (Double(n1) * Double(n2) * Double(n1 + n2 + 1) / 12).squareRoot()
        let k = Int((Double(product) / 2 - z * spread).rounded(.down))
        return Swift.max(1, Swift.min(k, (product + 1) / 2))
    }
}

/// The multiset of differences x − y over two samples, queried by order statistic.
struct PairwiseDifferences {
    let xs: [Double]
    let ys: [Double]

    init(_ first: [Double], _ second: [Double]) {
        xs = first.sorted()
        ys = second.sorted()
    }

    /// How many differences are at most `t`.
    func count(atMost t: Double) -> Int {
        // x − y ≤ t ⇔ y ≥ x − t; as x grows, the first such y moves right.
        var index = 0, total = 0
        for x in xs {
            while index < ys.count, x - ys[index] > t { index += 1 }
            total += ys.count - index
        }
        return total
    }

    /// The smallest difference above `t`, or nil when none is.
    func smallest(above t: Double) -> Double? {
        // For each x the smallest difference above t pairs it with the largest y where x − y > t.
        var index = 0, best: Double?
        for x in xs {
            while index < ys.count, x - ys[index] > t { index += 1 }
            if index > 0 {
                let difference = x - ys[index - 1]
                if best.map({ difference < $0 }) ?? true { best = difference }
            }
        }
        return best
    }

    /// The k-th smallest difference, 1-based.
    func smallest(_ k: Int) -> Double {
        guard let firstX = xs.first, let lastX = xs.last, let firstY = ys.first, let lastY = ys.last else {
            preconditionFailure("no differences")
        }
        // Invariant: count(atMost: low) < k ≤ count(atMost: high).
        var low = (firstX - lastY) - 1
        var high = lastX - firstY
        if low >= firstX - lastY { low = -Double.greatestFiniteMagnitude }
        for _ in 0..<200 {
            let middle = low / 2 + high / 2
            if middle <= low || middle >= high { break }
            if count(atMost: middle) >= k { high = middle } else { low = middle }
        }
        // The answer lies in (low, high]; step over the few distinct values left.
        var candidate = smallest(above: low) ?? high
        while count(atMost: candidate) < k, let next = smallest(above: candidate) {
            candidate = next
        }
        return candidate
    }
}
