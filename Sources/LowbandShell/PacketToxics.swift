import LowbandDeterminism
package import LowbandProxyCore
package import LowbandShaper

/// The toxics of `lowband shell`'s link: toxiproxy's JSON, as the proxy takes it, played on the
/// packets the link delivers, before they reach the far side: `latency` (each packet waits
/// `latency` ± `jitter` ms more), `bandwidth` (a second bottleneck of `rate` KB/s after the
/// link's), `timeout` (every packet of the stream dropped, so the endpoints' own TCP sees the
/// silence; above 0, each TCP connection whose packet it dropped is also reset `timeout` ms after
/// the first); and two that end a TCP connection with the resets the shell makes up for both ends
/// (``dueResets(at:)``): `reset_peer` (`timeout` ms after the first data of a connection crossed
/// in the toxic's stream, it is reset; 0: at once) and `limit_data` (the packet whose data would
/// take a connection past `bytes` of data in the stream is dropped and the connection reset). The
/// others act on a connection's byte stream or its close, which packets do not have; they are
/// refused with why (docs/SHELL.md, "Toxics on packets").
///
/// `stream` is toxiproxy's: `upstream` acts on the device's packets toward the host,
/// `downstream` on those toward the device. `toxicity` is the chance a packet is touched, drawn
/// per packet from the seed. No packet overtakes another of its direction. At most
/// ``maximumHeld`` packets wait per direction; one more is dropped (`toxic-held-cap`).
package struct PacketToxics: Sendable {
    /// The types the shell plays.
    package static let types: [ToxicType] = [.latency, .bandwidth, .timeout, .resetPeer, .limitData]
    /// Packets held at once per direction.
    package static let maximumHeld = 4096
    /// Connections a toxic keeps count of (`limit_data`'s bytes, `reset_peer`'s timers) at
    /// once; a connection beyond is left alone by that toxic.
    package static let maximumFlows = 65_536

    /// Per toxic (by name): the data bytes each connection sent in its stream (`limit_data`), or
    /// the connections whose reset is set (`reset_peer`).
    private var counted: [String: [PacketFlow: Int]] = [:]
    /// Resets due, in due order: when (link nanoseconds), the connection, why.
    private var resets: [(due: Int64, flow: PacketFlow, reason: String)] = []

    /// The toxics in the order they act.
    package private(set) var toxics: [Toxic] = []

    private struct Held: Sendable {
        var due: Int64
        var frame: [UInt8]
    }

    private struct Lane: Sendable {
        var held: [Held] = []
        var head = 0
        /// When the previous packet leaves: none leaves before it.
        var lastDue: Int64 = 0
        /// When the bandwidth toxic's bottleneck is free again.
        var bandwidthFree: Int64 = 0
        var count: Int { held.count - head }
    }

    private var lanes = [Lane(), Lane()]
    private var generator: SeededGenerator

    /// Toxics drawing from `seed` (a stream of its own, apart from the link's).
    package init(seed: UInt64) {
        generator = SeededGenerator(seed: seed).derived(9)
    }

    /// `toxic` if the shell can play it on packets, else the proxy's `invalidToxicType` error
    /// saying why not.
    package static func check(_ toxic: Toxic) throws(ProxyError) {
        let why: String? = switch toxic.type {
        case .latency, .bandwidth, .timeout, .resetPeer, .limitData: nil
        case .slicer: "TCP already cuts the stream into packets; slicing them again would be IP fragmentation, not what slicer tests"
        case .slowClose: "a connection's close is a packet (FIN) among the others here; delay it with latency"
        default: "it is not a toxic type"
        }
        if let why {
            throw ProxyError(
                .invalidToxicType,
                "toxic '\(toxic.name)': the shell does not play \(toxic.type.rawValue) on packets: \(why); it plays \(types.map(\.rawValue).joined(separator: ", ")) (docs/SHELL.md)")
        }
    }

    /// Replaces the toxics (already checked with ``check(_:)``); packets held stay held.
    package mutating func set(_ toxics: [Toxic]) {
        self.toxics = toxics
        // A toxic removed, or changed, counts afresh; its resets not yet due are cancelled.
        let names = Set(toxics.map(\.name))
        counted = counted.filter { names.contains($0.key) }
        resets.removeAll { reset in !toxics.contains { reset.reason.hasPrefix("toxic \($0.name):") } }
    }

    /// What becomes of a packet the link delivered.
    package enum Verdict: Sendable, Hashable {
        /// To the far side now.
        case now
        /// Held; ``release(at:)`` gives it back when due.
        case held
        /// Dropped by the toxic named, for `cause` (`toxic-timeout`, `toxic-held-cap`).
        case dropped(toxic: String, cause: String)
    }

    /// Passes `frame` of `bytes` IP bytes going `direction` at `now` (link nanoseconds);
    /// `segment` is its TCP connection and data bytes, when it is TCP (the resetting toxics act
    /// on those only).
    package mutating func pass(_ frame: [UInt8], bytes: Int, _ direction: Direction, segment: (flow: PacketFlow, payload: Int)? = nil, at now: Int64) -> Verdict {
        let slot = direction == .upstream ? 0 : 1
        var due = now
        for toxic in toxics where toxic.stream == direction {
            if toxic.type == .resetPeer || toxic.type == .limitData {
                // Per connection, not per packet: its toxicity is drawn once, at its first data.
                guard let segment, segment.payload > 0 else { continue }
                if let verdict = resetting(toxic, segment.flow, segment.payload, now) { return verdict }
                continue
            }
            if toxic.toxicity < 1, Double.random(in: 0 ..< 1, using: &generator) >= toxic.toxicity { continue }
            switch toxic.type {
            case .timeout:
                // Above 0, toxiproxy closes the connection after the timeout: here a reset,
                // `timeout` ms after the first packet of the connection it held back.
                let timeout = toxic.attributes["timeout"] ?? 0
                if timeout > 0, let flow = segment?.flow {
                    if counted[toxic.name]?[flow] == nil, (counted[toxic.name]?.count ?? 0) < Self.maximumFlows {
                        counted[toxic.name, default: [:]][flow] = 0
                        schedule(now + timeout * 1_000_000, flow, "toxic \(toxic.name): timeout \(timeout) ms after the first packet it held \(toxic.stream)")
                    }
                }
                return .dropped(toxic: toxic.name, cause: "toxic-timeout")
            case .latency:
                let latency = (toxic.attributes["latency"] ?? 0) * 1_000_000
                let jitter = (toxic.attributes["jitter"] ?? 0) * 1_000_000
                let drawn = jitter > 0 ? Int64.random(in: -jitter ... jitter, using: &generator) : 0
                due += max(0, latency + drawn)
            case .bandwidth:
                // rate is KB/s (1 KB = 1000 bytes); 0 holds nothing back, as in toxiproxy.
                let rate = toxic.attributes["rate"] ?? 0
                guard rate > 0 else { continue }
                let start = max(due, lanes[slot].bandwidthFree)
                due = start + Int64(bytes) * 1_000_000 / rate
                lanes[slot].bandwidthFree = due
            default:
                continue
            }
        }
        due = max(due, lanes[slot].lastDue)
        if due <= now && lanes[slot].count == 0 {
            lanes[slot].lastDue = now
            return .now
        }
        guard lanes[slot].count < Self.maximumHeld else {
            return .dropped(toxic: toxics.first { $0.stream == direction }?.name ?? "toxics", cause: "toxic-held-cap")
        }
        lanes[slot].lastDue = due
        lanes[slot].held.append(Held(due: due, frame: frame))
        return .held
    }

    /// `reset_peer` sets a connection's reset at its first data; `limit_data` counts its data
    /// and drops the packet that would pass `bytes`, resetting the connection at once.
    private mutating func resetting(_ toxic: Toxic, _ flow: PacketFlow, _ payload: Int, _ now: Int64) -> Verdict? {
        // Read and written in place: a copy of the toxic's table taken out and put back made
        // every packet with data copy up to `maximumFlows` entries.
        let seen = counted[toxic.name]?[flow]
        if seen == nil {
            guard (counted[toxic.name]?.count ?? 0) < Self.maximumFlows else { return nil }
            // Untouched by this toxic: remembered as such (-1), so that it is drawn once.
            if toxic.toxicity < 1, Double.random(in: 0 ..< 1, using: &generator) >= toxic.toxicity {
                counted[toxic.name, default: [:]][flow] = -1
                return nil
            }
        }
        guard seen != -1 else { return nil }
        if toxic.type == .resetPeer {
            guard seen == nil else { return nil }
            counted[toxic.name, default: [:]][flow] = 0
            let timeout = max(0, toxic.attributes["timeout"] ?? 0)
            schedule(now + timeout * 1_000_000, flow, "toxic \(toxic.name): reset_peer \(timeout) ms after its first data \(toxic.stream)")
            return nil
        }
        let limit = Int(clamping: max(0, toxic.attributes["bytes"] ?? 0))
        let sent = seen ?? 0
        // Int.max: reset already; its later data (retransmissions) is dropped too.
        guard sent < Int.max else { return .dropped(toxic: toxic.name, cause: "toxic-limit-data") }
        guard sent > limit - payload else {
            counted[toxic.name, default: [:]][flow] = sent + payload
            return nil
        }
        counted[toxic.name, default: [:]][flow] = Int.max
        schedule(now, flow, "toxic \(toxic.name): limit_data, \(sent) B of data \(toxic.stream) passed and the next \(payload) B would exceed \(limit) B")
        return .dropped(toxic: toxic.name, cause: "toxic-limit-data")
    }

    private mutating func schedule(_ due: Int64, _ flow: PacketFlow, _ reason: String) {
        let index = resets.firstIndex { $0.due > due } ?? resets.count
        resets.insert((due, flow, reason), at: index)
    }

    /// The connections whose toxic reset is due by `now`, in due order, with why; the shell
    /// resets each (a reset made up toward each end).
    package mutating func dueResets(at now: Int64) -> [(flow: PacketFlow, reason: String)] {
        var out: [(flow: PacketFlow, reason: String)] = []
        while let first = resets.first, first.due <= now {
            resets.removeFirst()
            out.append((first.flow, first.reason))
        }
        return out
    }

    /// The held packets due by `now`, in the order they leave, each with its direction.
    package mutating func release(at now: Int64) -> [(frame: [UInt8], direction: Direction)] {
        var out: [(frame: [UInt8], direction: Direction)] = []
        for slot in 0 ..< 2 {
            while lanes[slot].head < lanes[slot].held.count, lanes[slot].held[lanes[slot].head].due <= now {
                out.append((lanes[slot].held[lanes[slot].head].frame, slot == 0 ? .upstream : .downstream))
                lanes[slot].held[lanes[slot].head].frame = []
                lanes[slot].head += 1
            }
            if lanes[slot].head > 256, lanes[slot].head * 2 > lanes[slot].held.count {
                lanes[slot].held.removeFirst(lanes[slot].head)
                lanes[slot].head = 0
            }
        }
        return out
    }

    /// When the next held packet is due; nil when none is held.
    package var nextWakeup: Int64? {
        (lanes.compactMap { $0.head < $0.held.count ? $0.held[$0.head].due : nil } + resets.prefix(1).map(\.due)).min()
    }

    /// Packets held now, both directions.
    package var heldCount: Int { lanes[0].count + lanes[1].count }
}
