import LowbandShaper

// The JSON bodies of the control API that are not public model types.

/// `POST /proxies/{proxy}/toxics` body, decoded loosely so each mistake gets toxiproxy's error.
struct ToxicInput: Decodable {
    var name: String?
    var type: String?
    var stream: String?
    var toxicity: Double?
    var attributes: [String: Int64]?

    func toxic() throws(ProxyError) -> Toxic {
        let streamText = stream ?? "downstream"
        guard let direction = Direction(rawValue: streamText.lowercased()) else {
            throw ProxyError(.invalidStream, "stream was invalid, can be either upstream or downstream (got '\(streamText)')")
        }
        let type = ToxicType(rawValue: type ?? "")
        guard ToxicType.all.contains(type) else {
            let known = ToxicType.all.map(\.rawValue).joined(separator: ", ")
            throw ProxyError(.invalidToxicType, "invalid toxic type '\(type.rawValue)'; known types: \(known)")
        }
        return Toxic(
            name: name.flatMap { $0.isEmpty ? nil : $0 },
            type: type,
            stream: direction,
            toxicity: toxicity ?? 1,
            attributes: attributes ?? [:]
        )
    }
}

struct ToxicUpdate: Decodable {
    var attributes: [String: Int64]?
    var toxicity: Double?
}

struct LinkInput: Decodable {
    var profile: String?
    var seed: UInt64?
}

struct PopulateResult: Encodable {
    var proxies: [ProxyDescription]
    var error: String?
    var status: Int?
}

struct StatisticsJSON: Encodable {
    var acceptedConnections: Int
    var openConnections: Int
    var refusedConnections: Int
    var resetConnections: Int
    var upstreamBytes: Int
    var downstreamBytes: Int
    var bufferedBytes: Int
    var peakBufferedBytes: Int

    init(_ statistics: ProxyStatistics) {
        acceptedConnections = statistics.acceptedConnections
        openConnections = statistics.openConnections
        refusedConnections = statistics.refusedConnections
        resetConnections = statistics.resetConnections
        upstreamBytes = statistics.upstreamBytes
        downstreamBytes = statistics.downstreamBytes
        bufferedBytes = statistics.bufferedBytes
        peakBufferedBytes = statistics.peakBufferedBytes
    }

    enum CodingKeys: String, CodingKey {
        case acceptedConnections = "accepted_connections"
        case openConnections = "open_connections"
        case refusedConnections = "refused_connections"
        case resetConnections = "reset_connections"
        case upstreamBytes = "upstream_bytes"
        case downstreamBytes = "downstream_bytes"
        case bufferedBytes = "buffered_bytes"
        case peakBufferedBytes = "peak_buffered_bytes"
    }
}
