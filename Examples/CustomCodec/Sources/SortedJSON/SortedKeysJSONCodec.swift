public import CodecBench
import Foundation

/// JSON with its object keys sorted: the same value is always the same bytes.
///
/// Foundation's default `JSONEncoder` writes an object's keys in a different order on each
/// call, so the built-in `json` codec's LZ4 size moves between encodings; sorting the keys
/// costs a little encode time and makes every byte count exact. Registering it beside the
/// built-in codecs measures that cost.
public struct SortedKeysJSONCodec: BenchmarkCodec {
    /// Benchmarks are named `<fixture>/json-sorted/encode` and `…/decode`.
    public let name = "json-sorted"

    public init() {}

    public func encode<T: BenchmarkPayload>(_ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return [UInt8](try encoder.encode(value))
    }

    public func decode<T: BenchmarkPayload>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try JSONDecoder().decode(type, from: Data(bytes))
    }
}
