import Foundation
@testable import LowbandCodecs
import LowbandMessagePack
import LowbandProcess
import LowbandTestSupport
import Testing

/// CBOR and compact JSON written here against Python's own: byte for byte what `cbor2.dumps`
/// and `json.dumps(o, separators=(",", ":"), ensure_ascii=False)` write, and read back by them.
@Suite struct CBORPeerTests {
    /// Values a messenger sends: URLs, non-ASCII text, integers at every head width and at the
    /// 64-bit ends, floats Python writes in each notation, nested arrays, booleans and nulls.
    static let document = """
        {"url":"https://cdn.example.com/a/b.jpg?x=1&y=2","text":"Привет 👍 Zoë — \\"q\\" \\\\ \\n\\t\\u0001",\
        "ints":[0,23,24,255,256,65535,65536,4294967295,4294967296,-1,-24,-25,-256,-257,-65537,9223372036854775807,-9223372036854775808,18446744073709551615],\
        "floats":[0.5,-0.0,1e-7,0.0001,1e16,1e15,123456.789,1e22,0.1,2.5e-5,1.7976931348623157e308,5e-324],\
        "nested":[[true,[false,[null,[]]]],{}],"empty":"","key with / slash":{"ü":null}}
        """

    @Test func cborAndJSONAreByteForBytePythons() async throws {
        let value = try MessagePackJSON.parse(Self.document)
        var writer = CBORWriter()
        writer.write(value)
        let directory = try TemporaryDirectory(prefix: "lowband-cbor")
        let cborPath = directory.file("value.cbor")
        let jsonPath = directory.file("value.json")
        try Data(writer.bytes).write(to: URL(fileURLWithPath: cborPath))
        try Data(CompactJSON.encode(value)).write(to: URL(fileURLWithPath: jsonPath))
        let script = """
            import json, sys, cbor2
            doc = json.loads(sys.argv[1])
            ours = open(sys.argv[2], "rb").read()
            ours_json = open(sys.argv[3], "rb").read()
            assert cbor2.dumps(doc) == ours, (cbor2.dumps(doc).hex(), ours.hex())
            assert cbor2.loads(ours) == doc
            theirs = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()
            assert theirs == ours_json, (theirs, ours_json)
            print("same")
            """
        let python = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", script, Self.document, cborPath, jsonPath])
        #expect(python.status == 0 && python.stdoutText == "same\n", "\(python.stderrText)")
    }

    @Test func cborReadsBackWhatItWrote() throws {
        let value = try MessagePackJSON.parse(Self.document)
        var writer = CBORWriter()
        writer.write(value)
        var reader = CBORReader(writer.bytes)
        #expect(try reader.readValue() == value)
        #expect(reader.isAtEnd)
    }

    @Test(arguments: [
        ([UInt8]([0x9F, 0x01, 0xFF]), "indefinite length"), ([0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], "elements but"),
        ([0x62, 0xC3], "bytes but"), ([0xC1, 0x01], "tag 1 is not taken"), ([0x62, 0xFF, 0xFE], "not UTF-8"), ([0xF7], "simple value 23"),
    ])
    func badCBORIsRefusedWithWhere(bytes: [UInt8], message: String) {
        var reader = CBORReader(bytes)
        do {
            let value = try reader.readValue()
            Issue.record("read \(value) from bad CBOR")
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func pythonsFloatNotation() {
        #expect(CompactJSON.pythonRepr(1e16) == "1e+16")
        #expect(CompactJSON.pythonRepr(1e15) == "1000000000000000.0")
        #expect(CompactJSON.pythonRepr(0.0001) == "0.0001")
        #expect(CompactJSON.pythonRepr(1e-5) == "1e-05")
        #expect(CompactJSON.pythonRepr(-2.5) == "-2.5")
        #expect(CompactJSON.pythonRepr(123456789.125) == "123456789.125")
    }
}
