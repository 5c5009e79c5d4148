import Foundation
import LowbandProcess
import LowbandReports
import LowbandTestSupport
import Testing

/// The Mann–Whitney U test and the Hodges–Lehmann shift that `lowband compare` gates timings with,
/// checked against scipy (a peer written by others) and against brute force.
struct StatisticsTests {
    /// Deterministic samples: a spread of `count` values around `center`, distinct unless `step`
    /// makes them collide.
    static func sample(_ count: Int, center: Double, seed: Int, step: Double = 0.001) -> [Double] {
        (0..<count).map { index in
            let spread = Double((index * 7919 + seed * 104_729) % 1009) / 1009 - 0.5
            return ((center + spread * center * 0.2) / step).rounded() * step
        }
    }

    struct Case: Codable {
        var x: [Double]
        var y: [Double]
        var method: String
    }

    static let cases: [Case] = [
        Case(x: sample(7, center: 10, seed: 1, step: 1e-9), y: sample(9, center: 11, seed: 2, step: 1e-9), method: "exact"),
        Case(x: sample(30, center: 10, seed: 3, step: 1e-9), y: sample(40, center: 10.3, seed: 4, step: 1e-9), method: "exact"),
        Case(x: sample(50, center: 100, seed: 5, step: 1e-9), y: sample(50, center: 100.7, seed: 6, step: 1e-9), method: "exact"),
        Case(x: sample(60, center: 10, seed: 7), y: sample(70, center: 10.5, seed: 8), method: "asymptotic"),
        // Whole microseconds, as package-benchmark's histogramSamples writes them: many ties.
        Case(x: sample(400, center: 50, seed: 9, step: 1), y: sample(300, center: 52, seed: 10, step: 1), method: "asymptotic"),
        Case(x: sample(2000, center: 1000, seed: 11, step: 1), y: sample(2000, center: 1000, seed: 12, step: 1), method: "asymptotic"),
    ]

    static let script = """
        import json, sys
        from scipy.stats import mannwhitneyu
        out = []
        for c in json.load(sys.stdin):
            r = mannwhitneyu(c["x"], c["y"], alternative="two-sided", method=c["method"], use_continuity=True)
            out.append([float(r.statistic), float(r.pvalue)])
        print(json.dumps(out))
        """

    @Test func mannWhitneyMatchesScipyExactAndWithTies() async throws {
        let input = try JSONEncoder().encode(Self.cases)
        let result = try await ExternalProcess.run("python3", ["-c", Self.script], stdin: Array(input))
        try #require(result.status == 0, "scipy: \(result.stderrText)")
        let expected = try JSONDecoder().decode([[Double]].self, from: Data(result.stdout))
        for (index, testCase) in Self.cases.enumerated() {
            let test = MannWhitneyU(testCase.x, testCase.y)
            #expect(test.method == (testCase.method == "exact" ? .exact : .normal), "case \(index)")
            #expect(test.u == expected[index][0], "case \(index): U")
            #expect(abs(test.pValue - expected[index][1]) <= 1e-9 * Swift.max(1, expected[index][1]) + 1e-12, "case \(index): p \(test.pValue) vs scipy \(expected[index][1])")
        }
    }

    @Test func identicalSamplesAreNotSignificantAndDisjointOnesAre() {
        let same = MannWhitneyU([5, 5, 5], [5, 5, 5, 5])
        #expect(same.pValue == 1)
        let apart = MannWhitneyU((0..<20).map { Double($0) + 100 }, (0..<20).map(Double.init))
        #expect(apart.u == 400)
        #expect(apart.pValue < 1e-10)
    }

    @Test func hodgesLehmannIsTheMedianPairwiseDifference() {
        let x: [Double] = [1, 4, 9, 16, 25], y: [Double] = [0, 2, 3, 11]
        let differences = x.flatMap { a in y.map { a - $0 } }.sorted()
        let shift = HodgesLehmann(x, y, confidence: 0.9)
        #expect(shift.shift == (differences[9] + differences[10]) / 2)
        #expect(shift.lower <= shift.shift && shift.shift <= shift.upper)
        #expect(differences.contains(shift.lower) && differences.contains(shift.upper))
    }

    @Test func hodgesLehmannAgreesWithBruteForceOnLargeTiedSamples() {
        let x = Self.sample(300, center: 50, seed: 21, step: 1), y = Self.sample(200, center: 47, seed: 22, step: 1)
        let differences = x.flatMap { a in y.map { a - $0 } }.sorted()
        let shift = HodgesLehmann(x, y, confidence: 0.99)
        #expect(shift.shift == (differences[29_999] + differences[30_000]) / 2)
        // Normal approximation of U's quantile, as R's wilcox.test (correct = FALSE, ties ignored).
        let spread: Double = (300.0 * 200.0 * 501.0 / 12.0).squareRoot()
        let bound: Double = 30_000.0 - 2.5758293035489 * spread
        let k = Int(bound.rounded(.down))
        #expect(shift.lower == differences[k - 1])
        #expect(shift.upper == differences[60_000 - k])
    }

    @Test func aShiftOfEverySampleMovesTheEstimateAndIntervalByIt() {
        let y = Self.sample(80, center: 1000, seed: 31)
        let x = y.map { $0 + 50 }
        let shift = HodgesLehmann(x, y, confidence: 0.99)
        #expect(abs(shift.shift - 50) < 1e-9)
        #expect(shift.lower < 50 && shift.upper > 50)
    }
}
