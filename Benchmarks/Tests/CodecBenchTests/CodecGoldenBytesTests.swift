import CodecBench
import Foundation
import LowbandBasics
import Testing

/// The safety net of the consolidation (issue 23), for the codec suite: every fixture encoded by
/// each of Lowband's codecs (and protobuf, the comparison's reference) gives the bytes it gave
/// when `Tests/Goldens/codec-bytes.tsv` was written, and the same LZ4 size.
///
/// A change of the wire format on purpose rewrites the file
/// (`LOWBAND_WRITE_GOLDENS=1 swift test --package-path Benchmarks --filter CodecGoldenBytesTests`)
/// and says why in its commit; a refactoring never does.
@Suite struct CodecGoldenBytesTests {
    static let codecs: Set<String> = ["msgpack-codable", "msgpack-fast", "msgpack-v1", "protobuf"]

    static let goldens = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Goldens/codec-bytes.tsv")

    static let header = "fixture\tcodec\tbytes\tfnv1a\tlz4_bytes"

    @Test func everyEncodingIsByteIdenticalToItsGolden() throws {
        var lines = [Self.header]
        for fixture in CodecFixture.all() {
            for codec in CodecRegistry.builtIn where Self.codecs.contains(codec.name) {
                let workload = fixture.workload(with: codec)
                let bytes = try workload.encode()
                lines.append([fixture.id, codec.name, String(bytes.count), FNV1a.of(bytes).hexDigits, String(try CodecWorkload.lz4Size(of: bytes))].joined(separator: "\t"))
            }
        }
        #expect(lines.count == 1 + 4 * Self.codecs.count)
        let text = lines.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["LOWBAND_WRITE_GOLDENS"] == "1" {
            try Data(text.utf8).write(to: Self.goldens)
            return
        }
        let expected = try String(contentsOf: Self.goldens, encoding: .utf8)
        for (got, want) in zip(lines, expected.split(separator: "\n").map(String.init)) {
            #expect(got == want)
        }
        #expect(text == expected)
    }
}
