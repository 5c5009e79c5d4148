import Testing

@testable import LowbandRunReport

@Suite struct EscapingTests {
    @Test func markupCharactersAreEscapedAndControlCharactersDropped() {
        #expect(HTMLEscaping.escape(#"<img src=x onerror="alert('1')">&"#) == "&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;")
        #expect(HTMLEscaping.escape("a\u{0}b\u{1B}[31mc\td\ne") == "ab[31mc\td\ne")
        #expect(HTMLEscaping.escape("ÉDGE – 3G ✓") == "ÉDGE – 3G ✓")
    }

    @Test func slugsAreIdSafeAndUnique() {
        #expect(HTMLEscaping.slug("EDGE") == "edge")
        #expect(HTMLEscaping.slug("profiles/My Subway (slow).yaml") == "profiles-my-subway-slow-yaml")
        #expect(HTMLEscaping.slug("<>") == "profile")
        #expect(HTMLEscaping.uniqueSlugs(["edge", "EDGE", "Edge", "3g"]) == ["edge", "edge-2", "edge-3", "3g"])
    }
}

@Suite struct NumberFormattingTests {
    @Test(arguments: [
        (0.0, "0 ms"), (0.000_42, "420 ns"), (0.85, "850 µs"), (1.234, "1.2 ms"), (9.96, "10 ms"), (350.4, "350 ms"),
        (999.7, "1.0 s"), (4_100, "4.1 s"), (45_000, "45 s"), (150_000, "2.5 min"), (7_200_000, "2.0 h"),
        (-12.0, "-12 ms"), (Double.nan, "—"), (Double.infinity, "—"),
    ])
    func durations(milliseconds: Double, expected: String) {
        #expect(NumberFormatting.duration(milliseconds: milliseconds) == expected)
    }

    @Test(arguments: [
        (0.0, "0 B"), (999.0, "999 B"), (1_000.0, "1.0 KB"), (12_345.0, "12.3 KB"), (999_999.0, "1.0 MB"), (350_000_000.0, "350 MB"),
    ])
    func bytes(value: Double, expected: String) {
        #expect(NumberFormatting.bytes(value) == expected)
    }

    @Test func byteTicksDropATrailingZero() {
        #expect(NumberFormatting.bytesTick(40_000) == "40 KB")
        #expect(NumberFormatting.bytesTick(2_500) == "2.5 KB")
        #expect(NumberFormatting.bytesTick(0) == "0 B")
    }

    @Test func valuesFollowTheirUnit() {
        #expect(NumberFormatting.value(4.1, unit: "s") == "4.1 s")
        #expect(NumberFormatting.value(1_500_000, unit: "ns") == "1.5 ms")
        #expect(NumberFormatting.value(2.345, unit: "x") == "2.35×")
        #expect(NumberFormatting.value(12_345, unit: "count") == "12,345")
        #expect(NumberFormatting.value(3.5, unit: "MB/s") == "3.5 MB/s")
    }

    @Test func plainNumbersKeepAboutThreeSignificantDigits() {
        #expect(NumberFormatting.number(1_234) == "1234")
        #expect(NumberFormatting.number(1_234_567) == "1,234,567")
        #expect(NumberFormatting.number(12.345) == "12.3")
        #expect(NumberFormatting.number(0.012_34) == "0.0123")
        #expect(NumberFormatting.number(2.5) == "2.5")
        #expect(NumberFormatting.percent(0.99) == "99%")
        #expect(NumberFormatting.percent(0.999) == "99.9%")
    }

    @Test func coordinatesAreAlwaysPlainFiniteDecimals() {
        #expect(NumberFormatting.coordinate(12.345_6) == "12.35")
        #expect(NumberFormatting.coordinate(-0.001) == "0")
        #expect(NumberFormatting.coordinate(1e-7) == "0")
        #expect(NumberFormatting.coordinate(3e20) == "1000000000")
        #expect(NumberFormatting.coordinate(.nan) == "0")
        #expect(NumberFormatting.coordinate(-.infinity) == "0")
        #expect(NumberFormatting.fixed(0.5, fractionDigits: 0) == "1")
        #expect(NumberFormatting.fixed(-2.25, fractionDigits: 1) == "-2.3")
    }
}

@Suite struct ReportMathTests {
    @Test func logarithmsAndPowersOfTenAgreeWithKnownValues() throws {
        for (x, expected) in [(1.0, 0.0), (10.0, 1.0), (1_000.0, 3.0), (0.01, -2.0), (2.0, 0.301_029_995_663_981_2), (123_456.0, 5.091_512_201_627_772)] {
            let value = try #require(ReportMath.log10(x))
            #expect(abs(value - expected) < 1e-12, "log10(\(x)) = \(value)")
        }
        #expect(ReportMath.log10(0) == nil)
        #expect(ReportMath.log10(-1) == nil)
        #expect(ReportMath.log10(.nan) == nil)
        #expect(abs(ReportMath.pow10(real: 2.5) - 316.227_766_016_837_9) < 1e-9)
        #expect(ReportMath.decade(1_000) == 3)
        #expect(ReportMath.decade(999.999) == 2)
        #expect(ReportMath.decade(0.001) == -3)
    }

    @Test func niceStepsAreOneTwoOrFiveTimesAPowerOfTen() {
        #expect(ReportMath.niceStep(0.21) == 0.2)
        #expect(ReportMath.niceStep(13) == 10)
        #expect(ReportMath.niceStep(3.4) == 5)
        #expect(ReportMath.niceStep(780) == 1_000)
        #expect(ReportMath.niceStep(0) == 1)
    }
}
