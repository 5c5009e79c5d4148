import LowbandReports
import Testing

/// What makes the kits' declarations usable together.
@Suite struct DeclarationTests {
    @Test func everyRatioSaysTheDirectionCompareJudgesItBy() {
        for ratio in allFigures.ratios {
            #expect(MetricDirection(metric: ratio.metric, unit: ratio.unit) == ratio.direction, "\(ratio.suite) \(ratio.metric)")
        }
    }

    @Test func namesAreUnique() {
        let targets = allFigures.targets.map(\.name)
        #expect(Set(targets).count == targets.count)
        let ratios = allFigures.ratios.map { "\($0.suite) \($0.metric)" }
        #expect(Set(ratios).count == ratios.count)
    }

    @Test func aTargetOnADerivedMetricNamesARatioOfItsSuite() {
        let derived = Set(allFigures.ratios.map { "\($0.suite) \($0.metric)" })
        let measured: Set<String> = ["push-to-visible push_to_visible_us", "virtual-time speedup_vs_real_time", "virtual-time seeds_per_second"]
        for target in allFigures.targets {
            #expect(derived.contains("\(target.suite) \(target.metric)") || measured.contains("\(target.suite) \(target.metric)"), "\(target.name)")
        }
    }
}
