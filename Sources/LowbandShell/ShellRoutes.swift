import Foundation
package import LowbandAppEvents
import LowbandBasics
package import LowbandProxy
import LowbandProxyCore
package import LowbandShaper

/// What `lowband shell --api` offers beyond its figures, and what it needs for that.
package struct ShellAPIOptions: Sendable {
    /// The live page's token (`GET /ui?token=…`); browsers are served only with it.
    package var pageToken: String
    /// Loads a profile a request names (a name from `GET /profiles`).
    package var loadProfile: @Sendable (String) throws -> NetworkProfile
    /// The profile names `GET /profiles` answers.
    package var profileNames: @Sendable () -> [String]
    /// Where `POST /events` puts an app's events (with `--record`); nil: none taken (404).
    package var events: AppEventLog?
    /// The record's switch (with `--record`); nil: `/record` answers 404.
    package var record: RecordSwitch?
    /// Where details kept out of answers go (why a profile could not be loaded).
    package var log: @Sendable (String) -> Void

    package init(
        pageToken: String, loadProfile: @escaping @Sendable (String) throws -> NetworkProfile, profileNames: @escaping @Sendable () -> [String],
        events: AppEventLog? = nil, record: RecordSwitch? = nil, log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.pageToken = pageToken
        self.loadProfile = loadProfile
        self.profileNames = profileNames
        self.events = events
        self.record = record
        self.log = log
    }
}

/// The routes of `lowband shell --api` in the proxy's shapes, for its one link, named
/// ``linkName``: `GET /proxies`, `GET /proxies/shell`, `GET|POST /proxies/shell/profile`,
/// `POST /proxies/shell/seed`, `POST /proxies/shell/outage`, `GET /proxies/shell/connections`
/// (the link's state, no connections), `DELETE /proxies/shell/connections[/{number}]` (reset
/// one TCP connection, or every live one), `GET|POST /proxies/shell/toxics`,
/// `GET|POST|PATCH|DELETE /proxies/shell/toxics/{toxic}`, `GET /profiles`, `GET|POST /record`,
/// `GET|POST /events`, `GET /ui?token=…`; bodies decoded by the proxy's ``ControlRequestBody``,
/// errors as its `{"error": …, "status": …}`. `GET /proxies/shell/events` (a stream) is the
/// server's (``ShellAPI``). The shell's own `GET /stats`, `GET /metrics` and `POST /outage`
/// stay as they were.
struct ShellRoutes: Sendable {
    /// The name of the shell's link in the proxy's routes.
    static let linkName = "shell"

    let observer: ShellObserver
    let options: ShellAPIOptions

    /// An answer: status, content type, body.
    struct Answer {
        var status: Int
        var type: String
        var body: [UInt8]

        static func json(_ status: Int, _ value: some Encodable) -> Answer {
            Answer(status: status, type: "application/json", body: ControlAPI.encode(value))
        }
    }

    func respond(method: String, segments: [String], query: [String: String], body: [UInt8]) -> Answer {
        do {
            return try route(method: method, segments: segments, query: query, body: body)
        } catch {
            return .json(error.code.httpStatus, APIError(error: error.message, status: error.code.httpStatus))
        }
    }

