import LowbandBasics
import Testing

/// Every command and file reads durations with one grammar: a number and a unit, exact to the
/// nanosecond; a bare number other than 0 is refused with both readings spelled out.
@Suite struct DurationTextTests {
    @Test(arguments: [
        ("250us", 250_000), ("250µs", 250_000), ("400ms", 400_000_000), ("2s", 2_000_000_000), ("1.5s", 1_500_000_000),
        ("5m", 300_000_000_000), ("2min", 120_000_000_000), ("1h", 3_600_000_000_000), ("0", 0), ("0s", 0),
        (" 60 s ", 60_000_000_000), ("7ns", 7), ("0.000000001s", 1), ("+3ms", 3_000_000),
    ] as [(String, Int64)])
    func everyUnitReadsExactly(_ text: String, _ nanoseconds: Int64) throws {
        #expect(try DurationText.nanoseconds(text) == nanoseconds)
        #expect(try DurationText.parse(text) == .nanoseconds(nanoseconds))
    }

    @Test(arguments: [
        ("60", "'60' has no unit; write 60s for seconds, 60ms for milliseconds"),
        ("soon", "'soon' is not a duration like 400ms, 60s or 5m"),
        ("5 parsecs", "'5 parsecs' has unknown unit 'parsecs'"),
        ("-5s", "a duration cannot be negative (got -5s)"),
        ("0.5ns", "'0.5ns' is finer than the unit allows"),
        ("9999999999999999h", "has too many digits"),
        ("999999999h", "'999999999h' is too large"),
    ])
    func badTextSaysWhatToWrite(_ text: String, _ message: String) {
        #expect(throws: DecimalText.Failure.self) { try DurationText.parse(text) }
        do {
            _ = try DurationText.parse(text)
        } catch {
            #expect(error.reason.contains(message), "\(error.reason)")
        }
    }

    @Test(arguments: [Duration.seconds(60), .milliseconds(1_500), .nanoseconds(250_123), .seconds(86_400), .zero])
    func formattedDurationsReadBack(_ duration: Duration) throws {
        #expect(try DurationText.parse(DurationText.format(duration)) == duration)
    }

    @Test func formatUsesTheLargestWholeUnit() {
        #expect(DurationText.format(.seconds(60)) == "60s")
        #expect(DurationText.format(.milliseconds(1_500)) == "1500ms")
        #expect(DurationText.format(.nanoseconds(250_123)) == "250123ns")
    }

    @Test func durationHelpersAreExact() {
        #expect(Duration.milliseconds(1_500).seconds == 1.5)
        #expect(Duration.nanoseconds(1_500).milliseconds == 0.0015)
        #expect(Duration.seconds(Int64.max).nanosecondsClamped == .max)
        #expect(Duration.seconds(Int64.min).nanosecondsClamped == .min)
    }
}
