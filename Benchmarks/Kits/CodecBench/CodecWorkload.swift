import LowbandLZ4

/// One codec on one fixture: what the `<fixture>/<codec>/encode` and `…/decode` benchmarks run.
public struct CodecWorkload: Sendable {
    public let fixture: String
    public let codec: String
    private let encodeValue: @Sendable () throws -> [UInt8]
    private let decodeValue: @Sendable ([UInt8]) throws -> Void
    private let decodesToValue: @Sendable ([UInt8]) throws -> Bool

    init<T: BenchmarkPayload>(fixture: String, codec: any BenchmarkCodec, value: T) {
        self.fixture = fixture
        self.codec = codec.name
        encodeValue = { try codec.encode(value) }
        // The decoded value goes nowhere; the call through the existential cannot be optimised away.
        decodeValue = { bytes in _ = try codec.decode(T.self, from: bytes) }
        decodesToValue = { bytes in try codec.decode(T.self, from: bytes) == value }
    }

    /// `<fixture>/<codec>/encode`, the name the report schema and the CSV converter expect.
    public var encodeBenchmarkName: String { "\(fixture)/\(codec)/encode" }

    /// `<fixture>/<codec>/decode`.
    public var decodeBenchmarkName: String { "\(fixture)/\(codec)/decode" }

    /// The fixture's bytes in this codec.
    public func encode() throws -> [UInt8] {
        try encodeValue()
    }

    /// Decodes `bytes` as the fixture's type and drops the value: the decode benchmark's body.
    public func decode(_ bytes: [UInt8]) throws {
        try decodeValue(bytes)
    }

    /// Encodes the fixture, checks that decoding gives the same value back, and returns the
    /// bytes; a codec that loses data would otherwise produce meaningless, flattering figures.
    public func verifiedEncoding() throws -> [UInt8] {
        let bytes = try encode()
        guard try decodesToValue(bytes) else {
            throw CodecBenchError(.roundTripMismatch, "codec \"\(codec)\" decodes its \(bytes.count) bytes of \(fixture) to a different value; fix its encode or decode before comparing it")
        }
        return bytes
    }

    /// The size of `bytes` as one LZ4 block at the default acceleration, as the wire layer
    /// compresses a frame payload.
    public static func lz4Size(of bytes: [UInt8]) throws -> Int {
        try LZ4Block.compress(bytes, level: .default).count
    }
}

extension CodecWorkload {
    /// Every fixture × codec pair, fixtures outermost, after checking the codec names.
    public static func all(
        fixtures: [CodecFixture] = CodecFixture.all(),
        codecs: [any BenchmarkCodec] = CodecRegistry.all
    ) throws(CodecBenchError) -> [CodecWorkload] {
        try CodecRegistry.validate(codecs)
        return fixtures.flatMap { fixture in codecs.map { fixture.workload(with: $0) } }
    }
}
