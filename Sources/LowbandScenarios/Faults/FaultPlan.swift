import Foundation
import LowbandShaper
import LowbandDeterminism

/// A kind of fault a virtual-time run can inject (docs/RUN.md, "Faults").
package enum FaultKind: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The device loses coverage for 2–60 s (a tunnel): the shaper's own blackout.
    case outage
    /// A cell change cuts data for 1–10 s: the shaper's own handover.
    case handover
    /// Every connection of the device is reset at once (a NAT rebinding, a dropped bearer).
    case reset
    /// The server goes down for 1–20 s and comes back with its data: every session ends and
    /// connections are refused meanwhile.
    case serverRestart = "server-restart"
    /// One app is killed (`kill -9`) and cold-started 1–60 s later on its cache file.
    case appKill = "app-kill"
    /// One app is suspended for 5–120 s: no timers, no reading, no sending; due work runs at resume.
    case appSuspend = "app-suspend"
    /// One phone's clock jumps by up to two hours either way.
    case clockSkew = "clock-skew"
    /// One client's connection is reset.
    case connectionReset = "connection-reset"
    /// One direction is cut off for 5–60 s: its bytes are held, not dropped, then arrive in order.
    case partition
    /// The proxy's toxics, the same code as `lowband proxy`'s, on every connection for a while:
    /// 0.5–3 s of extra latency (± up to 0.5 s) for 10–120 s,
    case toxicLatency = "toxic-latency"
    /// a 1–20 KB/s bandwidth limit for 10–120 s,
    case toxicBandwidth = "toxic-bandwidth"
    /// data sliced into 64–512-byte pieces 1–20 ms apart for 10–120 s,
    case toxicSlicer = "toxic-slicer"
    /// data dropped and the connection closed after 1–10 s (timeout) for 5–30 s,
    case toxicTimeout = "toxic-timeout"
    /// connections reset 0–2 s after data arrives (reset_peer) for 5–30 s,
    case toxicResetPeer = "toxic-reset-peer"
    /// connections closed after 1–50 KB (limit_data) for 10–60 s.
    case toxicLimitData = "toxic-limit-data"
    /// The carrier's NAT forgets one client's connection: its bytes vanish both ways with no
    /// reset, until the engine's heartbeat finds it dead.
    case natExpiry = "nat-expiry"
    /// A handover of 1–10 s after which the device has another address: every connection open
    /// then is dead, silently.
    case addressChange = "address-change"

    package static func < (lhs: FaultKind, rhs: FaultKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The label of the kind's own random stream: its draws never depend on which other kinds
    /// are on, so removing a kind while shrinking leaves the others' faults where they were.
    var streamLabel: UInt64 { UInt64(Self.allCases.firstIndex(of: self)!) + 1 }
}

