import Foundation
public import LowbandProxyCore

/// A control API request body, decoded and checked as far as its route can check it without a
/// proxy: toxiproxy's field rules, endpoints that parse, toxics whose attributes are in range.
///
/// It needs no socket and no registry, so any bytes can be tried against it (the `control-body`
/// fuzz target in Fuzz/ does). Every failure is a `ProxyError` with HTTP status 400 and
/// toxiproxy's wording (`bad request body: …`, `missing required field: name`); a key the route
/// does not know is refused with the keys it knows, a value out of range with its range. What
/// depends on the registry (a proxy that exists, a profile name it knows) is left to the route.
/// The control API decodes every body through here.
public enum ControlRequestBody: Hashable, Sendable {
    /// `POST /proxies`, `POST|PATCH /proxies/{proxy}`.
    case proxy(ProxySpecification)
    /// `POST /populate`.
    case proxies([ProxySpecification])
    /// `POST /proxies/{proxy}/toxics`: the toxic as it will be added.
    case toxic(Toxic)
    /// `PATCH /proxies/{proxy}/toxics/{toxic}`: the attributes and toxicity to change.
    case toxicUpdate(attributes: [String: Int64], toxicity: Double?)
    /// `POST /proxies/{proxy}/profile` and `POST /proxies/{proxy}/seed`.
    case link(profile: String?, seed: UInt64?)
    /// `POST /proxies/{proxy}/routes`: the rules that replace the proxy's, in order.
    case routes([ProxyRoute])
    /// `POST /proxies/{proxy}/outage`: an outage forced now, for `seconds`, of `kind`.
    case outage(seconds: Double, kind: String)
    /// `POST /record`: pause (true) or resume (false) the session's record.
    case record(paused: Bool)

    /// The routes that take a JSON body: `createProxy`, `updateProxy`, `populate`, `addToxic`,
    /// `updateToxic`, `setProfile`, `setSeed`, `setRoutes`, `forceOutage` and `setRecord`, named
    /// after what they do.
    public enum Route: String, Hashable, Sendable, CaseIterable {
        case createProxy, updateProxy, populate, addToxic, updateToxic, setProfile, setSeed, setRoutes, forceOutage, setRecord

        /// The keys a body of this route may have. Proxies and toxics take every key toxiproxy's
        /// clients send: the Go client posts its whole proxy, `toxics` included (ignored, as
        /// toxiproxy does), and a toxic update may carry the whole toxic (only `attributes` and
        /// `toxicity` change).
        public var knownKeys: [String] {
            switch self {
            case .createProxy, .updateProxy, .populate: ["name", "listen", "upstream", "enabled", "toxics"]
            case .addToxic, .updateToxic: ["name", "type", "stream", "toxicity", "attributes"]
            case .setProfile: ["profile", "seed"]
            case .setSeed: ["seed"]
            case .setRoutes: ["routes"]
            case .forceOutage: ["seconds", "kind"]
            case .setRecord: ["paused"]
            }
        }

        /// The endpoint, for messages when the request's own path is not at hand.
        var endpoint: String {
            switch self {
            case .createProxy: "POST /proxies"
            case .updateProxy: "POST /proxies/{proxy}"
            case .populate: "POST /populate"
            case .addToxic: "POST /proxies/{proxy}/toxics"
            case .updateToxic: "POST /proxies/{proxy}/toxics/{toxic}"
            case .setProfile: "POST /proxies/{proxy}/profile"
            case .setSeed: "POST /proxies/{proxy}/seed"
            case .setRoutes: "POST /proxies/{proxy}/routes"
            case .forceOutage: "POST /proxies/{proxy}/outage"
            case .setRecord: "POST /record"
            }
        }
    }

