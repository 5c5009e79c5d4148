public import LowbandShaper

/// A toxiproxy toxic: a named effect on one stream of every connection through a proxy.
///
/// The JSON form is toxiproxy's (`{"name", "type", "stream", "toxicity", "attributes"}`), so
/// toxiproxy clients work unchanged. Attribute values are integers in toxiproxy's units
/// (milliseconds, KB/s of 1000 bytes, microseconds for the slicer's delay, bytes).
public struct Toxic: Hashable, Sendable, Codable {
    /// The toxic's name, unique among a proxy's toxics.
    public var name: String
    /// What the toxic does (`latency`, `bandwidth`, `slicer`, …).
    public var type: ToxicType
    /// `upstream` acts on client → server bytes, `downstream` on server → client bytes.
    public var stream: Direction
    /// The probability that the toxic acts on a given connection (rolled once per connection).
    public var toxicity: Double
    /// The type's settings in toxiproxy's units, by toxiproxy's names (`latency`, `jitter`, `rate`, …).
    public var attributes: [String: Int64]

    /// A toxic; the name defaults to `<type>_<stream>` as in toxiproxy.
    public init(
        name: String? = nil,
        type: ToxicType,
        stream: Direction = .downstream,
        toxicity: Double = 1,
        attributes: [String: Int64] = [:]
    ) {
        self.name = name ?? "\(type.rawValue)_\(stream.rawValue)"
        self.type = type
        self.stream = stream
        self.toxicity = toxicity
        self.attributes = attributes
    }

    /// This toxic with every attribute of its type present (missing ones 0) and no others,
    /// as toxiproxy reports it.
    ///
    /// - Throws: `ProxyError` (`invalidToxicType`, `invalidAttribute`) when the type is unknown,
    ///   an attribute is not one of the type's, or a value is out of range.
    public func validated() throws(ProxyError) -> Toxic {
        var normalized = self
        normalized.attributes = [:]
        for key in type.attributeNames {
            normalized.attributes[key] = attributes[key] ?? 0
        }
        if name.isEmpty { normalized.name = "\(type.rawValue)_\(stream.rawValue)" }
        _ = try ToxicEffect(normalized)
        // Sorted, so the key named does not depend on hashing.
        if let unknown = attributes.keys.sorted().first(where: { !type.attributeNames.contains($0) }) {
            throw ProxyError(
                .invalidAttribute,
                "toxic '\(normalized.name)': unknown attribute '\(unknown)' of a \(type.rawValue) toxic; known attributes: \(type.attributeNames.joined(separator: ", "))")
        }
        return normalized
    }

    private enum CodingKeys: String, CodingKey {
        case name, type, stream, toxicity, attributes
    }

    /// Decodes toxiproxy's JSON; like toxiproxy, `stream` defaults to downstream, `toxicity`
    /// to 1 and the name to `<type>_<stream>`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(ToxicType.self, forKey: .type)
        let stream = try container.decodeIfPresent(Direction.self, forKey: .stream) ?? .downstream
        let name = try container.decodeIfPresent(String.self, forKey: .name).flatMap { $0.isEmpty ? nil : $0 }
        self.init(
            name: name,
            type: type,
            stream: stream,
            toxicity: try container.decodeIfPresent(Double.self, forKey: .toxicity) ?? 1,
            attributes: try container.decodeIfPresent([String: Int64].self, forKey: .attributes) ?? [:]
        )
    }
}

/// The kind of a toxic, by toxiproxy's name for it (`latency`, `bandwidth`, ...).
public struct ToxicType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// Delays data by `latency` ± `jitter` milliseconds.
    public static let latency = ToxicType(rawValue: "latency")
    /// Limits the stream to `rate` KB/s (1 KB = 1000 bytes).
    public static let bandwidth = ToxicType(rawValue: "bandwidth")
    /// Delays the close of the stream by `delay` milliseconds.
    public static let slowClose = ToxicType(rawValue: "slow_close")
    /// Drops all data and closes the connection after `timeout` milliseconds (0: never closes).
    public static let timeout = ToxicType(rawValue: "timeout")
    /// Resets the connection (TCP RST) `timeout` milliseconds after data first arrives.
    public static let resetPeer = ToxicType(rawValue: "reset_peer")
    /// Slices data into pieces of `average_size` ± `size_variation` bytes, `delay` µs apart.
    public static let slicer = ToxicType(rawValue: "slicer")
    /// Closes the connection once `bytes` bytes have passed.
    public static let limitData = ToxicType(rawValue: "limit_data")

    /// Every type the proxy implements.
    public static let all: [ToxicType] = [.latency, .bandwidth, .slowClose, .timeout, .resetPeer, .slicer, .limitData]

    /// The attribute names of this type, in toxiproxy's order; empty for an unknown type.
    public var attributeNames: [String] {
        switch self {
        case .latency: ["latency", "jitter"]
        case .bandwidth: ["rate"]
        case .slowClose: ["delay"]
        case .timeout, .resetPeer: ["timeout"]
        case .slicer: ["average_size", "size_variation", "delay"]
        case .limitData: ["bytes"]
        default: []
        }
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