/// Which faults a run injects. The seed decides when and how hard; with `swarm` it also
/// decides which kinds are on (swarm testing, as TigerBeetle's VOPR does), so different seeds
/// explore different mixes.
package struct FaultPlan: Sendable, Hashable, CustomStringConvertible {
    /// Which kinds are on.
    package enum Selection: Sendable, Hashable {
        /// No faults.
        case none
        /// The seed picks which kinds are on.
        case swarm
        /// Exactly these kinds.
        case kinds([FaultKind])
    }

    /// Which kinds are on.
    package var selection: Selection
    /// Which of the scheduled faults are played (`--without-faults`, `--only-faults`): numbers
    /// are the schedule's, so leaving one out moves no other (each kind draws from its own stream).
    package var played: FaultSelection

    /// A plan with `selection`, every fault of it played unless `played` says otherwise.
    package init(_ selection: Selection, played: FaultSelection = .all) {
        self.selection = selection
        self.played = played
    }

    /// No faults.
    package static let none = FaultPlan(.none)
    /// Each seed picks its own mix of kinds.
    package static let swarm = FaultPlan(.swarm)

    /// `none`, `swarm`, or kinds separated by commas (`reset,app-kill`).
    ///
    /// - Throws: ``ScenarioError`` `invalidOptions` naming the unknown kind and listing the known ones.
    package init(parsing text: String) throws(ScenarioError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch trimmed {
        case "none", "": self = .none
        case "swarm": self = .swarm
        default:
            var kinds: [FaultKind] = []
            for word in trimmed.split(separator: ",") {
                let name = word.trimmingCharacters(in: .whitespaces)
                guard let kind = FaultKind(rawValue: name) else {
                    throw ScenarioError(.invalidOptions, "unknown fault '\(name)'; known faults: \(FaultKind.allCases.map(\.rawValue).joined(separator: ", ")), or swarm, or none")
                }
                if !kinds.contains(kind) { kinds.append(kind) }
            }
            self = FaultPlan(.kinds(kinds.sorted()))
        }
    }

    /// The kinds that are on for `seed`.
    package func kinds(seed: UInt64) -> [FaultKind] {
        switch selection {
        case .none: return []
        case .kinds(let kinds): return kinds
        case .swarm:
            var generator = SeededGenerator(seed: seed).derived(0x5357_4152_4D)  // "SWARM"
            var chosen = FaultKind.allCases.filter { _ in generator.next() >> 63 == 1 }
            if chosen.isEmpty { chosen = [FaultKind.allCases[Int(generator.next() % UInt64(FaultKind.allCases.count))]] }
            return chosen
        }
    }

    /// The plan with its kinds spelled out for `seed` (what a reproducing command names).
    package func resolved(seed: UInt64) -> FaultPlan {
        switch selection {
        case .none: return .none
        case .kinds: return self
        case .swarm:
            let kinds = self.kinds(seed: seed)
            return kinds.isEmpty ? .none : FaultPlan(.kinds(kinds), played: played)
        }
    }

    /// The options a command names this plan with: `--faults reset,app-kill`, then the played
    /// selection (`--without-faults 3`); nothing for no faults.
    package var words: [String] {
        isNone ? [] : ["--faults", description] + played.words
    }

    /// For the command line: `none`, `swarm` or `reset,app-kill`.
    package var description: String {
        switch selection {
        case .none: "none"
        case .swarm: "swarm"
        case .kinds(let kinds): kinds.isEmpty ? "none" : kinds.map(\.rawValue).joined(separator: ",")
        }
    }

    /// True when the plan injects nothing (`none`, or an empty list of kinds).
    package var isNone: Bool {
        if case .none = selection { return true }
        if case .kinds(let kinds) = selection { return kinds.isEmpty }
        return false
    }
}

/// One fault, placed in time.
struct PlannedFault: Hashable {
    /// Its number in the run's schedule (`fault 3`), from 1 in time order.
    var number = 0
    var kind: FaultKind
    var at: Duration
    /// How long it lasts (zero for an instant one).
    var length: Duration
    /// The client it hits, for the kinds that hit one.
    var client: Int?
    /// The clock skew, for `clock-skew`.
    var skew: Duration = .zero
    /// The direction, for `partition` and the toxics.
    var direction: Direction = .downstream
    /// The toxic's attributes, in toxiproxy's units.
    var attributes: [String: Int64] = [:]
}

extension FaultPlan {
    /// The faults a run of `duration` with `clients` clients plays, in time order, each with its
    /// number in the whole schedule (those ``played`` leaves out keep theirs and are not listed).
    func schedule(seed: UInt64, duration: Duration, clients: Int) -> [PlannedFault] {
        fullSchedule(seed: seed, duration: duration, clients: clients).filter { played.plays($0.number) }
    }

