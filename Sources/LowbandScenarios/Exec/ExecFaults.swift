import Foundation
import LowbandBasics
import LowbandDeterminism
import LowbandShaper

/// A fault `lowband explore --exec` plays on the real proxies in front of an app (docs/APP-EVENTS.md,
/// "Faults"). Lengths scale with the fault window (`--duration`), so a shorter window shrinks them too.
package enum ExecFaultKind: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Coverage lost on one device's link (a forced outage): bytes held both ways, connects hang.
    case outage
    /// A cell change: a short cut of one device's link (a forced outage named handover).
    case handover
    /// Every connection of one upstream reset at once (a dropped bearer, a NAT rebinding).
    case reset
    /// One direction of one upstream held (not dropped) for a while, then delivered in order.
    case partition
    /// One upstream silently swallows everything for a while and closes nothing, while the
    /// others work (toxiproxy's `timeout` toxic with no timeout).
    case blackhole
    /// The proxy's toxics on one upstream for a while: latency (0.5–3 s ± 0.5 s),
    case toxicLatency = "toxic-latency"
    /// a 1–20 KB/s bandwidth limit,
    case toxicBandwidth = "toxic-bandwidth"
    /// data sliced into 64–512-byte pieces,
    case toxicSlicer = "toxic-slicer"
    /// connections reset 0–2 s after data arrives.
    case toxicResetPeer = "toxic-reset-peer"

    package static func < (lhs: ExecFaultKind, rhs: ExecFaultKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The kinds `--shell` plays: the packet link's own (a forced outage, named outage or
    /// handover) and a reset of the shell's live TCP connections (resets made up for both ends,
    /// through its API's `DELETE /proxies/shell/connections`); the others act on a proxy's
    /// connections or toxics, which the shell's link does not play as faults.
    package static let shellKinds: [ExecFaultKind] = [.outage, .handover, .reset]

    /// The kinds an aimed fault may be (those that act at once on an open connection).
    static let aimable: [ExecFaultKind] = [.reset, .partition, .blackhole, .outage]

    var streamLabel: UInt64 { UInt64(Self.allCases.firstIndex(of: self)!) + 1 }
}

/// A fault aimed at an app's moment: `after:sent=blackhole:20s` plays a 20 s blackhole just
/// after a device says it sent a message; `after:acked+300ms=reset` resets 300 ms after an
/// acknowledgement. Which occurrence of the event it follows (the 1st to 3rd) and, without a
/// `+DELAY`, how long after it (0 to twice the profile's worst one-way delay) the seed decides.
package struct AimedFault: Sendable, Hashable, CustomStringConvertible {
    /// The event kind it follows.
    package var after: String
    /// A fixed delay after the event; nil: the seed draws one.
    package var delay: Duration?
    /// What it does.
    package var kind: ExecFaultKind
    /// How long it lasts (for the kinds that last); nil: the seed draws one.
    package var length: Duration?

    /// `after:sent=blackhole:20s`, `after:acked+300ms=reset`.
    package var description: String {
        var text = "after:\(after)"
        if let delay { text += "+\(DurationText.format(delay))" }
        text += "=\(kind.rawValue)"
        if let length { text += ":\(DurationText.format(length))" }
        return text
    }
}

