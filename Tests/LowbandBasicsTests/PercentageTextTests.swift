import LowbandBasics
import Testing

/// The one percentage grammar, read by profiles (`loss: 0.5%`) and `lowband compare`'s thresholds.
@Suite struct PercentageTextTests {
    @Test(arguments: [("0.5%", 0.005), ("10%", 0.1), ("100%", 1.0), ("0%", 0.0), ("150%", 1.5), ("12.25 %", 0.1225)])
    func readsAPercentageAsItsFraction(_ text: String, _ fraction: Double) throws {
        #expect(abs(try DecimalText.percentage(text) - fraction) < 1e-12)
    }

    @Test func refusesWhatIsNoPercentageSayingWhy() {
        #expect(throws: DecimalText.Failure("'5ms' is not a percentage; write it with %, e.g. 0.5%")) { try DecimalText.percentage("5ms") }
        #expect(throws: DecimalText.Failure("-5% is below 0%; a percentage is zero or more")) { try DecimalText.percentage("-5%") }
        #expect(throws: DecimalText.Failure.self) { try DecimalText.percentage("5") }
        #expect(throws: DecimalText.Failure.self) { try DecimalText.percentage("%") }
    }
}
