import Foundation

/// Foundation's `JSONEncoder`/`JSONDecoder` with default options: the baseline most Swift apps use.
///
/// The encoder and decoder are made once and reused, as an app would; the copies between `Data`
/// and `[UInt8]` (one `memcpy` each way) are part of the figures. Default options mean unsorted
/// keys, in an order that changes from call to call: the byte count is stable, the LZ4 size of
/// the output is not (about ±2 % on the larger fixtures).
public struct JSONCodec: BenchmarkCodec {
    public let name = "json"
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    public init() {}

    public func encode<T: BenchmarkPayload>(_ value: T) throws -> [UInt8] {
        [UInt8](try encoder.encode(value))
    }

    public func decode<T: BenchmarkPayload>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decoder.decode(type, from: Data(bytes))
    }
}