    private func route(method: String, segments path: [String], query: [String: String], body: [UInt8]) throws(ProxyError) -> Answer {
        let endpoint = "\(method) /\(path.joined(separator: "/"))"
        switch path.count {
        case 1 where path[0] == "profiles":
            try allow(method, ["GET"])
            return .json(200, options.profileNames())
        case 1 where path[0] == "proxies":
            try allow(method, ["GET"])
            return .json(200, [Self.linkName: description])
        case 1 where path[0] == "record":
            try allow(method, ["GET", "POST"])
            guard let record = options.record else {
                throw ProxyError(.routeNotFound, "no record runs: start `lowband shell` with --record DIR")
            }
            if method == "POST" {
                guard case .record(let paused) = try ControlRequestBody(decoding: body, for: .setRecord, endpoint: endpoint) else { break }
                record.set(paused: paused)
            }
            return .json(200, ["paused": record.isPaused])
        case 1 where path[0] == "events":
            return try appEvents(method: method, body: body)
        case 1 where path[0] == "ui":
            try allow(method, ["GET"])
            guard let given = query["token"], BrowserGate.same(given, options.pageToken) else {
                throw ProxyError(.init(name: "forbidden", httpStatus: 403), "the live page needs the token `lowband shell` printed at start: /ui?token=…")
            }
            return Answer(status: 200, type: "text/html; charset=utf-8", body: Array(LivePage.html(firstView).utf8))
        case 2... where path[0] == "proxies":
            guard path[1] == Self.linkName else {
                throw ProxyError(.proxyNotFound, "proxy not found: '\(path[1])' (the shell's link is '\(Self.linkName)')")
            }
            return try link(method: method, rest: Array(path.dropFirst(2)), query: query, body: body, endpoint: endpoint)
        default:
            break
        }
        throw ProxyError(.routeNotFound, "no such endpoint: \(endpoint)")
    }

    /// `/proxies/shell[/…]`.
    private func link(method: String, rest: [String], query: [String: String], body: [UInt8], endpoint: String) throws(ProxyError) -> Answer {
        switch rest.first {
        case nil:
            try allow(method, ["GET"])
            return .json(200, description)
        case "profile" where rest.count == 1, "seed" where rest.count == 1:
            try allow(method, rest[0] == "profile" ? ["GET", "POST"] : ["POST"])
            if method == "POST" {
                guard case .link(let name, let seed) = try ControlRequestBody(decoding: body, for: rest[0] == "seed" ? .setSeed : .setProfile, endpoint: endpoint) else { break }
                try setLink(profile: name, seed: seed)
            }
            return .json(200, description)
        case "outage" where rest.count == 1:
            try allow(method, ["POST"])
            guard case .outage(let seconds, let kind) = try ControlRequestBody(decoding: body, for: .forceOutage, endpoint: endpoint) else { break }
            let until = observer.elapsed + seconds
            observer.send(.outage(kind == "handover" ? .handover : .blackout, .nanoseconds(Int64((seconds * 1e9).rounded()))))
            // The loop applies it at once; the answer says what it will say.
            var state = linkState
            if until > state.untilSeconds ?? 0 {
                state.down = true
                state.untilSeconds = until
                state.forced = kind
            }
            return .json(200, state)
        case "connections" where rest.count == 1:
            try allow(method, ["GET", "DELETE"])
            if method == "DELETE" {
                // Every TCP connection not over yet: the proxy resets all only from a fault; the
                // shell offers it here, in the shape of the one-connection route below.
                observer.send(.reset(connection: nil, reason: try Self.resetReason(query)))
                return Answer(status: 204, type: "application/json", body: [])
            }
            return .json(200, ConnectionsOutput(link: linkState, connections: []))
        case "connections" where rest.count == 2:
            try allow(method, ["DELETE"])
            guard let number = Int(rest[1]), observer.snapshot.liveConnections.contains(number) else {
                throw ProxyError(.connectionNotFound, "connection not found: '\(rest[1])' (the trace's `open` lines number the TCP connections; one over is not reset)")
            }
            observer.send(.reset(connection: number, reason: try Self.resetReason(query)))
            return Answer(status: 204, type: "application/json", body: [])
        case "stats" where rest.count == 1:
            try allow(method, ["GET"])
            return Answer(status: 200, type: "application/json", body: Array(observer.snapshot.json.utf8))
        case "toxics" where rest.count == 1:
            try allow(method, ["GET", "POST"])
            if method == "GET" { return .json(200, observer.snapshot.toxics) }
            try refuseUnplayedType(body)
            guard case .toxic(let toxic) = try ControlRequestBody(decoding: body, for: .addToxic, endpoint: endpoint) else { break }
            try PacketToxics.check(toxic)
            try changeToxics(verb: "added", toxic) { (list: inout [Toxic]) throws(ProxyError) in
                guard !list.contains(where: { $0.name == toxic.name }) else { throw ProxyError(.toxicExists, "toxic already exists: '\(toxic.name)'") }
                list.append(toxic)
            }
            return .json(200, toxic)
        case "toxics" where rest.count == 2:
            try allow(method, ["GET", "POST", "PATCH", "DELETE"])
            let name = rest[1]
            guard var toxic = observer.snapshot.toxics.first(where: { $0.name == name }) else {
                throw ProxyError(.toxicNotFound, "toxic not found: '\(name)'")
            }
            switch method {
            case "GET":
                return .json(200, toxic)
            case "DELETE":
                try changeToxics(verb: "removed", toxic) { (list: inout [Toxic]) throws(ProxyError) in list.removeAll { $0.name == name } }
                return Answer(status: 204, type: "application/json", body: [])
            default:
                guard case .toxicUpdate(let attributes, let toxicity) = try ControlRequestBody(decoding: body, for: .updateToxic, endpoint: endpoint) else { break }
                toxic.attributes.merge(attributes) { _, new in new }
                if let toxicity { toxic.toxicity = toxicity }
                toxic = try toxic.validated()
                try PacketToxics.check(toxic)
                let updated = toxic
                try changeToxics(verb: "updated", updated) { (list: inout [Toxic]) throws(ProxyError) in
                    guard let index = list.firstIndex(where: { $0.name == name }) else { throw ProxyError(.toxicNotFound, "toxic not found: '\(name)'") }
                    list[index] = updated
                }
                return .json(200, updated)
            }
        default:
            break
        }
        throw ProxyError(.routeNotFound, "no such endpoint: \(endpoint)")
    }

