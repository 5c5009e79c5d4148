import LowbandMessagePack
import LowbandWire

/// Our MessagePack through `Codable` (``MessagePackEncoder``/``MessagePackDecoder``) in wire
/// format v2: the reference the wire layer's fast path is tested against.
///
/// The encoder and decoder are made once and reused, as an app would and as ``JSONCodec``
/// does: building their `userInfo` dictionary was about a tenth of a push's encode or decode.
public struct MessagePackCodableCodec: BenchmarkCodec {
    public let name = "msgpack-codable"
    private let encoder = MessagePackEncoder(userInfo: WireFormat.v2.userInfo)
    private let decoder = MessagePackDecoder(userInfo: WireFormat.v2.userInfo)

    public init() {}

    public func encode<T: BenchmarkPayload>(_ value: T) throws -> [UInt8] {
        try encoder.encode(value)
    }

    public func decode<T: BenchmarkPayload>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decoder.decode(type, from: bytes)
    }
}
