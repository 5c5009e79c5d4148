import LowbandLZ4
import LowbandMessagePack

/// Encoding and decoding one ``CodecFormat``, checked to give back what it was given.
struct FormatCodec {
    let format: CodecFormat
    /// The other payload files' bytes in this wire format, for the dictionary compressions.
    let dictionary: LZ4Dictionary?
    /// zstd's contexts (and the dictionary digested), kept between calls; nil for other compressions.
    let zstd: Zstd?

    /// `format`'s codec; the zstd formats set up their contexts here.
    init(format: CodecFormat, dictionary: LZ4Dictionary?) throws {
        self.format = format
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
        let plain = try PreparedPayload.encode(payload.value, as: format.wire, capacity: payload.bytes(format.wire).count)
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
        return try PreparedPayload.decode(plain, as: format.wire)
    }

    private func zstdContexts() throws(Failure) -> Zstd {
        guard let zstd else { throw Failure(description: "\(format): no zstd contexts") }
        return zstd
    }

    /// Decodes once and compares with the payload's value.
    func check(_ bytes: [UInt8], of payload: PreparedPayload, origin: String) throws {
        guard try decode(bytes, of: payload) == payload.value else {
            throw Failure(description: "\(origin): \(format) did not give the payload back")
        }
    }
}
