import Foundation
import LowbandCBOR
import LowbandMessagePack
import LowbandProcess
import LowbandTestSupport
import Testing

/// CBOR written here against Python's own: byte for byte what `cbor2.dumps` writes, read back by
/// `cbor2.loads` and by ``CBORReader``, and bad input refused with where.
@Suite struct CBORPeerTests {
    /// Values a messenger sends: URLs, non-ASCII text, integers at every head width and at the
    /// 64-bit ends, floats, nested arrays, booleans and nulls.
    static let document = """
        {"url":"https://cdn.example.com/a/b.jpg?x=1&y=2","text":"Привет 👍 Zoë — \\"q\\" \\\\ \\n\\t\\u0001",\
        "ints":[0,23,24,255,256,65535,65536,4294967295,4294967296,-1,-24,-25,-256,-257,-65537,9223372036854775807,-9223372036854775808,18446744073709551615],\
        "floats":[0.5,-0.0,1e-7,0.0001,1e16,1e15,123456.789,1e22,0.1,2.5e-5,1.7976931348623157e308,5e-324],\
        "nested":[[true,[false,[null,[]]]],{}],"empty":"","key with / slash":{"ü":null}}
        """

    @Test func cborIsByteForBytePythonsAndReadsBackThere() async throws {
        let value = try MessagePackJSON.parse(Self.document)
        var writer = CBORWriter()
        writer.write(value)
        let directory = try TemporaryDirectory(prefix: "lowband-cbor")
        let cborPath = directory.file("value.cbor")
        try Data(writer.bytes).write(to: URL(fileURLWithPath: cborPath))
        let script = """
            import json, sys, cbor2
            doc = json.loads(sys.argv[1])
            ours = open(sys.argv[2], "rb").read()
            assert cbor2.dumps(doc) == ours, (cbor2.dumps(doc).hex(), ours.hex())
            assert cbor2.loads(ours) == doc
            print("same")
            """
        let python = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", script, Self.document, cborPath])
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

    @Test func extensionsAndTimestampsReadBackAsThemselves() throws {
        let value = MessagePackValue.array([
            .extension(type: 5, data: [1, 2, 3]), .extension(type: -7, data: []), .timestamp(MessagePackTimestamp(seconds: 1_732_873_915, nanoseconds: 5)),
            .binary([0, 255]), .float(1.5), .map([(.int(1), .string("one"))]),
        ])
        var writer = CBORWriter()
        writer.write(value)
        var reader = CBORReader(writer.bytes)
        #expect(try reader.readValue() == value)
    }

    @Test(arguments: [
        ([UInt8]([0x9F, 0x01, 0xFF]), "indefinite length"), ([0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], "elements but"),
        ([0x62, 0xC3], "bytes but"), ([0xC1, 0x01], "tag 1 is not taken"), ([0x62, 0xFF, 0xFE], "not UTF-8"), ([0xF7], "simple value 23"),
        ([], "unexpected end"), ([0x3B, 0x80, 0, 0, 0, 0, 0, 0, 0], "below Int64"),
    ])
    func badCBORIsRefusedWithWhere(bytes: [UInt8], message: String) {
        var reader = CBORReader(bytes)
        do {
            let value = try reader.readValue()
            Issue.record("read \(value) from bad CBOR")
        } catch {
            #expect(error.description.contains(message) && error.offset <= bytes.count, "\(error)")
        }
    }

    @Test func nestingPastTheLimitIsRefused() {
        var reader = CBORReader(Array(repeating: 0x81, count: CBORReader.maximumDepth + 2) + [0x00])
        do {
            _ = try reader.readValue()
            Issue.record("read past the depth limit")
        } catch {
            #expect(error.code == .depthLimitExceeded)
        }
    }

    @Test func halfFloatsWiden() throws {
        var reader = CBORReader([0xF9, 0x3C, 0x00])
        #expect(try reader.readValue() == .double(1.0))
    }
}
