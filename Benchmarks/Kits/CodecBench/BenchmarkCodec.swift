public import LowbandMessagePack

/// A serialisation format in the codec comparison: model value in, bytes out, and back.
///
/// Conform one type and add one line to ``CodecRegistry/all``: the benchmark executable
/// measures every registered codec on every fixture, and the tests round-trip them all. The time
/// a codec spends converting to its own representation (protobuf messages, `Data`) is part of
/// its figures on purpose: the question is what it costs to go from our model type to bytes.
///
/// The same value must give the same number of bytes, so byte counts are figures a CI gate can
/// compare across runs. The same bytes are better still: Foundation's default `JSONEncoder`
/// writes an object's keys in a different order on each call, so `json`'s LZ4 size moves by a
/// few percent from one encoding to the next while every other built-in codec's is exact.
public protocol BenchmarkCodec: Sendable {
    /// The codec's name in benchmark names (`<fixture>/<name>/encode`): short, unique, no `/`.
    var name: String { get }

    /// The value's bytes.
    func encode<T: BenchmarkPayload>(_ value: T) throws -> [UInt8]

    /// The value in `bytes`; throws, never traps, when they are not a valid `T`.
    func decode<T: BenchmarkPayload>(_ type: T.Type, from bytes: [UInt8]) throws -> T
}

/// A message the codecs are compared on: one of the catalogue's types (or a list of them).
///
/// `Codable` is all a codec of one's own needs; the fast-path and protobuf requirements exist
/// for the built-in `msgpack-fast` and `protobuf` codecs, and the catalogue types used by the
/// fixtures already meet them.
public protocol BenchmarkPayload: Codable, Equatable, Sendable, MessagePackFastCodable, ProtobufMirrored {}
