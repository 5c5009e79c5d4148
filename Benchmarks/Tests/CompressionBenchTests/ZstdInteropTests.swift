import CompressionBench
import Foundation
import LowbandProcess
import LowbandTestSupport
import Testing

/// The zstd rows compress for real: their frames are standard zstd frames that the `zstd`
/// command decodes with the trained dictionary, and the trained dictionary is worth its bytes on
/// small messages, as LZ4's is.
@Suite struct ZstdInteropTests {
    @Test func theTrainedDictionaryIsZstdsAndDeterministic() throws {
        let dictionary = Shared.zstdDictionary
        #expect(dictionary.bytes.count > 1_024 && dictionary.bytes.count <= 32 * 1_024)
        #expect(Array(dictionary.bytes.prefix(4)) == [0x37, 0xA4, 0x30, 0xEC], "zstd's dictionary magic number")
        #expect(dictionary.id != 0)
        #expect(try ZstdDictionary.make() == dictionary, "training the same samples gives the same bytes")
    }

    @Test func aTrainedDictionaryShrinksSmallMessagesBelowZstdWithoutOne() throws {
        let input = Shared.input("small-messages")
        let plain = try CompressionWorkload(input: input, method: Shared.method("zstd-3"))
        let trained = try CompressionWorkload(input: input, method: Shared.method("zstd-3-dict"))
        try plain.verifyRoundTrip()
        try trained.verifyRoundTrip()
        #expect(Double(trained.compressedBytes) < 0.8 * Double(plain.compressedBytes), "zstd-3-dict \(trained.compressedBytes) bytes vs zstd-3 \(plain.compressedBytes)")
        #expect(trained.compressedBytes < input.byteCount / 2)
    }

    @Test(arguments: ["zstd-3", "zstd-3-dict"])
    func theZstdCommandDecodesOurFrames(method: String) async throws {
        let tool = try #require(ExternalProcess.which("zstd"), "the zstd command must be installed (apt zstd)")
        let directory = try TemporaryDirectory(prefix: "lowband-zstd")
        let dictionaryPath = directory.file("trained.zdict")
        try Data(Shared.zstdDictionary.bytes).write(to: URL(fileURLWithPath: dictionaryPath))
        let input = Shared.input("small-messages")
        let workload = try CompressionWorkload(input: input, method: Shared.method(method))
        let frames = workload.compressedPayloads()
        for index in [0, 1, 2, 500, 999] {
            var arguments = ["-d", "-c", "-q"]
            if method.hasSuffix("-dict") { arguments += ["-D", dictionaryPath] }
            let result = try await ExternalProcess.run(tool, arguments, stdin: frames[index])
            #expect(result.status == 0, "zstd -d on payload \(index): \(result.stderrText)")
            #expect(result.stdout == input.payloads[index], "\(method) payload \(index)")
        }
    }
}
