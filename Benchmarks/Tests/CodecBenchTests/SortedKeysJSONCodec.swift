import CodecBench
import Foundation

/// The README's example of a codec of one's own: one type, nothing but the protocol and Codable.
/// Registered in the benchmark with one line: `builtIn + [SortedKeysJSONCodec()]`.
struct SortedKeysJSONCodec: BenchmarkCodec {
    let name = "json-sorted"

    func encode<T: BenchmarkPayload>(_ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return [UInt8](try encoder.encode(value))
    }

    func decode<T: BenchmarkPayload>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try JSONDecoder().decode(type, from: Data(bytes))
    }
}
