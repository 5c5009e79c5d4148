import CompressionBench
import LowbandProcess
import LowbandTestSupport
import Testing

/// Our zlib streams against Python's zlib module, an independent reader of RFC 1950.
@Suite struct ZlibInteropTests {
    /// Reads length-prefixed zlib streams from stdin and writes each decompressed, length-prefixed.
    static let script = """
        import sys, zlib
        data = sys.stdin.buffer.read()
        out = sys.stdout.buffer
        offset = 0
        while offset < len(data):
            size = int.from_bytes(data[offset:offset + 4], "big")
            offset += 4
            plain = zlib.decompress(data[offset:offset + size])
            offset += size
            out.write(len(plain).to_bytes(4, "big") + plain)
        """

    @Test(arguments: ["zlib-1", "zlib-6"])
    func pythonDecodesOurZlibOutput(methodID: String) async throws {
        for input in Shared.inputs {
            let workload = try CompressionWorkload(input: input, method: Shared.method(methodID))
            let compressed = workload.compressedPayloads()
            let result = try await ExternalProcess.run("python3", ["-c", Self.script], stdin: Self.frame(compressed))
            try #require(result.status == 0, "python3 could not decompress \(input.id)/\(methodID): \(result.stderrText)")
            #expect(try Self.unframe(result.stdout) == input.payloads, "\(input.id)/\(methodID)")
            // Our own inflate reads the same streams back.
            try workload.verifyRoundTrip()
            #expect(workload.restoredPayloads() == input.payloads)
        }
    }

    @Test func higherZlibLevelsAreNoLargerAndStreamsAreShrunk() throws {
        for input in Shared.inputs where input.id != "push-1" {
            let fast = try CompressionWorkload(input: input, method: Shared.method("zlib-1")).compressedBytes
            let default6 = try CompressionWorkload(input: input, method: Shared.method("zlib-6")).compressedBytes
            #expect(default6 <= fast, "\(input.id): zlib-6 \(default6) bytes, zlib-1 \(fast) bytes")
            #expect(default6 < input.byteCount)
        }
    }

    static func frame(_ records: [[UInt8]]) -> [UInt8] {
        records.flatMap { record in
            withUnsafeBytes(of: UInt32(record.count).bigEndian, Array.init) + record
        }
    }

    static func unframe(_ bytes: [UInt8]) throws -> [[UInt8]] {
        var records: [[UInt8]] = []
        var offset = 0
        while offset < bytes.count {
            try #require(offset + 4 <= bytes.count, "output ends inside a length")
            let count = bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            try #require(offset + count <= bytes.count, "output ends inside a record")
            records.append(Array(bytes[offset ..< offset + count]))
            offset += count
        }
        return records
    }
}
