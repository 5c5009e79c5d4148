import LowbandMessagePack

/// Our MessagePack through `Codable` in wire format v1 (maps keyed by name), which frames
/// carried before v2: kept so the reports show what v2 saves.
public struct MessagePackV1Codec: BenchmarkCodec {
    public let name = "msgpack-v1"

    public init() {}

    public func encode<T: BenchmarkPayload>(_ value: T) throws -> [UInt8] {
        try MessagePackEncoder().encode(value)
    }

    public func decode<T: BenchmarkPayload>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try MessagePackDecoder().decode(type, from: bytes)
    }
}
