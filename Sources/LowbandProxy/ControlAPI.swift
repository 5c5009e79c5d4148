import Foundation
package import LowbandAppEvents
import LowbandBasics
package import LowbandProxyCore
import LowbandShaper

/// A control request with its body read in full (capped by the server).
struct ControlRequest: Sendable {
    var method: String
    /// The path without the query, percent-decoded per segment.
    var segments: [String]
    var query: [String: String]
    var body: [UInt8]

    /// `POST /proxies/lowband/profile`: the request as error messages name it.
    var endpoint: String {
        "\(method) /\(segments.joined(separator: "/"))"
    }
}

/// What the server sends back.
enum ControlResponse: Sendable {
    /// A JSON body with this status.
    case json(status: Int, body: [UInt8])
    /// A text body (`/metrics`) with this status and content type.
    case text(status: Int, contentType: String, body: [UInt8])
    /// 204 No Content.
    case noContent
    /// A stream of the proxy's events as JSON lines, `limit` of them at most.
    case events(ShapingProxy, limit: Int?)

    static func error(_ error: ProxyError) -> ControlResponse {
        .json(status: error.code.httpStatus, body: ControlAPI.encode(APIError(error: error.message, status: error.code.httpStatus)))
    }
}

/// Toxiproxy's error body: `{"error": "...", "status": 404}`.
package struct APIError: Codable, Hashable {
    package var error: String
    package var status: Int

    package init(error: String, status: Int) {
        self.error = error
        self.status = status
    }
}