    /// Every fault of the schedule, numbered, whether played or not. Each kind gets 1–4 events,
    /// all in the first 80 % of the run so the end can show whether it recovered.
    func fullSchedule(seed: UInt64, duration: Duration, clients: Int) -> [PlannedFault] {
        var faults: [PlannedFault] = []
        let window = duration * 0.8
        guard window > .milliseconds(1) else { return [] }
        for kind in kinds(seed: seed) {
            var generator = SeededGenerator(seed: seed).derived(0x4641_554C_54, kind.streamLabel)  // "FAULT"
            let count = 1 + Int(generator.next() % 4)
            for _ in 0 ..< count {
                let at = generator.duration(in: .zero ... window)
                var fault = PlannedFault(kind: kind, at: at, length: .zero)
                switch kind {
                case .outage: fault.length = generator.duration(in: .seconds(2) ... .seconds(60))
                case .handover: fault.length = generator.duration(in: .seconds(1) ... .seconds(10))
                case .reset: break
                case .serverRestart: fault.length = generator.duration(in: .seconds(1) ... .seconds(20))
                case .appKill:
                    fault.client = generator.index(below: clients)
                    fault.length = generator.duration(in: .seconds(1) ... .seconds(60))
                case .appSuspend:
                    fault.client = generator.index(below: clients)
                    fault.length = generator.duration(in: .seconds(5) ... .seconds(120))
                case .clockSkew:
                    fault.client = generator.index(below: clients)
                    let magnitude = generator.duration(in: .seconds(1) ... .seconds(7_200))
                    fault.skew = generator.next() >> 63 == 1 ? magnitude : .zero - magnitude
                case .connectionReset:
                    fault.client = generator.index(below: clients)
                case .partition:
                    fault.direction = generator.next() >> 63 == 1 ? .upstream : .downstream
                    fault.length = generator.duration(in: .seconds(5) ... .seconds(60))
                case .toxicLatency:
                    fault.direction = generator.next() >> 63 == 1 ? .upstream : .downstream
                    fault.length = generator.duration(in: .seconds(10) ... .seconds(120))
                    fault.attributes = ["latency": generator.integer(in: 500 ... 3_000), "jitter": generator.integer(in: 0 ... 500)]
                case .toxicBandwidth:
                    fault.direction = generator.next() >> 63 == 1 ? .upstream : .downstream
                    fault.length = generator.duration(in: .seconds(10) ... .seconds(120))
                    fault.attributes = ["rate": generator.integer(in: 1 ... 20)]
                case .toxicSlicer:
                    fault.direction = generator.next() >> 63 == 1 ? .upstream : .downstream
                    fault.length = generator.duration(in: .seconds(10) ... .seconds(120))
                    let size = generator.integer(in: 64 ... 512)
                    fault.attributes = ["average_size": size, "size_variation": size / 2, "delay": generator.integer(in: 1_000 ... 20_000)]
                case .toxicTimeout:
                    fault.direction = generator.next() >> 63 == 1 ? .upstream : .downstream
                    fault.length = generator.duration(in: .seconds(5) ... .seconds(30))
                    fault.attributes = ["timeout": generator.integer(in: 1_000 ... 10_000)]
                case .toxicResetPeer:
                    fault.direction = generator.next() >> 63 == 1 ? .upstream : .downstream
                    fault.length = generator.duration(in: .seconds(5) ... .seconds(30))
                    fault.attributes = ["timeout": generator.integer(in: 0 ... 2_000)]
                case .toxicLimitData:
                    fault.direction = generator.next() >> 63 == 1 ? .upstream : .downstream
                    fault.length = generator.duration(in: .seconds(10) ... .seconds(60))
                    fault.attributes = ["bytes": generator.integer(in: 1_000 ... 50_000)]
                case .natExpiry:
                    fault.client = generator.index(below: clients)
                case .addressChange:
                    fault.length = generator.duration(in: .seconds(1) ... .seconds(10))
                }
                faults.append(fault)
            }
        }
        faults.sort { ($0.at, $0.kind) < ($1.at, $1.kind) }
        for index in faults.indices { faults[index].number = index + 1 }
        return faults
    }

    /// `profile` with this plan's outages, handovers and address changes added as fixed windows,
    /// so the shaper plays them with its own outage code (held bytes, hanging connects, open
    /// flows dying with the old address).
    func profile(_ profile: NetworkProfile, seed: UInt64, duration: Duration, clients: Int) -> NetworkProfile {
        var shaped = profile
        for fault in schedule(seed: seed, duration: duration, clients: clients) where [.outage, .handover, .addressChange].contains(fault.kind) {
            shaped.outages.append(OutageProfile(
                kind: fault.kind == .outage ? .blackout : .handover,
                start: fault.at ... fault.at, duration: fault.length ... fault.length,
                newAddress: fault.kind == .addressChange ? .silent : nil))
        }
        return shaped
    }
}

extension SeededGenerator {
    /// An integer drawn uniformly from `range`.
    mutating func integer(in range: ClosedRange<Int64>) -> Int64 {
        range.lowerBound + Int64(index(below: Int(range.upperBound - range.lowerBound) + 1))
    }
}
