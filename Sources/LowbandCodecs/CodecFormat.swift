import Foundation
import LowbandLZ4
import LowbandMessagePack

/// A way to put a payload on the wire, as `lowband codecs compare` measures it.
package enum CodecFormat: String, CaseIterable, Sendable {
    /// JSON text, compact, by Foundation's `JSONSerialization`.
    case json
    /// That JSON deflated by zlib (what HTTP's gzip does to it).
    case jsonZlib = "json+zlib"
    /// MessagePack with map keys (the JSON document's shape, field names and all).
    case msgpack
    /// That MessagePack in one LZ4 block.
    case msgpackLZ4 = "msgpack+lz4"
    /// That MessagePack in one LZ4 block with a dictionary built from other payloads.
    case msgpackLZ4Dictionary = "msgpack+lz4+dict"
}

/// One payload ready in every form the formats start from: the tree each encodes from.
struct PreparedPayload {
    let value: MessagePackValue
    let foundation: Any
    let json: [UInt8]
    /// The JSON with sorted keys: what a decoded copy must give again (a dictionary's key order
    /// is not kept).
    let canonicalJSON: [UInt8]
    let msgpack: [UInt8]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(_ value: MessagePackValue, origin: String) throws(Failure) {
        self.value = value
        do {
            foundation = try JSONSerialization.jsonObject(with: Data(MessagePackJSON.renderUTF8(value)), options: [.fragmentsAllowed])
            json = Array(try JSONSerialization.data(withJSONObject: foundation, options: [.fragmentsAllowed]))
            canonicalJSON = Array(try JSONSerialization.data(withJSONObject: foundation, options: [.fragmentsAllowed, .sortedKeys]))
        } catch {
            throw Failure(description: "\(origin): Foundation cannot write it as JSON: \(error)")
        }
        var writer = MessagePackWriter()
        do {
            try writer.write(value)
        } catch {
            throw Failure(description: "\(origin): cannot be written as MessagePack: \(error)")
        }
        msgpack = writer.bytes
    }
}

/// Encoding and decoding one format, checked to give back what it was given.
struct FormatCodec {
    let format: CodecFormat
    let dictionary: LZ4Dictionary?

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func encode(_ payload: PreparedPayload) throws -> [UInt8] {
        switch format {
        case .json:
            return Array(try JSONSerialization.data(withJSONObject: payload.foundation, options: [.fragmentsAllowed]))
        case .jsonZlib:
            return try Zlib.compress(Array(try JSONSerialization.data(withJSONObject: payload.foundation, options: [.fragmentsAllowed])))
        case .msgpack:
            var writer = MessagePackWriter(reservingCapacity: payload.msgpack.count)
            try writer.write(payload.value)
            return writer.bytes
        case .msgpackLZ4, .msgpackLZ4Dictionary:
            var writer = MessagePackWriter(reservingCapacity: payload.msgpack.count)
            try writer.write(payload.value)
            return try LZ4Block.compress(writer.bytes, dictionary: format == .msgpackLZ4Dictionary ? dictionary : nil)
        }
    }

    /// Decodes `bytes` of `payload`; throws when they do not give the payload back.
    func decode(_ bytes: [UInt8], of payload: PreparedPayload) throws {
        switch format {
        case .json:
            _ = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        case .jsonZlib:
            let text = try Zlib.decompress(bytes, size: payload.json.count)
            _ = try JSONSerialization.jsonObject(with: Data(text), options: [.fragmentsAllowed])
        case .msgpack:
            var reader = MessagePackReader(bytes)
            _ = try reader.readValue()
        case .msgpackLZ4, .msgpackLZ4Dictionary:
            let plain = try LZ4Block.decompress(
                bytes, decompressedSize: payload.msgpack.count, maximumSize: payload.msgpack.count,
                dictionary: format == .msgpackLZ4Dictionary ? dictionary : nil)
            var reader = MessagePackReader(plain)
            _ = try reader.readValue()
        }
    }

    /// Decodes once and compares with the payload (MessagePack formats: the same value; JSON:
    /// the same compact text when written again).
    func check(_ bytes: [UInt8], of payload: PreparedPayload, origin: String) throws {
        switch format {
        case .json, .jsonZlib:
            let text = format == .json ? bytes : try Zlib.decompress(bytes, size: bytes.isEmpty ? 0 : payload.json.count)
            let decoded = try JSONSerialization.jsonObject(with: Data(text), options: [.fragmentsAllowed])
            guard Array(try JSONSerialization.data(withJSONObject: decoded, options: [.fragmentsAllowed, .sortedKeys])) == payload.canonicalJSON else {
                throw Failure(description: "\(origin): \(format.rawValue) did not give the payload back")
            }
        case .msgpack, .msgpackLZ4, .msgpackLZ4Dictionary:
            let plain = format == .msgpack ? bytes : try LZ4Block.decompress(
                bytes, decompressedSize: payload.msgpack.count, maximumSize: payload.msgpack.count,
                dictionary: format == .msgpackLZ4Dictionary ? dictionary : nil)
            var reader = MessagePackReader(plain)
            guard try reader.readValue() == payload.value else { throw Failure(description: "\(origin): \(format.rawValue) did not give the payload back") }
        }
    }
}
