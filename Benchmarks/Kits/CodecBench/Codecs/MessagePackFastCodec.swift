import LowbandMessagePack

/// Our MessagePack through the hand-written ``MessagePackFastCodable`` conformances of the
/// catalogue (Sources/LowbandWire/Catalogue/FastPath), wire format v2: what frames carry, the
/// same bytes as `msgpack-codable` without the Codable machinery. It encodes through `messagePackBytes()`, as the wire layer does,
/// which reserves 256 bytes up front like the Codable encoder; neither is told the output size.
public struct MessagePackFastCodec: BenchmarkCodec {
    public let name = "msgpack-fast"

    public init() {}

    public func encode<T: BenchmarkPayload>(_ value: T) throws -> [UInt8] {
        try value.messagePackBytes()
    }

    public func decode<T: BenchmarkPayload>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try T(messagePackBytes: bytes)
    }
}
