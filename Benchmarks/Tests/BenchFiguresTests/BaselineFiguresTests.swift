import Foundation
import LowbandReports
import Testing

/// The kits' declarations give back exactly the derived and `targets` rows of the committed
/// baselines, which the importer computed by naming convention before the kits declared them:
/// a new run compares cleanly against them.
@Suite struct BaselineFiguresTests {
    static let baselines = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("reports/baselines")

    @Test(arguments: ["bench.csv", "startup.csv"])
    func derivingTheMeasuredRowsAgainGivesTheBaseline(file: String) throws {
        let baseline = try BenchmarkCSV.read(from: Self.baselines.appendingPathComponent(file).path)
        let measured = allFigures.measured(baseline)
        #expect(measured.count < baseline.count, "the baseline holds derived rows")
        let again = allFigures.apply(to: measured, environment: RunEnvironment(of: try #require(baseline.first)))
        let old = Dictionary(uniqueKeysWithValues: baseline.map { ($0.key, $0) })
        let new = Dictionary(uniqueKeysWithValues: again.all.map { ($0.key, $0) })
        #expect(Set(new.keys) == Set(old.keys), "added: \(Set(new.keys).subtracting(old.keys).sorted()), gone: \(Set(old.keys).subtracting(new.keys).sorted())")
        for key in Set(new.keys).intersection(old.keys).sorted() {
            let (was, now) = (try #require(old[key]), try #require(new[key]))
            #expect(was.unit == now.unit, "\(key)")
            #expect(abs(was.p50 - now.p50) <= 1e-12 * max(1, abs(was.p50)), "\(key): \(was.p50) → \(now.p50)")
        }
    }
}
