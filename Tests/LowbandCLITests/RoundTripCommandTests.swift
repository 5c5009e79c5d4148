import ArgumentParser
import Foundation
import LowbandCLI
import LowbandTestSupport
import Testing

@Suite struct RoundTripCommandTests {
    @Test func roundTripOverLoopbackWritesItsReport() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lowband-roundtrip-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("nested/roundtrip.csv").path
        let result = try ExternalProcess.run(BuiltProducts.path(of: "lowband"), ["roundtrip", "--chats", "12", "--contacts", "30", "--repetitions", "3", "--seed", "5", "--out", csv])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.contains("decoded reply equals the original: yes"))
        #expect(result.stdoutText.contains("reproduce: lowband roundtrip --seed 5 --chats 12 --contacts 30 --repetitions 3"))
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let values = Dictionary(rows.dropFirst().map { (String($0[0]), String($0[1])) }, uniquingKeysWith: { $1 })
        #expect(rows.first == ["metric", "value", "unit"])
        #expect(values["reply_matches"] == "1")
        let frame = try #require(values["frame_bytes"].flatMap { Int($0) })
        #expect(values["socket_bytes_received"].flatMap { Int($0) } == 3 * frame, "the client received exactly three reply frames")
        let json = try #require(values["json_bytes"].flatMap { Int($0) })
        let messagePack = try #require(values["msgpack_bytes"].flatMap { Int($0) })
        #expect(messagePack < json)
        #expect(frame < messagePack, "the reply travels compressed")
        for metric in ["json_encode_median", "json_decode_median", "msgpack_encode_median", "msgpack_decode_median", "msgpack_fast_encode_median", "msgpack_fast_decode_median"] {
            #expect(values[metric].flatMap(Double.init).map { $0 > 0 } == true, "\(metric) is measured")
        }
        #expect(result.stdoutText.contains("MessagePack (Codable)"))
        #expect(result.stdoutText.contains("MessagePack (fast path)"))
    }

    @Test func impossibleArgumentsAreRejectedBeforeAnythingStarts() {
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["roundtrip", "--repetitions", "0"]) }
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["roundtrip", "--chats", "-3"]) }
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["roundtrip", "--seed", "minus"]) }
    }
}
