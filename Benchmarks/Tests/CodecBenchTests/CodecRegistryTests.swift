import CodecBench
import Testing

/// The names the report schema and the CSV converter rely on. A codec of one's own registered from
/// another package: Examples/CustomCodec and its tests.
@Suite struct CodecRegistryTests {
    @Test func builtInCodecsHaveTheSchemaNames() {
        #expect(CodecRegistry.builtIn.map(\.name) == ["json", "plist-binary", "protobuf", "msgpack-codable", "msgpack-fast", "msgpack-v1"])
        #expect(CodecRegistry.all.prefix(6).map(\.name) == CodecRegistry.builtIn.map(\.name))
    }

    @Test func benchmarkNamesAreFixtureCodecAndDirection() throws {
        let workloads = try CodecWorkload.all(codecs: CodecRegistry.builtIn)
        #expect(workloads.count == 4 * 6)
        #expect(workloads.first?.encodeBenchmarkName == "login-reply-50/json/encode")
        #expect(workloads.first?.decodeBenchmarkName == "login-reply-50/json/decode")
        #expect(workloads.last?.encodeBenchmarkName == "contacts-500/msgpack-v1/encode")
        #expect(Set(workloads.map(\.fixture)) == ["login-reply-50", "history-page-50", "push-1", "contacts-500"])
    }

    @Test func aCodecThatLosesDataIsRefused() throws {
        let workloads = try CodecWorkload.all(codecs: [LossyCodec()])
        for workload in workloads {
            let error = #expect(throws: CodecBenchError.self) { try workload.verifiedEncoding() }
            #expect(error?.code == .roundTripMismatch)
            #expect(error?.message.contains("\"lossy\"") == true)
        }
    }

    @Test func duplicateOrUnusableNamesAreRejected() {
        for codecs: [any BenchmarkCodec] in [
            [JSONCodec(), NamedCodec(name: "json")],
            [NamedCodec(name: "")],
            [NamedCodec(name: "a/b")],
        ] {
            let error = #expect(throws: CodecBenchError.self) { try CodecWorkload.all(codecs: codecs) }
            #expect(error?.code == .invalidCodecName)
        }
    }

    @Test func lz4SizeIsTheDefaultBlockSize() throws {
        let repetitive = [UInt8](repeating: 7, count: 10_000)
        #expect(try CodecWorkload.lz4Size(of: repetitive) < 100)
        #expect(try CodecWorkload.lz4Size(of: []) == 1)
    }
}
