import LowbandMessagePack

/// Our MessagePack through `Codable` (``MessagePackEncoder``/``MessagePackDecoder``): what the
/// wire layer's frames use.
public struct MessagePackCodableCodec: BenchmarkCodec {
    public let name = "msgpack-codable"

    public init() {}

    public func encode<T: BenchmarkPayload>(_ value: T) throws -> [UInt8] {
        try MessagePackEncoder().encode(value)
    }

    public func decode<T: BenchmarkPayload>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try MessagePackDecoder().decode(type, from: bytes)
    }
}
