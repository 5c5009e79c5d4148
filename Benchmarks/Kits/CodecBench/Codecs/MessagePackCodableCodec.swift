import LowbandMessagePack
import LowbandWire

/// Our MessagePack through `Codable` (``MessagePackEncoder``/``MessagePackDecoder``) in wire
/// format v2: the reference the wire layer's fast path is tested against.
public struct MessagePackCodableCodec: BenchmarkCodec {
    public let name = "msgpack-codable"

    public init() {}

    public func encode<T: BenchmarkPayload>(_ value: T) throws -> [UInt8] {
        try MessagePackEncoder(userInfo: WireFormat.v2.userInfo).encode(value)
    }

    public func decode<T: BenchmarkPayload>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try MessagePackDecoder(userInfo: WireFormat.v2.userInfo).decode(type, from: bytes)
    }
}
