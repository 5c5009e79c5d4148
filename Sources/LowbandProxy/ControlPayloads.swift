import LowbandBasics
import LowbandProxyCore
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

/// `POST /proxies/{proxy}/routes`, and what `GET` answers: the rules as written, in order.
struct RoutesInput: Codable {
    var routes: [String]
}

/// `POST /record`.
struct RecordInput: Decodable {
    var paused: Bool?
}

/// `POST /proxies/{proxy}/outage`.
struct OutageInput: Decodable {
    var seconds: Double?
    var kind: String?
}

/// `GET /proxies/{proxy}/connections`: the link's state and every open connection.
package struct ConnectionsOutput: Encodable {
    var link: ProxyLinkState
    var connections: [ProxyConnection]

    package init(link: ProxyLinkState, connections: [ProxyConnection]) {
        self.link = link
        self.connections = connections
    }
}

struct LinkInput: Decodable {
    var profile: String?
    var seed: UInt64?

    private enum CodingKeys: String, CodingKey {
        case profile, seed
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        profile = try container.decodeIfPresent(String.self, forKey: .profile)
        seed = try container.decodeUnsigned(forKey: .seed)
    }
}

/// The keys of a JSON object, sorted; decoding fails for anything but an object.
struct BodyKeys: Decodable {
    var keys: [String]

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue).sorted()
    }
}

extension KeyedDecodingContainer {
    /// A `UInt64` field (absent or null: nil). Anything else — a negative number, a fraction,
    /// text — is a ``ProxyError`` naming the field, its range and what was given
    /// (`seed must be 0...18446744073709551615, not -1`); the decoder's own message would
    /// not say which.
    func decodeUnsigned(forKey key: Key) throws -> UInt64? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let value = try? decode(UInt64.self, forKey: key) { return value }
        let given: String
        if let number = try? decode(Int64.self, forKey: key) {
            given = String(number)
        } else if let number = try? decode(Double.self, forKey: key) {
            given = String(number)
        } else if let flag = try? decode(Bool.self, forKey: key) {
            given = String(flag)
        } else if let text = try? decode(String.self, forKey: key) {
            given = JSONString.quoted(text)
        } else {
            given = "an object or array"
        }
        throw ProxyError(.badRequest, "\(key.stringValue) must be 0...\(UInt64.max), not \(given)")
    }
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
    var receivedUpstreamBytes: Int
    var receivedDownstreamBytes: Int
    var droppedUpstreamBytes: Int
    var droppedDownstreamBytes: Int
    var lossStalls: Int
    var lossStallSeconds: Double
    var outages: [String: Int]
    var dnsLookups: Int
    var dnsFailures: Int

    init(_ statistics: ProxyStatistics) {
        acceptedConnections = statistics.acceptedConnections
        openConnections = statistics.openConnections
        refusedConnections = statistics.refusedConnections
        resetConnections = statistics.resetConnections
        upstreamBytes = statistics.upstreamBytes
        downstreamBytes = statistics.downstreamBytes
        bufferedBytes = statistics.bufferedBytes
        peakBufferedBytes = statistics.peakBufferedBytes
        receivedUpstreamBytes = statistics.receivedUpstreamBytes
        receivedDownstreamBytes = statistics.receivedDownstreamBytes
        droppedUpstreamBytes = statistics.droppedUpstreamBytes
        droppedDownstreamBytes = statistics.droppedDownstreamBytes
        lossStalls = statistics.lossStalls
        lossStallSeconds = Double(statistics.lossStallTime.nanosecondsClamped) / 1e9
        outages = statistics.outages
        dnsLookups = statistics.dnsLookups
        dnsFailures = statistics.dnsFailures
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
        case receivedUpstreamBytes = "received_upstream_bytes"
        case receivedDownstreamBytes = "received_downstream_bytes"
        case droppedUpstreamBytes = "dropped_upstream_bytes"
        case droppedDownstreamBytes = "dropped_downstream_bytes"
        case lossStalls = "loss_stalls"
        case lossStallSeconds = "loss_stall_seconds"
        case outages
        case dnsLookups = "dns_lookups"
        case dnsFailures = "dns_failures"
    }
}
