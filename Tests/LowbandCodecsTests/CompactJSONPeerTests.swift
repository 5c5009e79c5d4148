import Foundation
@testable import LowbandCodecs
import LowbandMessagePack
import LowbandProcess
import LowbandTestSupport
import Testing

/// Compact JSON against Python's: byte for byte what
/// `json.dumps(o, separators=(",", ":"), ensure_ascii=False)` writes, floats in `repr`'s notation.
@Suite struct CompactJSONPeerTests {
    /// URLs, non-ASCII text, escapes, integers at the 64-bit ends, floats Python writes in each
    /// notation, nested arrays, booleans and nulls.
    static let document = """
        {"url":"https://cdn.example.com/a/b.jpg?x=1&y=2","text":"Привет 👍 Zoë — \\"q\\" \\\\ \\n\\t\\u0001",\
        "ints":[0,23,24,255,256,65535,65536,4294967295,4294967296,-1,-24,-25,-256,-257,-65537,9223372036854775807,-9223372036854775808,18446744073709551615],\
        "floats":[0.5,-0.0,1e-7,0.0001,1e16,1e15,123456.789,1e22,0.1,2.5e-5,1.7976931348623157e308,5e-324],\
        "nested":[[true,[false,[null,[]]]],{}],"empty":"","key with / slash":{"ü":null}}
        """

    @Test func jsonIsByteForBytePythons() async throws {
        let value = try MessagePackJSON.parse(Self.document)
        let directory = try TemporaryDirectory(prefix: "lowband-json")
        let jsonPath = directory.file("value.json")
        try Data(CompactJSON.encode(value)).write(to: URL(fileURLWithPath: jsonPath))
        let script = """
            import json, sys
            doc = json.loads(sys.argv[1])
            ours = open(sys.argv[2], "rb").read()
            theirs = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()
            assert theirs == ours, (theirs, ours)
            print("same")
            """
        let python = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", script, Self.document, jsonPath])
        #expect(python.status == 0 && python.stdoutText == "same\n", "\(python.stderrText)")
    }

    @Test func pythonsFloatNotation() {
        #expect(CompactJSON.pythonRepr(1e16) == "1e+16")
        #expect(CompactJSON.pythonRepr(1e15) == "1000000000000000.0")
        #expect(CompactJSON.pythonRepr(0.0001) == "0.0001")
        #expect(CompactJSON.pythonRepr(1e-5) == "1e-05")
        #expect(CompactJSON.pythonRepr(-2.5) == "-2.5")
        #expect(CompactJSON.pythonRepr(123456789.125) == "123456789.125")
        #expect(CompactJSON.pythonRepr(-0.0) == "-0.0")
    }

    @Test func slashesAndNonASCIIStayAsTheyAre() {
        let value = MessagePackValue.map([(.string("u"), .string("https://a.b/c — ü"))])
        #expect(String(decoding: CompactJSON.encode(value), as: UTF8.self) == #"{"u":"https://a.b/c — ü"}"#)
    }
}
