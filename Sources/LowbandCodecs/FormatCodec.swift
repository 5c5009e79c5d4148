import LowbandLZ4
import LowbandMessagePack

/// Encoding and decoding one ``CodecFormat``, checked to give back what it was given.
struct FormatCodec {
    let format: CodecFormat
    /// The other payload files' bytes in this wire format, for the dictionary compressions.
    let dictionary: LZ4Dictionary?
    /// zstd's contexts (and the dictionary digested), kept between calls; nil for other compressions.
    let zstd: Zstd?
    /// The user's schema, for the protobuf format.
    let proto: ProtoTarget?

    /// `format`'s codec; the zstd formats set up their contexts here.
    init(format: CodecFormat, dictionary: LZ4Dictionary?, proto: ProtoTarget?) throws {
        self.format = format
        self.proto = proto
        self.dictionary = dictionary
        switch format.compression {
        case .zstd: zstd = try Zstd()
        case .zstdDictionary: zstd = try Zstd(dictionary: dictionary?.bytes)
        default: zstd = nil
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func encode(_ payload: PreparedPayload) throws -> [UInt8] {
        let plain = try PreparedPayload.encode(payload.value, as: format.wire, capacity: payload.bytes(format.wire).count, proto: proto)
        switch format.compression {
        case .none: return plain
        case .zlib: return try Zlib.compress(plain)
        case .lz4: return try LZ4Block.compress(plain)
        case .lz4Dictionary: return try LZ4Block.compress(plain, dictionary: dictionary)
        case .zstd, .zstdDictionary: return try zstdContexts().compress(plain)
        }
    }

    /// Decodes `bytes` of `payload` into its value.
    func decode(_ bytes: [UInt8], of payload: PreparedPayload) throws -> MessagePackValue {
        let size = payload.bytes(format.wire).count
        let plain: [UInt8]
        switch format.compression {
        case .none: plain = bytes
        case .zlib: plain = try Zlib.decompress(bytes, size: size)
        case .lz4: plain = try LZ4Block.decompress(bytes, decompressedSize: size, maximumSize: size)
        case .lz4Dictionary: plain = try LZ4Block.decompress(bytes, decompressedSize: size, maximumSize: size, dictionary: dictionary)
        case .zstd, .zstdDictionary: plain = try zstdContexts().decompress(bytes, size: size)
        }
        return try PreparedPayload.decode(plain, as: format.wire, proto: proto)
    }

    private func zstdContexts() throws(Failure) -> Zstd {
        guard let zstd else { throw Failure(description: "\(format): no zstd contexts") }
        return zstd
    }

    /// Decodes once and compares with the payload's value (protobuf: encodes what it decoded
    /// again, to the same bytes, since the schema drops zero values and names).
    func check(_ bytes: [UInt8], of payload: PreparedPayload, origin: String) throws {
        let decoded = try decode(bytes, of: payload)
        if format.wire == .protobuf, let proto {
            guard try proto.encoder.encode(decoded) == payload.bytes(.protobuf) else {
                throw Failure(description: "\(origin): \(format) did not give the payload back")
            }
            return
        }
        guard decoded == payload.value else {
            throw Failure(description: "\(origin): \(format) did not give the payload back")
        }
    }
}
