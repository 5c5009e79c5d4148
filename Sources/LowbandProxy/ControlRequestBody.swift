import Foundation

/// A control API request body, decoded and checked as far as its route can check it without a
/// proxy: toxiproxy's field rules, endpoints that parse, toxics whose attributes are in range.
///
/// It needs no socket and no registry, so any bytes can be tried against it (the `control-body`
/// fuzz target in Fuzz/ does). Every failure is a ``ProxyError`` with HTTP status 400 and
/// toxiproxy's wording (`bad request body: …`, `missing required field: name`); what depends on
/// the registry (a proxy that exists, a profile name it knows) is left to the route.
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

    /// The routes that take a JSON body.
    public enum Route: String, Hashable, Sendable, CaseIterable {
        case createProxy, updateProxy, populate, addToxic, updateToxic, setProfile, setSeed
    }

    /// Decodes `body` as `route` reads it and checks what needs no proxy.
    ///
    /// - Throws: ``ProxyError`` — `badRequest` for JSON that is not the route's shape,
    ///   `missingField`, `badEndpoint`, `invalidStream`, `invalidToxicType`, `invalidAttribute`.
    public init(decoding body: [UInt8], for route: Route) throws(ProxyError) {
        switch route {
        case .createProxy:
            let specification = try Self.decode(ProxySpecification.self, body)
            try Self.checkNew(specification)
            self = .proxy(specification)
        case .updateProxy:
            let specification = try Self.decode(ProxySpecification.self, body)
            try Self.checkEndpoints(specification)
            self = .proxy(specification)
        case .populate:
            let specifications = try Self.decode([ProxySpecification].self, body)
            for specification in specifications { try Self.checkNew(specification) }
            self = .proxies(specifications)
        case .addToxic:
            self = .toxic(try Self.decode(ToxicInput.self, body).toxic().validated())
        case .updateToxic:
            // The attributes are checked by the proxy, against the toxic they are merged into.
            let update = try Self.decode(ToxicUpdate.self, body)
            if let toxicity = update.toxicity, !toxicity.isFinite {
                throw ProxyError(.invalidAttribute, "toxicity must be a number between 0 and 1")
            }
            self = .toxicUpdate(attributes: update.attributes ?? [:], toxicity: update.toxicity)
        case .setProfile, .setSeed:
            let input = try Self.decode(LinkInput.self, body)
            if route == .setSeed, input.seed == nil {
                throw ProxyError(.missingField, "missing required field: seed")
            }
            self = .link(profile: route == .setSeed ? nil : input.profile, seed: input.seed)
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
