import SwiftProtobuf

/// swift-protobuf's binary format, through the generated messages of Proto/catalogue.proto.
///
/// Encoding converts the model value to its generated message first and decoding converts back
/// (Proto/Catalogue+Protobuf.swift); both conversions are part of the figures, because an app
/// with its own model types pays them too.
public struct ProtobufCodec: BenchmarkCodec {
    public let name = "protobuf"

    public init() {}

    public func encode<T: BenchmarkPayload>(_ value: T) throws -> [UInt8] {
        try value.protobufMessage.serializedBytes()
    }

    public func decode<T: BenchmarkPayload>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try T(protobufMessage: T.ProtobufMessage(serializedBytes: bytes))
    }
}