/// Which faults each seed of `explore --exec` plays: `none`, `swarm` (the seed picks kinds and
/// may aim one), or a list of kinds and aimed faults: `reset,outage,after:sent=blackhole:20s`.
package struct ExecFaultPlan: Sendable, Hashable, CustomStringConvertible {
    /// True when the seed picks the kinds.
    package var swarm: Bool
    /// The kinds on (when not swarm).
    package var kinds: [ExecFaultKind]
    /// The aimed faults (when not swarm).
    package var aimed: [AimedFault]

    /// A plan with these parts.
    package init(swarm: Bool = false, kinds: [ExecFaultKind] = [], aimed: [AimedFault] = []) {
        self.swarm = swarm
        self.kinds = kinds.sorted()
        self.aimed = aimed
    }

    /// `none`, `swarm`, or kinds and aimed faults separated by commas.
    ///
    /// - Throws: ``ScenarioError`` `invalidOptions` naming what was not understood and what is known.
    package init(parsing text: String) throws(ScenarioError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "none" || trimmed.isEmpty {
            self.init()
            return
        }
        if trimmed == "swarm" {
            self.init(swarm: true)
            return
        }
        var kinds: [ExecFaultKind] = []
        var aimed: [AimedFault] = []
        for word in trimmed.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if word.hasPrefix("after:") {
                aimed.append(try Self.aimed(word))
            } else if let kind = ExecFaultKind(rawValue: word) {
                if !kinds.contains(kind) { kinds.append(kind) }
            } else {
                throw ScenarioError(.invalidOptions, "unknown fault '\(word)' for --exec; known faults: \(ExecFaultKind.allCases.map(\.rawValue).joined(separator: ", ")), after:EVENT[+DELAY]=FAULT[:LENGTH], swarm or none")
            }
        }
        self.init(kinds: kinds, aimed: aimed)
    }

    private static func aimed(_ word: String) throws(ScenarioError) -> AimedFault {
        let body = word.dropFirst("after:".count)
        let sides = body.split(separator: "=", maxSplits: 1).map(String.init)
        guard sides.count == 2 else {
            throw ScenarioError(.invalidOptions, "aimed fault '\(word)': expected after:EVENT[+DELAY]=FAULT[:LENGTH], e.g. after:sent=blackhole:20s")
        }
        let trigger = sides[0].split(separator: "+", maxSplits: 1).map(String.init)
        let events = ["sent", "acked", "received", "shown", "stored", "connected", "disconnected"]
        guard events.contains(trigger[0]) else {
            throw ScenarioError(.invalidOptions, "aimed fault '\(word)': unknown event '\(trigger[0])'; known events: \(events.joined(separator: ", "))")
        }
        let action = sides[1].split(separator: ":", maxSplits: 1).map(String.init)
        guard let kind = ExecFaultKind(rawValue: action[0]), ExecFaultKind.aimable.contains(kind) else {
            throw ScenarioError(.invalidOptions, "aimed fault '\(word)': '\(action[0])' cannot be aimed; aimable faults: \(ExecFaultKind.aimable.map(\.rawValue).joined(separator: ", "))")
        }
        func duration(_ text: String, _ what: String) throws(ScenarioError) -> Duration {
            do {
                return try DurationText.parse(text)
            } catch {
                throw ScenarioError(.invalidOptions, "aimed fault '\(word)': \(what) '\(text)': \(error)")
            }
        }
        let delay = trigger.count == 2 ? try duration(trigger[1], "delay") : nil
        let length = action.count == 2 ? try duration(action[1], "length") : nil
        return AimedFault(after: trigger[0], delay: delay, kind: kind, length: length)
    }

    /// True when nothing is played.
    package var isNone: Bool { !swarm && kinds.isEmpty && aimed.isEmpty }

    package var description: String {
        if swarm { return "swarm" }
        let words = kinds.map(\.rawValue) + aimed.map(\.description)
        return words.isEmpty ? "none" : words.joined(separator: ",")
    }

    /// The plan with swarm's picks spelled out for `seed` (what a reproducing command names),
    /// picked among `allowed` (`--shell` plays outage, handover and reset only).
    package func resolved(seed: UInt64, within allowed: [ExecFaultKind] = ExecFaultKind.allCases) -> ExecFaultPlan {
        guard swarm else { return self }
        var generator = SeededGenerator(seed: seed).derived(0x4558_4543_5357)  // "EXECSW"
        var chosen = allowed.filter { _ in generator.next() % 3 == 0 }
        var aimed: [AimedFault] = []
        // Half the seeds aim a fault at a send or an acknowledgement: where messenger bugs live.
        let aimable = ExecFaultKind.aimable.filter(allowed.contains)
        if generator.next() >> 63 == 1, !aimable.isEmpty {
            let after = generator.next() >> 63 == 1 ? "sent" : "acked"
            let kind = aimable[Int(generator.next() % UInt64(aimable.count))]
            aimed.append(AimedFault(after: after, delay: nil, kind: kind, length: nil))
        }
        if chosen.isEmpty, aimed.isEmpty, !allowed.isEmpty { chosen = [allowed[Int(generator.next() % UInt64(allowed.count))]] }
        return ExecFaultPlan(kinds: chosen, aimed: aimed)
    }
}

/// One fault, placed on the session's clock (or on an app event, for an aimed one). Every
/// fault acts on one device's link: the upstream it was drawn for, or for an aimed fault the
/// link of the device that said the event (docs/APP-EVENTS.md, "Faults").
struct ExecFault: Sendable, Hashable, CustomStringConvertible {
    var kind: ExecFaultKind
    /// When it starts (seconds into the session); for an aimed fault, after its event.
    var at: Duration
    var length: Duration
    /// The upstream it hits (index).
    var upstream: Int
    var direction: Direction = .downstream
    var attributes: [String: Int64] = [:]
    /// For an aimed fault: the event kind and which occurrence of it (1-based) it follows.
    var after: (kind: String, occurrence: Int)?
    /// Its number in the seed's schedule (`fault 3`), the name every record uses for it.
    var number = 0
    /// The plan's word that made it, as `--faults` spells it: `outage`, `after:acked=reset`.
    var words = ""

    static func == (lhs: ExecFault, rhs: ExecFault) -> Bool { lhs.description == rhs.description }
    func hash(into hasher: inout Hasher) { hasher.combine(description) }

    var description: String { describe(links: []) }

