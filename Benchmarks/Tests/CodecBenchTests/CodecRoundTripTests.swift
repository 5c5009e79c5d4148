import CodecBench
import LowbandFixtures
import LowbandMessagePack
import LowbandTestSupport
import LowbandWire
import Testing

/// Every registered codec gives every fixture back unchanged, deterministically, and fails on
/// bytes that are not its format with an error instead of a crash.
@Suite struct CodecRoundTripTests {
    static let codecNames = CodecRegistry.all.map(\.name)

    static func workloads(of codecName: String) throws -> [CodecWorkload] {
        try CodecWorkload.all().filter { $0.codec == codecName }
    }

    @Test(arguments: codecNames)
    func everyFixtureRoundTripsToAnEqualValue(codec: String) throws {
        let workloads = try Self.workloads(of: codec)
        #expect(workloads.map(\.fixture) == ["login-reply-50", "history-page-50", "push-1", "contacts-500"])
        for workload in workloads {
            let bytes = try workload.verifiedEncoding()
            #expect(!bytes.isEmpty, "\(workload.encodeBenchmarkName)")
            try workload.decode(bytes)
        }
    }

    /// Byte counts are stable figures for the CI gate; exact bytes are for every codec but
    /// `json`, whose default `JSONEncoder` writes an object's keys in a different order each time.
    @Test(arguments: codecNames)
    func encodingIsDeterministic(codec: String) throws {
        for workload in try Self.workloads(of: codec) {
            let first = try workload.encode()
            let second = try workload.encode()
            if codec == "json" {
                #expect(first.count == second.count, "\(workload.encodeBenchmarkName)")
                #expect(first.sorted() == second.sorted(), "\(workload.encodeBenchmarkName)")
            } else {
                #expect(first == second, "\(workload.encodeBenchmarkName) gives different bytes for the same value")
            }
        }
    }

    @Test(arguments: codecNames)
    func truncatedOrForeignBytesThrow(codec: String) throws {
        for workload in try Self.workloads(of: codec) {
            let bytes = try workload.encode()
            #expect(throws: (any Error).self, "\(workload.decodeBenchmarkName) on its bytes minus the last") {
                try workload.decode(Array(bytes.dropLast()))
            }
            #expect(throws: (any Error).self, "\(workload.decodeBenchmarkName) on 64 bytes of 0xFF") {
                try workload.decode([UInt8](repeating: 0xFF, count: 64))
            }
        }
    }

    @Test func theTwoMessagePackCodecsWriteTheSameBytes() throws {
        let codable = try Self.workloads(of: "msgpack-codable")
        let fast = try Self.workloads(of: "msgpack-fast")
        #expect(codable.count == 4)
        for (codable, fast) in zip(codable, fast) {
            #expect(try codable.encode() == fast.encode(), "\(codable.fixture)")
        }
    }

    /// `contacts-500` is `[Contact]` itself for every codec, not a wrapper object.
    @Test func contactsAreATopLevelArray() throws {
        let workloads = try CodecWorkload.all().filter { $0.fixture == "contacts-500" }
        let json = try #require(workloads.first { $0.codec == "json" }).encode()
        #expect(json.first == UInt8(ascii: "["))
        let pack = try #require(workloads.first { $0.codec == "msgpack-codable" }).encode()
        #expect(Array(pack.prefix(3)) == [0xDC, 0x01, 0xF4]) // array 16 of 500 elements
    }

    @Test func fastPathDecodesTheCodableEncodersBytes() throws {
        var fixtures = MessengerFixtures(seed: 1)
        let login = fixtures.loginReply(chats: 50)
        let bytes = try MessagePackEncoder(userInfo: WireFormat.v2.userInfo).encode(login)
        #expect(try MessagePackFastCodec().decode(LoginReply.self, from: bytes) == login)
        // v1's maps are not v2 values.
        #expect(throws: (any Error).self) { try MessagePackFastCodec().decode(LoginReply.self, from: MessagePackV1Codec().encode(login)) }
    }
}
