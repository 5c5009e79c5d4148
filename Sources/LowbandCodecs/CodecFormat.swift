import LowbandCBOR
import LowbandMessagePack

/// The text or binary form a payload is written in.
package enum WireFormat: String, CaseIterable, Sendable {
    /// Compact JSON as apps write it (``CompactJSON``).
    case json
    /// MessagePack with map keys (the JSON document's shape, field names and all).
    case msgpack
    /// CBOR, definite lengths, shortest heads (`CBORWriter`, LowbandCBOR).
    case cbor
    /// Protocol Buffers by the user's own schema (``ProtoTarget``); only when one is given.
    case protobuf
}

/// What is done to a wire format's bytes before they are sent.
package enum Compression: String, CaseIterable, Sendable {
    /// Nothing.
    case none
    /// zlib's deflate at its default level (what HTTP's gzip does).
    case zlib
    /// One LZ4 block.
    case lz4
    /// One LZ4 block with a dictionary of the other payload files' bytes.
    case lz4Dictionary = "lz4+dict"
    /// zstd at its default level (3).
    case zstd
    /// zstd with a dictionary of the other payload files' bytes (raw content).
    case zstdDictionary = "zstd+dict"

    /// Whether it needs a dictionary built from the other payload files.
    var usesDictionary: Bool { self == .lz4Dictionary || self == .zstdDictionary }
}

/// A way to put a payload on the wire, as `lowband codecs compare` measures it: a wire format
/// and a compression, named `msgpack`, `json+zstd`, `cbor+lz4+dict`.
package struct CodecFormat: Hashable, Sendable, CustomStringConvertible {
    /// The form the payload is written in.
    package var wire: WireFormat
    /// What is done to those bytes.
    package var compression: Compression

    /// `wire` compressed by `compression`.
    package init(_ wire: WireFormat, _ compression: Compression = .none) {
        self.wire = wire
        self.compression = compression
    }

    /// Every wire format with every compression, wire format first.
    package static let allCases: [CodecFormat] = WireFormat.allCases.flatMap { wire in Compression.allCases.map { CodecFormat(wire, $0) } }

    package var description: String { compression == .none ? wire.rawValue : "\(wire.rawValue)+\(compression.rawValue)" }
}

/// One payload written in every wire format: what each compression starts from.
struct PreparedPayload {
    let value: MessagePackValue
    /// Each ``WireFormat``'s bytes, in `WireFormat.allCases` order.
    let plain: [[UInt8]]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(_ value: MessagePackValue, origin: String, proto: ProtoTarget?) throws(Failure) {
        self.value = value
        var plain: [[UInt8]] = []
        for wire in WireFormat.allCases {
            guard wire != .protobuf || proto != nil else {
                plain.append([])
                continue
            }
            do {
                plain.append(try Self.encode(value, as: wire, capacity: 0, proto: proto))
            } catch let failure as ProtoEncoder.Failure {
                throw Failure(description: "\(origin): \(failure)")
            } catch {
                throw Failure(description: "\(origin): cannot be written as \(wire.rawValue): \(error)")
            }
        }
        self.plain = plain
    }

    func bytes(_ wire: WireFormat) -> [UInt8] {
        plain[WireFormat.allCases.firstIndex(of: wire) ?? 0]
    }

    static func encode(_ value: MessagePackValue, as wire: WireFormat, capacity: Int, proto: ProtoTarget?) throws -> [UInt8] {
        switch wire {
        case .json:
            return CompactJSON.encode(value, reservingCapacity: capacity)
        case .msgpack:
            var writer = MessagePackWriter(reservingCapacity: capacity)
            try writer.write(value)
            return writer.bytes
        case .cbor:
            var writer = CBORWriter(reservingCapacity: capacity)
            writer.write(value)
            return writer.bytes
        case .protobuf:
            guard let proto else { throw ProtoDecoder.Failure(description: "no schema given") }
            return try proto.encoder.encode(value)
        }
    }

    static func decode(_ bytes: [UInt8], as wire: WireFormat, proto: ProtoTarget?) throws -> MessagePackValue {
        switch wire {
        case .json:
            return try MessagePackJSON.parse(bytes)
        case .msgpack:
            var reader = MessagePackReader(bytes)
            return try reader.readValue()
        case .cbor:
            var reader = CBORReader(bytes)
            return try reader.readValue()
        case .protobuf:
            guard let proto else { throw ProtoDecoder.Failure(description: "no schema given") }
            return try proto.decoder.decode(bytes[...], as: proto.encoder.message)
        }
    }
}
