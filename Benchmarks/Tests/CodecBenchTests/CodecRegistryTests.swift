import CodecBench
import Testing

/// The names the report schema and the CSV converter rely on, and the one-line registration.
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

    @Test func aRegisteredUserCodecIsMeasuredOnEveryFixture() throws {
        let workloads = try CodecWorkload.all(codecs: CodecRegistry.builtIn + [SortedKeysJSONCodec()])
        let mine = workloads.filter { $0.codec == "json-sorted" }
        #expect(mine.map(\.encodeBenchmarkName) == [
            "login-reply-50/json-sorted/encode", "history-page-50/json-sorted/encode",
            "push-1/json-sorted/encode", "contacts-500/json-sorted/encode",
        ])
        for workload in mine {
            let bytes = try workload.verifiedEncoding()
            try workload.decode(bytes)
        }
        // It really is the user's encoder: sorted keys put "chats" first, every time.
        let login = try #require(mine.first)
        #expect(String(decoding: try login.encode().prefix(9), as: UTF8.self) == #"{"chats":"#)
        #expect(try login.encode() == login.encode())
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