    /// The trace's words for why a connection was reset: `?reason=` (at most
    /// ``maximumReasonLength`` characters; `explore --shell` names its fault there), else the API.
    static func resetReason(_ query: [String: String]) throws(ProxyError) -> String {
        guard let reason = query["reason"], !reason.isEmpty else { return "reset through the control API" }
        guard reason.count <= maximumReasonLength, !reason.contains(where: \.isNewline) else {
            throw ProxyError(.badRequest, "?reason= must be one line of at most \(maximumReasonLength) characters")
        }
        return reason
    }

    /// The longest `?reason=` a reset takes.
    static let maximumReasonLength = 200

    /// A toxic of a type the shell does not play is refused for that, before its attributes are
    /// checked (a slicer with none would otherwise be told about its sizes).
    private func refuseUnplayedType(_ body: [UInt8]) throws(ProxyError) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any], let type = object["type"] as? String,
              ToxicType.all.map(\.rawValue).contains(type), type != ToxicType.timeout.rawValue else { return }
        let name = (object["name"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "\(type)_\(object["stream"] as? String ?? "downstream")"
        try PacketToxics.check(Toxic(name: name, type: ToxicType(rawValue: type)))
    }

    /// Changes the toxics under the observer's lock and sends the new list to the loop, with
    /// the trace's words for the change (`added NAME: TYPE key=value…`).
    private func changeToxics(verb: String, _ toxic: Toxic, _ change: (inout [Toxic]) throws(ProxyError) -> Void) throws(ProxyError) {
        var list: [Toxic] = []
        try observer.update { (snapshot: inout ShellSnapshot) throws(ProxyError) in
            try change(&snapshot.toxics)
            list = snapshot.toxics
        }
        let words = ProxyEvent(toxic: toxic, kind: .toxicAdded, time: .zero).detail ?? toxic.name
        observer.send(.toxics(list, change: "\(verb) \(words)", stream: toxic.stream))
    }

    /// Switches the link: the profile (by name, as the proxy's API loads it) and the seed; either
    /// may be left out. The loader's message can quote a file, so it goes to the log only.
    private func setLink(profile name: String?, seed: UInt64?) throws(ProxyError) {
        let current = observer.snapshot
        var profile = current.networkProfile
        if let name {
            let refusal = ProxyError(.unknownProfile, "'\(name)' is not a valid profile: give a name from GET /profiles")
            // Names only: a path would let an API client open any file.
            guard !name.contains("/"), !name.hasSuffix(".yaml"), !name.hasSuffix(".yml") else { throw refusal }
            do {
                profile = try options.loadProfile(name)
            } catch {
                options.log("control API: cannot load profile '\(name)': \(error)")
                throw refusal
            }
        }
        guard let profile else { throw ProxyError(.notRunning, "the shell's link has not started yet") }
        let newSeed = seed ?? current.seed
        observer.update { snapshot in
            snapshot.profile = profile.name
            snapshot.seed = newSeed
            snapshot.networkProfile = profile
        }
        observer.send(.link(profile, seed: newSeed))
    }

    /// `POST /events`: an app's events as JSON lines, while a record runs; `GET /events`: those kept.
    private func appEvents(method: String, body: [UInt8]) throws(ProxyError) -> Answer {
        try allow(method, ["GET", "POST"])
        guard let events = options.events else {
            throw ProxyError(.routeNotFound, "this shell records no app events: start it with --record DIR (docs/APP-EVENTS.md)")
        }
        let answer = try ControlAPI.appEvents(method: method, body: body, into: events)
        return Answer(status: answer.status, type: answer.contentType, body: answer.body)
    }

    /// The link as `GET /proxies/shell` shows it, in the proxy's shape.
    var description: ProxyDescription {
        let snapshot = observer.snapshot
        return ProxyDescription(
            name: Self.linkName, listen: "tap0", upstream: "\(ShellNetwork.host) and beyond, through libslirp", enabled: true,
            toxics: snapshot.toxics, profile: snapshot.profile, seed: snapshot.seed)
    }

    /// The link's state in the proxy's shape: down while a forced outage lasts, the queues,
    /// the profile's figures each way, the radio.
    var linkState: ProxyLinkState {
        let snapshot = observer.snapshot
        let now = observer.elapsed
        let forced = snapshot.forced.flatMap { $0.until > now ? $0 : nil }
        var state = ProxyLinkState(
            down: forced != nil, untilSeconds: forced?.until, forced: forced?.kind,
            queuedUpstreamBytes: snapshot.queuedBytes[0], queuedDownstreamBytes: snapshot.queuedBytes[1])
        state.uplink = snapshot.networkProfile.map { ProxyLinkFigures($0.uplink) }
        state.downlink = snapshot.networkProfile.map { ProxyLinkFigures($0.downlink) }
        state.radioState = snapshot.radio?.state
        state.radioJoules = snapshot.radio?.joules
        return state
    }

    /// The live page as the server renders it, before its scripts run.
    private var firstView: LivePage.FirstView {
        let snapshot = observer.snapshot
        func lane(_ lane: ShellStatistics.Lane) -> LivePage.FirstView.Frames.Lane {
            .init(offeredFrames: lane.offeredFrames, deliveredFrames: lane.deliveredFrames, deliveredBytes: lane.deliveredBytes, dropped: lane.dropped)
        }
        return LivePage.FirstView(
            link: Self.linkName, profile: snapshot.profile, seed: snapshot.seed, state: linkState, profiles: options.profileNames(),
            recording: options.record?.isPaused, frames: .init(upstream: lane(snapshot.statistics.upstream), downstream: lane(snapshot.statistics.downstream)),
            toxicTypes: PacketToxics.types.map(\.rawValue))
    }

    private func allow(_ method: String, _ methods: [String]) throws(ProxyError) {
        guard methods.contains(method) else {
            throw ProxyError(.methodNotAllowed, "method \(method) not allowed here; use \(methods.joined(separator: ", "))")
        }
    }
}