/// The routes of toxiproxy's HTTP API (v2) plus Lowband's own, over a ``ProxyRegistry``.
///
/// Toxiproxy: `GET /version`, `POST /reset`, `GET|POST /proxies`, `POST /populate`,
/// `GET|POST|PATCH|DELETE /proxies/{proxy}`, `GET|POST /proxies/{proxy}/toxics`,
/// `GET|POST|PATCH|DELETE /proxies/{proxy}/toxics/{toxic}`, `GET|POST /proxies/{proxy}/routes`,
/// `GET /proxies/{proxy}/connections`, `DELETE /proxies/{proxy}/connections/{number}` (reset it),
/// `POST /proxies/{proxy}/outage`.
/// Lowband: `GET /profiles`, `GET|POST /proxies/{proxy}/profile` (`{"profile": "edge", "seed": 7}`),
/// `POST /proxies/{proxy}/seed` (`{"seed": 8}`), `GET /proxies/{proxy}/stats`,
/// `GET /proxies/{proxy}/events[?limit=N]` (chunked JSON lines), and `GET /metrics` (Prometheus
/// text, with toxiproxy's byte counters; see ``ProxyMetrics``).
package struct ControlAPI: Sendable {
    let registry: ProxyRegistry
    let version: String
    /// The profiles requests may load.
    var profiles = APIProfileAccess()
    /// Where details the API does not answer with go (the proxy's stderr in `lowband proxy`).
    var log: @Sendable (String) -> Void = { _ in }
    /// Where `POST /events` puts an app's events; nil: the API takes none (404).
    var events: AppEventLog?
    /// The live page's token; nil: no page (404).
    var pageToken: String?
    /// The session record's switch; nil: no record (404).
    var record: RecordSwitch?

    func respond(to request: ControlRequest) async -> ControlResponse {
        do {
            return try await route(request)
        } catch {
            return .error(error)
        }
    }

    private func route(_ request: ControlRequest) async throws(ProxyError) -> ControlResponse {
        let method = request.method
        let path = request.segments
        switch path.count {
        case 1 where path[0] == "version":
            try allow(method, ["GET"])
            return .json(status: 200, body: Self.encode(["version": version]))

        case 1 where path[0] == "metrics":
            try allow(method, ["GET"])
            let samples = await registry.metricsSamples()
            return .text(status: 200, contentType: ProxyMetrics.contentType, body: ProxyMetrics.exposition(samples))

        case 1 where path[0] == "reset":
            try allow(method, ["POST"])
            try await registry.reset()
            return .noContent

        case 1 where path[0] == "events":
            return try appEvents(request)

        case 1 where path[0] == "profiles":
            try allow(method, ["GET"])
            return .json(status: 200, body: Self.encode(registry.configuration.availableProfiles()))

        case 1 where path[0] == "ui":
            try allow(method, ["GET"])
            guard let pageToken else {
                throw ProxyError(.routeNotFound, "no live page: `lowband proxy` serves one at /ui with the token it prints at start")
            }
            guard let given = request.query["token"], BrowserGate.same(given, pageToken) else {
                throw ProxyError(.init(name: "forbidden", httpStatus: 403), "the live page needs the token `lowband proxy` printed at start: /ui?token=…")
            }
            return .text(status: 200, contentType: "text/html; charset=utf-8", body: Array(LivePage.html(await firstView()).utf8))

        case 1 where path[0] == "record":
            try allow(method, ["GET", "POST"])
            guard let record else {
                throw ProxyError(.routeNotFound, "no record runs: start `lowband proxy` with --record DIR")
            }
            if method == "POST" {
                record.set(paused: try ControlRequestBody.record(request.body, endpoint: request.endpoint))
            }
            return .json(status: 200, body: Self.encode(["paused": record.isPaused]))

        case 1 where path[0] == "proxies":
            try allow(method, ["GET", "POST"])
            if method == "GET" {
                let all = await registry.list()
                return .json(status: 200, body: Self.encodeProxyMap(all))
            }
            let specification = try ControlRequestBody.proxy(request.body, new: true, endpoint: request.endpoint)
            return .json(status: 201, body: Self.encode(try await registry.create(specification)))

        case 1 where path[0] == "populate":
            try allow(method, ["POST"])
            let specifications = try ControlRequestBody.proxies(request.body, endpoint: request.endpoint)
            let (proxies, error) = await registry.populate(specifications)
            let body = PopulateResult(proxies: proxies, error: error?.message, status: error?.code.httpStatus)
            return .json(status: error?.code.httpStatus ?? 201, body: Self.encode(body))

        case 2 where path[0] == "proxies":
            try allow(method, ["GET", "POST", "PATCH", "DELETE"])
            switch method {
            case "GET":
                return .json(status: 200, body: Self.encode(try await registry.describe(named: path[1])))
            case "DELETE":
                try await registry.delete(named: path[1])
                return .noContent
            default:
                _ = try await registry.proxy(named: path[1])
                let specification = try ControlRequestBody.proxy(request.body, new: false, endpoint: request.endpoint)
                return .json(status: 200, body: Self.encode(try await registry.update(named: path[1], specification)))
            }

        case 3 where path[0] == "proxies":
            return try await proxyResource(request, proxy: path[1], resource: path[2])

        case 4 where path[0] == "proxies" && path[2] == "toxics":
            try allow(method, ["GET", "POST", "PATCH", "DELETE"])
            let proxy = try await registry.proxy(named: path[1])
            let name = path[3]
            switch method {
            case "GET":
                guard let toxic = try await proxy.toxics.first(where: { $0.name == name }) else {
                    throw ProxyError(.toxicNotFound, "toxic not found: '\(name)'")
                }
                return .json(status: 200, body: Self.encode(toxic))
            case "DELETE":
                try await proxy.removeToxic(named: name)
                return .noContent
            default:
                let update = try ControlRequestBody.toxicUpdate(request.body, endpoint: request.endpoint)
                let toxic = try await proxy.updateToxic(named: name, attributes: update.attributes, toxicity: update.toxicity)
                return .json(status: 200, body: Self.encode(toxic))
            }

        case 4 where path[0] == "proxies" && path[2] == "connections":
            try allow(method, ["DELETE"])
            let proxy = try await registry.proxy(named: path[1])
            guard let number = Int(path[3]), try await proxy.reset(connection: number) else {
                throw ProxyError(.connectionNotFound, "connection not found: '\(path[3])' (GET /proxies/\(path[1])/connections lists the open ones)")
            }
            return .noContent

        default:
            throw ProxyError(.routeNotFound, "no such endpoint: \(method) /\(path.joined(separator: "/"))")
        }
    }

    /// `POST /events`: JSON lines of app events, stamped on arrival; `GET /events`: those kept.
    private func appEvents(_ request: ControlRequest) throws(ProxyError) -> ControlResponse {
        try allow(request.method, ["GET", "POST"])
        guard let events else {
            throw ProxyError(.routeNotFound, "this API records no app events: they are taken while `lowband explore --exec` runs a command (docs/APP-EVENTS.md)")
        }
        let answer = try Self.appEvents(method: request.method, body: request.body, into: events)
        return answer.contentType == "application/json" ? .json(status: answer.status, body: answer.body) : .text(status: answer.status, contentType: answer.contentType, body: answer.body)
    }

    /// `GET /events` (the events kept, as JSON lines) or `POST /events` (JSON lines appended to
    /// `events`): the answer, or the error. `lowband shell --api` answers with it too.
    package static func appEvents(method: String, body: [UInt8], into events: AppEventLog) throws(ProxyError) -> (status: Int, contentType: String, body: [UInt8]) {
        if method == "GET" {
            let lines = events.events.map { AppEventReader.line($0) + "\n" }.joined()
            return (200, "application/x-ndjson", Array(lines.utf8))
        }
        guard let text = String(validating: body, as: UTF8.self) else {
            throw ProxyError(.badRequest, "the body of POST /events is not UTF-8 text: send JSON lines (docs/APP-EVENTS.md)")
        }
        let outcome: AppEventLog.Outcome
        do {
            outcome = try events.append(lines: text)
        } catch {
            throw ProxyError(.badRequest, "POST /events, \(error); nothing of this request was kept")
        }
        if outcome.dropped > 0 {
            throw ProxyError(
                .tooManyEvents,
                "POST /events: \(outcome.dropped) of \(outcome.accepted + outcome.dropped) events dropped: at most \(events.limits.perSecond) a second (\(events.limits.total) in all) are kept; \(events.dropped) dropped so far")
        }
        return (200, "application/json", encode(["accepted": outcome.accepted, "dropped": outcome.dropped]))
    }

    private func proxyResource(_ request: ControlRequest, proxy name: String, resource: String) async throws(ProxyError) -> ControlResponse {
        let method = request.method
        switch resource {
        case "toxics":
            try allow(method, ["GET", "POST"])
            let proxy = try await registry.proxy(named: name)
            if method == "GET" {
                return .json(status: 200, body: Self.encode(try await proxy.toxics))
            }
            let toxic = try ControlRequestBody.toxic(request.body, endpoint: request.endpoint)
            return .json(status: 200, body: Self.encode(try await proxy.addToxic(toxic)))

        case "profile", "seed":
            try allow(method, resource == "profile" ? ["GET", "POST"] : ["POST"])
            if method == "GET" {
                return .json(status: 200, body: Self.encode(try await registry.describe(named: name)))
            }
            _ = try await registry.proxy(named: name)
            let input = try ControlRequestBody.link(request.body, route: resource == "seed" ? .setSeed : .setProfile, endpoint: request.endpoint)
            return .json(status: 200, body: Self.encode(try await setLink(of: name, profile: input.profile, seed: input.seed)))

        case "routes":
            try allow(method, ["GET", "POST"])
            let proxy = try await registry.proxy(named: name)
            if method == "POST" {
                let rules = try ControlRequestBody.routes(request.body, endpoint: request.endpoint)
                try await proxy.setRoutes(try loadRoutes(rules, for: name))
            }
            return .json(status: 200, body: Self.encode(RoutesInput(routes: try await proxy.routes.map(\.description))))

        case "connections":
            try allow(method, ["GET"])
            let proxy = try await registry.proxy(named: name)
            return .json(status: 200, body: Self.encode(ConnectionsOutput(link: try await proxy.linkState, connections: try await proxy.connections)))

        case "outage":
            try allow(method, ["POST"])
            let proxy = try await registry.proxy(named: name)
            let outage = try ControlRequestBody.outage(request.body, endpoint: request.endpoint)
            // The state the outage left, not one read later: a short outage may be over by then.
            let state = try await proxy.forceOutageThenState(for: .milliseconds(Int64((outage.seconds * 1000).rounded())), kind: outage.kind)
            return .json(status: 200, body: Self.encode(state))

        case "stats":
            try allow(method, ["GET"])
            let statistics = await (try await registry.proxy(named: name)).statistics
            return .json(status: 200, body: Self.encode(StatisticsJSON(statistics)))

        case "events":
            try allow(method, ["GET"])
            let proxy = try await registry.proxy(named: name)
            var limit: Int?
            if let text = request.query["limit"] {
                guard let value = Int(text), value > 0 else {
                    throw ProxyError(.badRequest, "limit must be a positive integer (got '\(text)')")
                }
                limit = value
            }
            return .events(proxy, limit: limit)

        default:
            throw ProxyError(.routeNotFound, "no such endpoint: \(method) /proxies/\(name)/\(resource)")
        }
    }

    /// Switches a proxy's link to a profile the API may load. A profile that cannot be loaded
    /// gets one generic answer naming what was asked for: the loader's message can quote the
    /// file, so it goes to ``log`` only.
    private func setLink(of name: String, profile: String?, seed: UInt64?) async throws(ProxyError) -> ProxyDescription {
        guard let profile else {
            return try await registry.setLink(named: name, profile: nil, seed: seed)
        }
        let refusal = ProxyError(
            .unknownProfile,
            "'\(profile)' is not a valid profile: give a name from GET /profiles, or a .yaml file under a directory the proxy was started with --api-profile-dir"
        )
        guard profiles.allows(profile) else {
            log("control API: refused profile '\(profile)' for proxy '\(name)': not a profile name and not under an --api-profile-dir")
            throw refusal
        }
        do {
            return try await registry.setLink(named: name, profile: profile, seed: seed)
        } catch where error.code == .unknownProfile {
            log("control API: cannot load profile '\(profile)' for proxy '\(name)': \(error.message)")
            throw refusal
        }
    }

    /// Loads the profiles `rules` name, as ``setLink(of:profile:seed:)`` may: a shipped name, or
    /// a file under an `--api-profile-dir`.
    private func loadRoutes(_ rules: [ProxyRoute], for name: String) throws(ProxyError) -> ProxyRoutes {
        for rule in rules {
            guard case .path(let profile) = rule.action, !profiles.allows(profile) else { continue }
            log("control API: refused route '\(rule)' for proxy '\(name)': its profile is not a profile name and not under an --api-profile-dir")
            throw ProxyError(
                .unknownProfile,
                "route '\(rule)': '\(profile)' is not a valid profile: give a name from GET /profiles, 'direct', 'block', or a .yaml file under a directory the proxy was started with --api-profile-dir")
        }
        // Each profile alone first, so the refusal names its rule (the loader's own message
        // can quote the file, so it goes to the log only).
        for rule in rules {
            guard case .path(let profile) = rule.action else { continue }
            do {
                _ = try ProxyRoutes([rule])
            } catch {
                log("control API: cannot load the profile of route '\(rule)' for proxy '\(name)': \(error.message)")
                throw ProxyError(
                    .unknownProfile,
                    "route '\(rule)': '\(profile)' is not a valid profile: give a name from GET /profiles, 'direct', 'block', or a .yaml file under an --api-profile-dir")
            }
        }
        return try ProxyRoutes(rules)
    }

    /// The live page's first view: the first proxy (by name) as it is now, its connections, the
    /// profiles, and whether a record runs.
    private func firstView() async -> LivePage.FirstView {
        let proxies = await registry.list().sorted { $0.name < $1.name }
        let profiles = registry.configuration.availableProfiles()
        guard let first = proxies.first else {
            return LivePage.FirstView(proxies: [], proxy: nil, profile: "no proxy yet", seed: 0, link: nil, profiles: profiles, recording: record?.isPaused)
        }
        let proxy = try? await registry.proxy(named: first.name)
        let link = try? await proxy?.linkState
        let connections = (try? await proxy?.connections) ?? []
        return LivePage.FirstView(
            proxies: proxies.map(\.name), proxy: first.name, profile: first.profile.isEmpty ? "perfect" : first.profile, seed: first.seed, link: link,
            profiles: profiles, connections: connections, recording: record?.isPaused)
    }

    private func allow(_ method: String, _ methods: [String]) throws(ProxyError) {
        guard methods.contains(method) else {
            throw ProxyError(.methodNotAllowed, "method \(method) not allowed here; use \(methods.joined(separator: ", "))")
        }
    }

    // MARK: JSON

    package static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain structs cannot fail.
        return Array((try? encoder.encode(value)) ?? Data("null".utf8))
    }

    /// `GET /proxies` answers an object keyed by name, as toxiproxy does; keys sorted.
    static func encodeProxyMap(_ proxies: [ProxyDescription]) -> [UInt8] {
        var bytes = Array("{".utf8)
        for (index, proxy) in proxies.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += Array(JSONString.quoted(proxy.name).utf8)
            bytes.append(UInt8(ascii: ":"))
            bytes += encode(proxy)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
