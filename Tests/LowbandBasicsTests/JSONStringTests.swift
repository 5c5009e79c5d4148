import Foundation
import LowbandBasics
import Testing

/// Traces, records and the MessagePack JSON view quote their strings by hand (fixed key order);
/// the one escaper must give valid JSON that Foundation reads back, and the same bytes whichever
/// path a text takes.
@Suite struct JSONStringTests {
    @Test func plainTextIsQuotedAsIs() {
        #expect(JSONString.quoted("") == "\"\"")
        #expect(JSONString.quoted("delivered") == "\"delivered\"")
        #expect(JSONString.quoted("Привет, 👋 é") == "\"Привет, 👋 é\"")
        #expect(JSONString.quoted("a/b") == "\"a/b\"")
    }

    @Test func quotesBackslashesAndControlCharactersAreEscaped() {
        #expect(JSONString.quoted("say \"hi\"") == "\"say \\\"hi\\\"\"")
        #expect(JSONString.quoted("a\\b") == "\"a\\\\b\"")
        #expect(JSONString.quoted("1\n2\r3\t4\u{8}5\u{c}") == "\"1\\n2\\r3\\t4\\b5\\f\"")
        #expect(JSONString.quoted("\u{0}\u{1f}\u{7f}é") == "\"\\u0000\\u001f\u{7f}é\"")
    }

    @Test func theSolidusIsEscapedOnlyWhenAskedAsJSONEncoderDoes() throws {
        #expect(JSONString.quoted("a/b", escapingSolidus: true) == "\"a\\/b\"")
        let text = "path/to \"file\"\n\u{1}"
        let encoded = try JSONEncoder().encode([text])
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        JSONString.append(text, to: &bytes, escapingSolidus: true)
        bytes.append(UInt8(ascii: "]"))
        #expect(bytes == Array(encoded))
    }

    @Test(arguments: ["", "plain", "\"\\/\u{0}\u{8}\u{c}\n\r\t\u{1f}\u{7f}", "Привет 👋", String(repeating: "ab\"c", count: 100)])
    func everyTextReadsBackAsItself(_ text: String) throws {
        for solidus in [false, true] {
            let quoted = JSONString.quoted(text, escapingSolidus: solidus)
            let read = try JSONDecoder().decode(String.self, from: Data(quoted.utf8))
            #expect(read == text)
            var bytes: [UInt8] = []
            JSONString.append(text, to: &bytes, escapingSolidus: solidus)
            #expect(bytes == Array(quoted.utf8))
        }
    }
}
