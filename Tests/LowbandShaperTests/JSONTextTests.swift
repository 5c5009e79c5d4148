import LowbandShaper
import Testing

/// Trace lines quote their strings by hand (fixed key order); the quoting must stay valid
/// JSON and the same bytes whichever path a text takes.
@Suite struct JSONTextTests {
    @Test func plainTextIsQuotedAsIs() {
        #expect(JSONText.quoted("") == "\"\"")
        #expect(JSONText.quoted("delivered") == "\"delivered\"")
        #expect(JSONText.quoted("Привет, 👋 é") == "\"Привет, 👋 é\"")
    }

    @Test func quotesBackslashesAndControlCharactersAreEscaped() {
        #expect(JSONText.quoted("say \"hi\"") == "\"say \\\"hi\\\"\"")
        #expect(JSONText.quoted("a\\b") == "\"a\\\\b\"")
        #expect(JSONText.quoted("1\n2\r3\t4") == "\"1\\n2\\r3\\t4\"")
        #expect(JSONText.quoted("\u{0}\u{1f}é") == "\"\\u0000\\u001fé\"")
    }
}