    /// `fault 3 (outage): at 2.716 s, outage for 2.716 s on bob`; `links` names the upstreams.
    func describe(links: [String]) -> String {
        let link = upstream < links.count ? links[upstream] : "upstream \(upstream + 1)"
        var text = "fault \(number) (\(words)): "
        if let after {
            text += "after \(after.kind) #\(after.occurrence) +\(Self.format(at)), \(played)"
            text += " on the link of the device that says it, else \(link)"
        } else {
            text += "at \(Self.format(at)), \(played) on \(link)"
        }
        if !attributes.isEmpty { text += " " + attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }
        return text
    }

    /// What the proxies' events show for it: `outage for 2.716 s`, `partition upstream for 1 s`.
    private var played: String {
        var text = kindPlayed
        if length > .zero { text += " for \(Self.format(length))" }
        return text
    }

    /// The kind as the proxies' events name it (``LowbandAppEvents/PlayedFault/kind``).
    var kindPlayed: String {
        switch kind {
        case .outage: "outage"
        case .handover: "handover"
        case .reset: "reset"
        case .partition: "partition \(direction)"
        case .blackhole: "blackhole both ways"
        case .toxicLatency: "toxic latency \(direction)"
        case .toxicBandwidth: "toxic bandwidth \(direction)"
        case .toxicSlicer: "toxic slicer \(direction)"
        case .toxicResetPeer: "toxic reset_peer \(direction)"
        }
    }

    static func format(_ duration: Duration) -> String {
        String(format: "%.3f s", duration.seconds)
    }
}

extension ExecFaultPlan {
    /// The faults of one seed over a fault window of `window` with `upstreams` upstreams; each kind
    /// on gets 1–3, all in the window's first 80 %, each from its own random stream (dropping a
    /// kind while shrinking leaves the others where they were). `oneWay` is the profile's worst
    /// one-way delay, the scale of an aimed fault's drawn delay.
    func schedule(seed: UInt64, window: Duration, upstreams: Int, oneWay: Duration) -> [ExecFault] {
        let plan = resolved(seed: seed)
        var faults: [ExecFault] = []
        let span = window * 0.8
        // Lengths scale with the window: a 60 s window gets outages of up to 18 s.
        func length(_ generator: inout SeededGenerator, _ low: Double, _ high: Double) -> Duration {
            generator.duration(in: window * low ... window * high)
        }
        for kind in plan.kinds {
            var generator = SeededGenerator(seed: seed).derived(0x4558_4543, kind.streamLabel)  // "EXEC"
            let count = 1 + generator.index(below: 3)
            for _ in 0 ..< count {
                var fault = ExecFault(kind: kind, at: generator.duration(in: .zero ... span), length: .zero, upstream: generator.index(below: upstreams))
                fault.direction = generator.next() >> 63 == 1 ? .upstream : .downstream
                switch kind {
                case .outage: fault.length = length(&generator, 0.05, 0.3)
                case .handover: fault.length = length(&generator, 0.02, 0.08)
                case .reset: break
                case .partition, .blackhole: fault.length = length(&generator, 0.05, 0.4)
                case .toxicLatency:
                    fault.length = length(&generator, 0.1, 0.5)
                    fault.attributes = ["latency": generator.integer(in: 500 ... 3_000), "jitter": generator.integer(in: 0 ... 500)]
                case .toxicBandwidth:
                    fault.length = length(&generator, 0.1, 0.5)
                    fault.attributes = ["rate": generator.integer(in: 1 ... 20)]
                case .toxicSlicer:
                    fault.length = length(&generator, 0.1, 0.5)
                    let size = generator.integer(in: 64 ... 512)
                    fault.attributes = ["average_size": size, "size_variation": size / 2, "delay": generator.integer(in: 1_000 ... 20_000)]
                case .toxicResetPeer:
                    fault.length = length(&generator, 0.05, 0.2)
                    fault.attributes = ["timeout": generator.integer(in: 0 ... 2_000)]
                }
                fault.words = kind.rawValue
                faults.append(fault)
            }
        }
        for (index, aimed) in plan.aimed.enumerated() {
            var generator = SeededGenerator(seed: seed).derived(0x4149_4D, UInt64(index))  // "AIM"
            let occurrence = 1 + generator.index(below: 3)
            let delay = aimed.delay ?? generator.duration(in: .zero ... max(oneWay * 2, .milliseconds(1)))
            var fault = ExecFault(kind: aimed.kind, at: delay, length: .zero, upstream: generator.index(below: upstreams))
            fault.direction = generator.next() >> 63 == 1 ? .upstream : .downstream
            if aimed.kind != .reset { fault.length = aimed.length ?? length(&generator, 0.1, 0.4) }
            fault.after = (aimed.after, occurrence)
            fault.words = aimed.description
            faults.append(fault)
        }
        faults.sort { ($0.after == nil ? 0 : 1, $0.at, $0.kind) < ($1.after == nil ? 0 : 1, $1.at, $1.kind) }
        for index in faults.indices { faults[index].number = index + 1 }
        return faults
    }
}
