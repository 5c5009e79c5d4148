import Foundation
import LowbandBasics
import LowbandAppEvents
import LowbandProxy
import LowbandProxyCore
import LowbandShaper

/// Plays a seed's faults on the real proxies, on the session's clock: the timed ones at their
/// instants, the aimed ones just after the app's event they follow. Outages and handovers at
/// fixed instants are in the link's profile already (the shaper plays them). Every fault played
/// is noted with its real time; the proxies report what each did (resets, partitions, toxics and
/// blackholes) in their own events, which the network record reads.
struct FaultDriver: Sendable {
    let proxies: [ShapingProxy]
    let names: [String]
    let log: AppEventLog
    let clock: @Sendable () -> Duration
    let state: SessionState

    func play(_ faults: [ExecFault]) async {
        await withTaskGroup(of: Void.self) { group in
            for (index, fault) in faults.enumerated() where !(fault.after == nil && (fault.kind == .outage || fault.kind == .handover)) {
                group.addTask { await self.play(fault, number: index + 1) }
            }
        }
    }

    private func play(_ fault: ExecFault, number: Int) async {
        var start = fault.at
        var upstream = fault.upstream
        if let after = fault.after {
            // Wait for the app's event, then the delay.
            guard let kind = AppEvent.Kind(rawValue: after.kind) else { return }
            var moment: (at: Duration, device: String)?
            while moment == nil {
                guard !Task.isCancelled else { return }
                moment = log.moment(of: kind, occurrence: after.occurrence)
                if moment == nil { try? await Task.sleep(for: .milliseconds(5)) }
            }
            guard let moment else { return }
            start = moment.at + fault.at
            // Aimed at the device that said it, where an upstream is that device's own link.
            if let own = names.firstIndex(where: { $0.lowercased() == moment.device.lowercased() }) { upstream = own }
        }
        guard await sleep(until: start) else { return }
        var fault = fault
        fault.upstream = upstream
        let proxy = proxies[upstream]
        let began = clock()
        var toxicName: String?
        do {
            switch fault.kind {
            case .reset:
                try await proxy.resetAll(reason: "fault \(number): reset")
            case .partition:
                try await proxy.partition(fault.direction)
            case .outage, .handover:
                // Aimed: every upstream held both ways (the shaper's outages are placed in advance).
                for proxy in proxies {
                    try await proxy.partition(.upstream)
                    try await proxy.partition(.downstream)
                }
            case .blackhole:
                for direction in [Direction.upstream, .downstream] {
                    try await proxy.addToxic(Toxic(name: "fault-\(number)-blackhole-\(direction)", type: .timeout, stream: direction, attributes: ["timeout": 0]))
                }
            case .toxicLatency, .toxicBandwidth, .toxicSlicer, .toxicResetPeer:
                let type: ToxicType = switch fault.kind {
                case .toxicLatency: .latency
                case .toxicBandwidth: .bandwidth
                case .toxicSlicer: .slicer
                default: .resetPeer
                }
                toxicName = "fault-\(number)-\(type.rawValue)"
                try await proxy.addToxic(Toxic(name: toxicName!, type: type, stream: fault.direction, attributes: fault.attributes))
            }
        } catch {
            note("\(format(began)) \(fault): refused: \(error)")
            return
        }
        note("\(format(began)) \(fault) (\(names[upstream]))")
        guard fault.length > .zero else { return }
        // The end is played even when the session is ending, so nothing stays held.
        _ = await sleep(until: began + fault.length)
        let ended = clock()
        switch fault.kind {
        case .partition, .outage, .handover:
            for proxy in fault.kind == .partition ? [proxy] : proxies { try? await proxy.heal() }
        case .blackhole:
            for direction in [Direction.upstream, .downstream] { try? await proxy.removeToxic(named: "fault-\(number)-blackhole-\(direction)") }
        case .toxicLatency, .toxicBandwidth, .toxicSlicer, .toxicResetPeer:
            if let toxicName { try? await proxy.removeToxic(named: toxicName) }
        case .reset:
            break
        }
        note("\(format(ended)) fault \(number) over")
    }

    /// Sleeps until `instant` on the session's clock; false when cancelled first.
    private func sleep(until instant: Duration) async -> Bool {
        let wait = instant - clock()
        if wait > .zero {
            do {
                try await Task.sleep(for: wait)
            } catch {
                return false
            }
        }
        return !Task.isCancelled
    }

    private func note(_ line: String) {
        state.played.withLock { $0.append(line) }
    }

    private func format(_ time: Duration) -> String {
        String(format: "%8.3f s", time.seconds)
    }
}
