import CodecBench

/// A codec that loses data: MessagePack with the last byte's lowest bit flipped on the way back,
/// which changes the last integer, bool or ASCII character of the value without breaking the
/// format. The suite must refuse to measure it.
struct LossyCodec: BenchmarkCodec {
    let name = "lossy"

    func encode<T: BenchmarkPayload>(_ value: T) throws -> [UInt8] {
        try MessagePackCodableCodec().encode(value)
    }

    func decode<T: BenchmarkPayload>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        var bytes = bytes
        bytes[bytes.count - 1] ^= 1
        return try MessagePackCodableCodec().decode(type, from: bytes)
    }
}

/// A codec with an unusable name.
struct NamedCodec: BenchmarkCodec {
    let name: String

    func encode<T: BenchmarkPayload>(_ value: T) throws -> [UInt8] { [] }

    func decode<T: BenchmarkPayload>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        throw CodecBenchError(.roundTripMismatch, "never decodes")
    }
}