    /// Decodes `body` as `route` reads it and checks what needs no proxy; `endpoint` (`POST
    /// /proxies/lowband/profile`) names the request in messages.
    ///
    /// - Throws: `ProxyError` — `badRequest` for JSON that is not the route's shape, a key
    ///   the route does not know or a seed out of range, `missingField`, `badEndpoint`,
    ///   `invalidStream`, `invalidToxicType`, `invalidAttribute` (an unknown attribute, or a
    ///   value out of its range).
    public init(decoding body: [UInt8], for route: Route, endpoint: String? = nil) throws(ProxyError) {
        let endpoint = endpoint ?? route.endpoint
        switch route {
        case .createProxy, .updateProxy:
            self = .proxy(try Self.proxy(body, new: route == .createProxy, endpoint: endpoint))
        case .populate:
            self = .proxies(try Self.proxies(body, endpoint: endpoint))
        case .addToxic:
            self = .toxic(try Self.toxic(body, endpoint: endpoint))
        case .updateToxic:
            let update = try Self.toxicUpdate(body, endpoint: endpoint)
            self = .toxicUpdate(attributes: update.attributes, toxicity: update.toxicity)
        case .setProfile, .setSeed:
            let link = try Self.link(body, route: route, endpoint: endpoint)
            self = .link(profile: link.profile, seed: link.seed)
        case .setRoutes:
            self = .routes(try Self.routes(body, endpoint: endpoint))
        case .forceOutage:
            let outage = try Self.outage(body, endpoint: endpoint)
            self = .outage(seconds: outage.seconds, kind: outage.kind)
        case .setRecord:
            self = .record(paused: try Self.record(body, endpoint: endpoint))
        }
    }

    // MARK: Per route

    /// `POST /proxies` (`new`: name and upstream required) or `POST|PATCH /proxies/{proxy}`.
    static func proxy(_ body: [UInt8], new: Bool, endpoint: String) throws(ProxyError) -> ProxySpecification {
        try checkKeys(body, .createProxy, endpoint: endpoint)
        let specification = try decode(ProxySpecification.self, body)
        if new { try checkNew(specification) } else { try checkEndpoints(specification) }
        return specification
    }

    /// `POST /populate`: every proxy as `POST /proxies` needs it; errors say which one.
    static func proxies(_ body: [UInt8], endpoint: String) throws(ProxyError) -> [ProxySpecification] {
        try checkKeys(body, .populate, endpoint: endpoint)
        let specifications = try decode([ProxySpecification].self, body)
        for (index, specification) in specifications.enumerated() {
            do {
                try checkNew(specification)
            } catch {
                var error = error
                error.message += " at proxy \(index + 1)"
                throw error
            }
        }
        return specifications
    }

    /// `POST /proxies/{proxy}/toxics`: the toxic as it will be added.
    static func toxic(_ body: [UInt8], endpoint: String) throws(ProxyError) -> Toxic {
        try checkKeys(body, .addToxic, endpoint: endpoint)
        return try decode(ToxicInput.self, body).toxic().validated()
    }

    /// `PATCH /proxies/{proxy}/toxics/{toxic}`: the attributes are checked by the proxy, against
    /// the toxic they are merged into.
    static func toxicUpdate(_ body: [UInt8], endpoint: String) throws(ProxyError) -> (attributes: [String: Int64], toxicity: Double?) {
        try checkKeys(body, .updateToxic, endpoint: endpoint)
        let update = try decode(ToxicUpdate.self, body)
        if let toxicity = update.toxicity, !(toxicity.isFinite && (0 ... 1).contains(toxicity)) {
            throw ProxyError(.invalidAttribute, "toxicity must be 0...1, not \(toxicity)")
        }
        return (update.attributes ?? [:], update.toxicity)
    }

    /// `POST /proxies/{proxy}/profile` (either field) or `POST /proxies/{proxy}/seed` (seed
    /// required).
    static func link(_ body: [UInt8], route: Route, endpoint: String) throws(ProxyError) -> (profile: String?, seed: UInt64?) {
        try checkKeys(body, route, endpoint: endpoint)
        let input = try decode(LinkInput.self, body)
        if route == .setSeed, input.seed == nil {
            throw ProxyError(.missingField, "missing required field: seed")
        }
        return (route == .setSeed ? nil : input.profile, input.seed)
    }

