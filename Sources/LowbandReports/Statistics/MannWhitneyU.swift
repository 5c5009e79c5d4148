import Foundation

/// The Mann–Whitney U test (Wilcoxon rank-sum) of two independent samples, two-sided.
///
/// It asks whether one sample tends to hold larger values than the other without assuming any
/// distribution, which suits benchmark timings: skewed, with a long tail. The p-value is
///   - **exact** (the distribution of U counted over every arrangement) when neither sample has more
///     than ``exactLimit`` values and no value occurs twice, as scipy's `method="exact"` computes it;
///   - otherwise from the **normal approximation** with the tie correction of the variance and a
///     continuity correction of 0.5, as scipy's `method="asymptotic"` (`use_continuity=True`).
/// `LowbandReportsTests` checks both against scipy.stats.mannwhitneyu.
public struct MannWhitneyU: Sendable, Hashable {
    /// How the p-value was computed.
    public enum Method: String, Sendable, Hashable {
        /// Counted over every arrangement of the two samples (no ties, neither larger than
        /// ``MannWhitneyU/exactLimit``).
        case exact
        /// The normal approximation with the tie and continuity corrections.
        case normal
    }

    /// The largest sample size for which the exact distribution is used (when there are no ties).
    public static let exactLimit = 50

    /// U of the first sample: the number of pairs (x, y) with x > y, ties counting one half.
    public var u: Double
    /// The two-sided p-value: the probability of a U at least as far from n₁n₂/2 if both samples
    /// came from one distribution.
    public var pValue: Double
    /// Whether ``pValue`` is exact or from the normal approximation.
    public var method: Method

    /// Tests `first` against `second`. Precondition: neither is empty.
    public init(_ first: [Double], _ second: [Double]) {
        precondition(!first.isEmpty && !second.isEmpty, "the Mann-Whitney U test needs two non-empty samples")
        let n1 = first.count, n2 = second.count
        let ranked = Ranks(first + second)
        let rankSum = ranked.ranks[0..<n1].reduce(0, +)
        let u1 = rankSum - Double(n1 * (n1 + 1)) / 2
        let u2 = Double(n1 * n2) - u1
        let larger = Swift.max(u1, u2)
        u = u1
        if ranked.tieGroups.isEmpty, n1 <= Self.exactLimit, n2 <= Self.exactLimit {
            method = .exact
            let distribution = UDistribution(n1, n2)
            pValue = Swift.min(1, 2 * distribution.probability(atLeast: Int(larger.rounded())))
        } else {
            method = .normal
            let n = Double(n1 + n2)
            let ties = ranked.tieGroups.reduce(0.0) { $0 + Double($1) * Double($1) * Double($1) - Double($1) }
            let variance = Double(n1) * Double(n2) / 12 * ((n + 1) - ties / (n * (n - 1)))
            guard variance > 0 else {
                // Every value equal: nothing tells the samples apart.
                pValue = 1
                return
            }
            let z = (larger - Double(n1) * Double(n2) / 2 - 0.5) / variance.squareRoot()
            pValue = Swift.min(1, 2 * NormalDistribution.survival(z))
        }
    }
}

/// Mid-ranks of values (1-based; tied values share the mean of their ranks) and the sizes of the
/// groups of ties.
struct Ranks {
    var ranks: [Double]
    /// The size of every group of two or more equal values.
    var tieGroups: [Int]

    init(_ values: [Double]) {
        let order = values.indices.sorted { values[$0] < values[$1] }
        ranks = Array(repeating: 0, count: values.count)
        tieGroups = []
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count, values[order[end]] == values[order[start]] { end += 1 }
            let rank = Double(start + 1 + end) / 2
            for position in start..<end { ranks[order[position]] = rank }
            if end - start > 1 { tieGroups.append(end - start) }
            start = end
        }
    }
}

/// The exact null distribution of U for samples of n₁ and n₂ distinct values.
struct UDistribution {
    /// probabilities[u] = P(U = u).
    var probabilities: [Double]

    init(_ n1: Int, _ n2: Int) {
        // counts[j][u]: arrangements of i values of the first sample and j of the second with
        // U = u, built up over i by f(i, j, u) = f(i−1, j, u−j) + f(i, j−1, u).
        let top = n1 * n2
        var counts = (0...n2).map { _ in [Double](repeating: 0, count: top + 1) }
        for j in 0...n2 { counts[j][0] = 1 }
        if n1 > 0 {
            for _ in 1...n1 {
                var next = (0...n2).map { _ in [Double](repeating: 0, count: top + 1) }
                for j in 0...n2 {
                    for u in 0...top {
                        var total = u >= j ? counts[j][u - j] : 0
                        if j > 0 { total += next[j - 1][u] }
                        next[j][u] = total
                    }
                }
                counts = next
            }
        }
        let total = counts[n2].reduce(0, +)
        probabilities = counts[n2].map { $0 / total }
    }

    /// P(U ≥ u).
    func probability(atLeast u: Int) -> Double {
        guard u < probabilities.count else { return 0 }
        return probabilities[Swift.max(0, u)...].reduce(0, +)
    }

    /// P(U ≤ u).
    func probability(atMost u: Int) -> Double {
        guard u >= 0 else { return 0 }
        return probabilities[...Swift.min(u, probabilities.count - 1)].reduce(0, +)
    }
}

/// The standard normal distribution's tail and quantiles.
enum NormalDistribution {
    /// P(Z > z).
    static func survival(_ z: Double) -> Double {
        0.5 * erfc(z / 2.0.squareRoot())
    }

    /// The z with P(Z > z) = `probability`, for 0 < probability < 1, by bisection to full precision.
    static func upperQuantile(_ probability: Double) -> Double {
        var low = -40.0, high = 40.0
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if middle == low || middle == high { break }
            if survival(middle) > probability { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}
