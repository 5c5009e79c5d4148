import Foundation

/// Foundation's `PropertyListEncoder` in binary format and `PropertyListDecoder`.
///
/// The encoder and decoder are made once and reused, as an app would; the copies between `Data`
/// and `[UInt8]` (one `memcpy` each way) are part of the figures.
public struct PropertyListCodec: BenchmarkCodec {
    public let name = "plist-binary"
    private let encoder: PropertyListEncoder
    private let decoder = PropertyListDecoder()

    public init() {
        encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
    }

    public func encode<T: BenchmarkPayload>(_ value: T) throws -> [UInt8] {
        [UInt8](try encoder.encode(value))
    }

    public func decode<T: BenchmarkPayload>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decoder.decode(type, from: Data(bytes))
    }
}
