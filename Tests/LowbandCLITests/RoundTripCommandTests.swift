import ArgumentParser
@testable import LowbandCLI
import LowbandReports
import LowbandTestSupport
import Testing

@Suite struct RoundTripCommandTests {
    @Test func roundTripOverLoopbackWritesItsReport() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-roundtrip")
        let csv = directory.file("nested/roundtrip.csv")
        let result = try await LowbandBinary.run(["roundtrip", "--chats", "12", "--contacts", "30", "--repetitions", "3", "--seed", "5", "--out", csv])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.contains("decoded reply equals the original: yes"))
        #expect(result.stdoutText.contains("reproduce: lowband roundtrip --seed 5 --chats 12 --contacts 30 --repetitions 3"))
        // The report is read back with the strict reader of the benchmark schema.
        let rows = try BenchmarkCSV.read(from: csv)
        #expect(Set(rows.map(\.suite)) == ["roundtrip"])
        #expect(Set(rows.map(\.benchmark)) == ["login-reply-c12-k30-s5"])
        let values = Dictionary(rows.map { ($0.metric, $0) }, uniquingKeysWith: { $1 })
        let frame = try #require(values["frame_bytes"]?.p50)
        #expect(values["socket_bytes_received"]?.p50 == 3 * frame, "the client received exactly three reply frames")
        let json = try #require(values["json_bytes"]?.p50)
        let messagePack = try #require(values["msgpack_bytes"]?.p50)
        #expect(messagePack < json)
        #expect(frame < messagePack, "the reply travels compressed")
        #expect(values["msgpack_size_vs_json"]?.p50 == messagePack / json)
        for metric in ["json_encode", "json_decode", "msgpack_encode", "msgpack_decode", "msgpack_fast_encode", "msgpack_fast_decode", "round_trip"] {
            #expect(values[metric]?.samples == 3, "\(metric) keeps every sample")
            #expect(values[metric].map { $0.unit == "us" && $0.min > 0 } == true, "\(metric) is measured")
        }
        // Speed-ups are reported as ratios from one run (not asserted here: timing is the
        // benchmarks' job, and a debug build is no measure of it).
        for metric in ["codable_speedup", "fast_path_speedup"] {
            #expect(values[metric].map { $0.unit == "x" && $0.p50 > 0 } == true, "\(metric) is reported")
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
