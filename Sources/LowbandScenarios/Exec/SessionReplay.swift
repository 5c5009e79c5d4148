import Foundation
package import LowbandProxy
package import LowbandProxyCore
import LowbandAppEvents
import LowbandShaper

/// What `lowband proxy --replay DIR` plays again of a session `lowband proxy --record DIR`
/// recorded: the proxy's own command line (profile, seed, routes, listeners) and every change
/// made through the control API while it ran — profile and seed switches, toxics added, changed
/// and removed, forced outages and handovers, connections reset, rules replaced — each at its
/// recorded time from the session's start, read from the proxies' own events (network.jsonl).
package struct SessionReplay: Sendable {
    /// One change made through the control API, to play again.
    package struct Action: Sendable, Hashable {
        /// What it does.
        package enum Kind: Sendable, Hashable {
            case link(profile: String, seed: UInt64)
            case addToxic(Toxic)
            case updateToxic(Toxic)
            case removeToxic(String)
            case outage(Duration, kind: String)
            case reset(connection: Int)
            case routes([String])
        }

        /// When, from the session's start.
        package var at: Duration
        /// The proxy it was made on.
        package var proxy: String
        package var kind: Kind
        /// The proxy's own words for it, for the log.
        package var words: String
    }

    /// The recorded `lowband proxy` command's words after `lowband proxy`, without the options
    /// that would record over the evidence (`--record`, `--bound`, `--events`).
    package var arguments: [String]
    /// The changes to play, in time order.
    package var actions: [Action]
    /// What cannot be played again, in words (a proxy made through the API: its addresses are
    /// not in the record).
    package var skipped: [String]

    /// At most this many bytes of network.jsonl are read.
    package static let maximumBytes = 256 * 1024 * 1024

    /// Reads the session in `folder`.
    ///
    /// - Throws: ``SessionDocumentError`` saying in one line why the folder cannot be replayed.
    package static func read(folder: String) throws(SessionDocumentError) -> SessionReplay {
        let document = try SessionDocument.read(folder: folder)
        let recorded = document.recordedWith ?? document.command
        let words = CommandWords.split(recorded)
        guard words.count >= 2, words[0] == "lowband", words[1] == "proxy" else {
            let hint = words.count >= 2 && words[1] == "explore" ? ": it is a session of `lowband explore --exec`; run its command instead: \(recorded)" : ""
            throw SessionDocumentError("\(folder) was not recorded by `lowband proxy --record` (its command is '\(recorded.prefix(60))')\(hint)")
        }
        var arguments: [String] = []
        var index = 2
        let dropped: Set<String> = ["--record", "--bound", "--events", "--replay"]
        while index < words.count {
            if dropped.contains(words[index]) {
                index += 2
                continue
            }
            // `--record=DIR` is the same option in one word.
            if dropped.contains(where: { words[index].hasPrefix($0 + "=") }) {
                index += 1
                continue
            }
            arguments.append(words[index])
            index += 1
        }
        let main = value(of: "--name", in: arguments) ?? "lowband"
        let path = "\(folder)/network.jsonl"
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path), ((attributes[.size] as? NSNumber)?.intValue ?? 0) <= maximumBytes,
            let data = FileManager.default.contents(atPath: path)
        else {
            throw SessionDocumentError("\(path) is missing, unreadable or over \(maximumBytes) bytes: it holds what the proxies did, which a replay plays")
        }
        var actions: [Action] = []
        var skipped: Set<String> = []
        for (number, line) in String(decoding: data, as: UTF8.self).split(separator: "\n").enumerated() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let proxy = object["proxy"] as? String,
                let nanoseconds = (object["at_ns"] as? NSNumber)?.int64Value, let event = object["event"] as? [String: Any], let kind = event["event"] as? String
            else {
                throw SessionDocumentError("\(path): line \(number + 1) is not a proxy event ({\"proxy\", \"at_ns\", \"event\"})")
            }
            guard let action = action(kind, event) else { continue }
            guard proxy == main else {
                skipped.insert("proxy \(proxy) was made through the control API; its addresses are not in the record, so its changes are not played")
                continue
            }
            actions.append(Action(at: .nanoseconds(nanoseconds), proxy: proxy, kind: action, words: "\(kind): \((event["detail"] as? String) ?? "")"))
        }
        return SessionReplay(arguments: arguments, actions: actions.sorted { $0.at < $1.at }, skipped: skipped.sorted())
    }

    /// The change an event of the control API made, or nil for the link's own decisions.
    private static func action(_ kind: String, _ event: [String: Any]) -> Action.Kind? {
        let detail = event["detail"] as? String ?? ""
        let direction = (event["direction"] as? String).flatMap(Direction.init(rawValue:)) ?? .downstream
        switch kind {
        case "link":
            // `3g seed 4`
            let words = detail.split(separator: " ")
            guard words.count >= 3, words[words.count - 2] == "seed", let seed = UInt64(words[words.count - 1]) else { return nil }
            return .link(profile: words.dropLast(2).joined(separator: " "), seed: seed)
        case "toxic-added", "toxic-updated":
            guard let toxic = toxic(detail, direction) else { return nil }
            return kind == "toxic-added" ? .addToxic(toxic) : .updateToxic(toxic)
        case "toxic-removed":
            return detail.range(of: ": ").map { .removeToxic(String(detail[..<$0.lowerBound])) }
        case "outage-start":
            // Forced through the API: `outage forced for 2.716 s`; the profile's own are the profile's.
            guard detail.contains(" forced for "), NetworkRecord.faultTag(in: detail) == nil,
                let seconds = detail.components(separatedBy: " forced for ").last?.split(separator: " ").first.flatMap({ Double($0) })
            else { return nil }
            return .outage(.milliseconds(Int64((seconds * 1000).rounded())), kind: detail.hasPrefix("handover") ? "handover" : "outage")
        case "reset":
            guard detail.contains("control API"), let connection = (event["connection"] as? NSNumber)?.intValue else { return nil }
            return .reset(connection: connection)
        case "routes":
            return .routes(detail == "none" ? [] : detail.components(separatedBy: ", "))
        default:
            return nil
        }
    }

    /// A toxic from its event's words: `NAME: TYPE key=value… [toxicity T]`.
    private static func toxic(_ detail: String, _ direction: Direction) -> Toxic? {
        guard let colon = detail.range(of: ": ") else { return nil }
        let words = detail[colon.upperBound...].split(separator: " ").map(String.init)
        guard let type = words.first else { return nil }
        var attributes: [String: Int64] = [:]
        var toxicity = 1.0
        var index = 1
        while index < words.count {
            if words[index] == "toxicity", index + 1 < words.count, let value = Double(words[index + 1]) {
                toxicity = value
                index += 2
                continue
            }
            let pair = words[index].split(separator: "=", maxSplits: 1)
            if pair.count == 2, let value = Int64(pair[1]) { attributes[String(pair[0])] = value }
            index += 1
        }
        return Toxic(name: String(detail[..<colon.lowerBound]), type: ToxicType(rawValue: type), stream: direction, toxicity: toxicity, attributes: attributes)
    }

    private static func value(of option: String, in words: [String]) -> String? {
        guard let index = words.lastIndex(of: option), index + 1 < words.count else { return nil }
        return words[index + 1]
    }

    /// Plays every action on `registry`'s proxies at its time from `origin`; `log` gets a line
    /// per action (and why one was refused). Ends when the last is played or the task is cancelled.
    package func play(on registry: ProxyRegistry, from origin: ContinuousClock.Instant, log: @escaping @Sendable (String) -> Void) async {
        for action in actions {
            let wait = origin + action.at - ContinuousClock.now
            if wait > .zero {
                do {
                    try await Task.sleep(for: wait)
                } catch {
                    return
                }
            }
            do {
                let proxy = try await registry.proxy(named: action.proxy)
                switch action.kind {
                case .link(let profile, let seed):
                    _ = try await registry.setLink(named: action.proxy, profile: profile, seed: seed)
                case .addToxic(let toxic):
                    _ = try await proxy.addToxic(toxic)
                case .updateToxic(let toxic):
                    _ = try await proxy.updateToxic(named: toxic.name, attributes: toxic.attributes, toxicity: toxic.toxicity)
                case .removeToxic(let name):
                    try await proxy.removeToxic(named: name)
                case .outage(let length, let kind):
                    try await proxy.forceOutage(for: length, kind: kind)
                case .reset(let connection):
                    if try await !proxy.reset(connection: connection) {
                        log(String(format: "replay %.3f s: no connection %d to reset (the app has not opened as many this time)", action.at.seconds, connection))
                        continue
                    }
                case .routes(let rules):
                    var parsed: [ProxyRoute] = []
                    for rule in rules { parsed.append(try ProxyRoute(parsing: rule)) }
                    try await proxy.setRoutes(try ProxyRoutes(parsed))
                }
                log(String(format: "replay %.3f s: %@", action.at.seconds, action.words))
            } catch {
                log(String(format: "replay %.3f s: %@ refused: %@", action.at.seconds, action.words, "\(error)"))
            }
        }
    }
}
