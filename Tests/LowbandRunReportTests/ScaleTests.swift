import Testing

@testable import LowbandRunReport

@Suite struct ScaleTests {
    @Test func linearTicksAreRoundAndExact() {
        let scale = LinearScale(domain: 0, 1, range: 0, 100)
        #expect(scale.ticks(count: 5) == [0, 0.2, 0.4, 0.6, 0.8, 1.0])
        #expect(scale(0.25) == 25)
        let seconds = LinearScale(domain: 0, 300, range: 0, 100)
        #expect(seconds.ticks(count: 10) == stride(from: 0.0, through: 300, by: 50).map { $0 })
    }

    @Test func nicedDomainCoversTheDataWithRoundBounds() {
        let scale = LinearScale(domain: 0, 97, range: 0, 1).niced(tickCount: 5)
        #expect(scale.lower == 0)
        #expect(scale.upper == 100)
        let rates = LinearScale(domain: 0, 13_300, range: 200, 0).niced(tickCount: 4)
        #expect(rates.upper == 15_000)
        #expect(rates.ticks(count: 4) == [0, 5_000, 10_000, 15_000])
    }

    @Test func degenerateAndNonFiniteDomainsStillMapToFinitePositions() {
        for scale in [LinearScale(domain: 5, 5, range: 0, 100), LinearScale(domain: 0, 0, range: 0, 100), LinearScale(domain: .nan, .infinity, range: 0, 100)] {
            for value in [0.0, 5, -3, 1e300] { #expect(scale(value).isFinite) }
            #expect(!scale.ticks().isEmpty)
            #expect(scale.ticks().allSatisfy { $0.isFinite })
        }
        let log = LogScale(domain: 0, 0, range: 0, 100)
        #expect(log(0).isFinite)
        #expect(log(-5) == log.rangeStart)
        #expect(log.ticks().allSatisfy { $0.isFinite })
    }

    @Test func logTicksArePowersOfTenWithTwoAndFiveOnShortSpans() {
        #expect(LogScale(domain: 1, 100_000, range: 0, 1).ticks() == [1, 10, 100, 1_000, 10_000, 100_000])
        #expect(LogScale(domain: 10, 10_000, range: 0, 1).ticks() == [10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000])
        #expect(LogScale(domain: 50, 2_000, range: 0, 1).ticks() == [50, 100, 200, 500, 1_000, 2_000])
        let wide = LogScale(domain: 0.7, 30_000, range: 0, 1).niced()
        #expect(wide.lower == 0.5)
        #expect(wide.upper == 50_000)
        #expect(wide.ticks() == [1, 10, 100, 1_000, 10_000])
        let latency = LogScale(domain: 92, 18_700, range: 0, 1).niced()
        #expect(latency.lower == 50)
        #expect(latency.upper == 20_000)
        let exact = LogScale(domain: 100, 10_000, range: 0, 1).niced()
        #expect(exact.lower == 100)
        #expect(exact.upper == 10_000)
    }

    @Test func logPositionsAreProportionalToDecades() {
        let scale = LogScale(domain: 1, 1_000, range: 0, 300)
        #expect(abs(scale(10) - 100) < 1e-9)
        #expect(abs(scale(100) - 200) < 1e-9)
    }

    @Test func aLogScaleIsChosenOnlyBeyondTwoDecades() {
        #expect(ValueScale.fitting(minimum: 80, maximum: 20_000, range: 0, 1).isLogarithmic)
        #expect(!ValueScale.fitting(minimum: 80, maximum: 7_900, range: 0, 1).isLogarithmic)
        #expect(!ValueScale.fitting(minimum: 0, maximum: 20_000, range: 0, 1).isLogarithmic)
        #expect(!ValueScale.fitting(minimum: .nan, maximum: .nan, range: 0, 1).isLogarithmic)
    }
}