    /// `POST /proxies/{proxy}/routes`: `{"routes": ["PATTERN=ACTION", …]}`, each rule read as
    /// `lowband proxy --route` reads it; an empty list removes every rule.
    static func routes(_ body: [UInt8], endpoint: String) throws(ProxyError) -> [ProxyRoute] {
        try checkKeys(body, .setRoutes, endpoint: endpoint)
        let input = try decode(RoutesInput.self, body)
        guard input.routes.count <= RouteTable.maximumRules else {
            throw ProxyError(.badRequest, "\(input.routes.count) routes in the body of \(endpoint); at most \(RouteTable.maximumRules) are kept")
        }
        var routes: [ProxyRoute] = []
        for (index, text) in input.routes.enumerated() {
            do {
                routes.append(try ProxyRoute(parsing: text))
            } catch {
                throw ProxyError(.badRequest, "route \(index + 1) in the body of \(endpoint): \(error.message)")
            }
        }
        return routes
    }

    /// The longest outage the API forces at once: an hour.
    public static let maximumOutageSeconds = 3_600.0

    /// `POST /proxies/{proxy}/outage`: `{"seconds": 5}` or `{"seconds": 2, "kind": "handover"}`.
    static func outage(_ body: [UInt8], endpoint: String) throws(ProxyError) -> (seconds: Double, kind: String) {
        try checkKeys(body, .forceOutage, endpoint: endpoint)
        let input = try decode(OutageInput.self, body)
        guard let seconds = input.seconds else {
            throw ProxyError(.missingField, "missing required field: seconds")
        }
        guard seconds.isFinite, seconds > 0, seconds <= maximumOutageSeconds else {
            throw ProxyError(.badRequest, "seconds must be more than 0 and at most \(Int(maximumOutageSeconds)) in the body of \(endpoint), not \(seconds)")
        }
        let kind = input.kind ?? "outage"
        guard ["outage", "handover"].contains(kind) else {
            throw ProxyError(.badRequest, "kind must be 'outage' or 'handover' in the body of \(endpoint), not '\(kind)'")
        }
        return (seconds, kind)
    }

    /// `POST /record`: `{"paused": true}` pauses the session's record, `false` resumes it.
    static func record(_ body: [UInt8], endpoint: String) throws(ProxyError) -> Bool {
        try checkKeys(body, .setRecord, endpoint: endpoint)
        guard let paused = try decode(RecordInput.self, body).paused else {
            throw ProxyError(.missingField, "missing required field: paused")
        }
        return paused
    }

    // MARK: Checks

    /// Refuses a key `route` does not know, naming it, the endpoint and the keys it knows. The
    /// keys are sorted first, so the one named does not depend on hashing.
    private static func checkKeys(_ body: [UInt8], _ route: Route, endpoint: String) throws(ProxyError) {
        let objects = route == .populate ? try decode([BodyKeys].self, body) : [try decode(BodyKeys.self, body)]
        let known = route.knownKeys
        for (index, object) in objects.enumerated() {
            guard let unknown = object.keys.first(where: { !known.contains($0) }) else { continue }
            let place = route == .populate ? "proxy \(index + 1) in the body" : "the body"
            throw ProxyError(
                .badRequest,
                "unknown key '\(unknown)' in \(place) of \(endpoint); known keys: \(known.joined(separator: ", "))")
        }
    }

    /// What `POST /proxies` requires: a name, an upstream, endpoints that parse.
    private static func checkNew(_ specification: ProxySpecification) throws(ProxyError) {
        guard let name = specification.name, !name.isEmpty else {
            throw ProxyError(.missingField, "missing required field: name")
        }
        guard let upstream = specification.upstream, !upstream.isEmpty else {
            throw ProxyError(.missingField, "missing required field: upstream")
        }
        try checkEndpoints(specification)
    }

    private static func checkEndpoints(_ specification: ProxySpecification) throws(ProxyError) {
        for text in [specification.listen, specification.upstream].compactMap({ $0 }) where !text.isEmpty {
            _ = try ProxyEndpoint(parsing: text)
        }
    }

    static func decode<Value: Decodable>(_ type: Value.Type, _ body: [UInt8]) throws(ProxyError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch let error as ProxyError {
            // A field's own check (a seed out of range) says it better than the decoder would.
            throw error
        } catch {
            throw ProxyError(.badRequest, "bad request body: \(describe(error))")
        }
    }

    /// A decoding error in words a client can act on: the field and what was wrong with it.
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return context.debugDescription
        case DecodingError.keyNotFound(let key, _):
            return "missing field '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "\(path.isEmpty ? "body" : "field '\(path)'"): \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }
}
