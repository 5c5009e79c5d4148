import Foundation
import LowbandBasics
import LowbandAppEvents
import LowbandProxy
import LowbandProxyCore
import LowbandShaper

/// Plays a seed's faults on the real proxies, on the session's clock: the timed ones at their
/// instants, the aimed ones just after the app's event they follow. Each acts on one link: the
/// upstream it was drawn for, or for an aimed fault the link of the device that said the event,
/// where an upstream bears that device's name. Every request to a proxy names its fault (`fault
/// 3`), so the proxies' own events say which fault each decision was; the driver keeps what it
/// asked, and when, as ``FaultRequest``s — what the record of what was played is checked against.
struct FaultDriver: Sendable {
    let proxies: [any FaultLink]
    let names: [String]
    let log: AppEventLog
    let clock: @Sendable () -> Duration
    let state: SessionState
    /// Which of the faults are played; the others are kept as not played, with why.
    var selection: FaultSelection = .all

    func play(_ faults: [ExecFault]) async {
        await withTaskGroup(of: Void.self) { group in
            for fault in faults {
                group.addTask { await self.play(fault) }
            }
        }
    }

    private func play(_ fault: ExecFault) async {
        let reason = "fault \(fault.number)"
        var request = FaultRequest(number: fault.number, words: fault.words, kind: fault.kindPlayed, link: names[fault.upstream], at: 0)
        guard selection.plays(fault.number) else {
            request.outcome = .notPlayed("left out (\(selection.words.joined(separator: " ")))")
            return keep(request)
        }
        var start = fault.at
        var upstream = fault.upstream
        if let after = fault.after {
            // Wait for the app's event, then the delay.
            guard let kind = AppEvent.Kind(rawValue: after.kind) else { return }
            var moment: (at: Duration, device: String)?
            while moment == nil {
                guard !Task.isCancelled else {
                    request.outcome = .notPlayed("no device said \(after.kind) a \(Self.ordinal(after.occurrence)) time before the session ended")
                    return keep(request)
                }
                moment = log.moment(of: kind, occurrence: after.occurrence)
                if moment == nil { try? await Task.sleep(for: .milliseconds(5)) }
            }
            guard let moment else { return }
            start = moment.at + fault.at
            // Aimed at the device that said it, where an upstream is that device's own link.
            if let own = names.firstIndex(where: { $0.lowercased() == moment.device.lowercased() }) { upstream = own }
            request.link = names[upstream]
        }
        guard await sleep(until: start) else {
            request.outcome = .notPlayed(String(format: "the session ended at %.3f s, before its time (%.3f s)", clock().seconds, start.seconds))
            return keep(request)
        }
        let proxy = proxies[upstream]
        let began = clock()
        request.at = began.seconds
        var toxicName: String?
        do {
            switch fault.kind {
            case .reset:
                try await proxy.resetAll(reason: "\(reason): reset")
            case .partition:
                try await proxy.partition(fault.direction, reason: reason)
            case .outage, .handover:
                // The shaper's forced outage: bytes held both ways, connects hang, for its length.
                try await proxy.forceOutage(for: fault.length, kind: fault.kind.rawValue, reason: reason)
                request.ended = (began + fault.length).seconds
            case .blackhole:
                for direction in [Direction.upstream, .downstream] {
                    _ = try await proxy.addToxic(Toxic(name: "fault-\(fault.number)-blackhole-\(direction)", type: .timeout, stream: direction, attributes: ["timeout": 0]))
                }
            case .toxicLatency, .toxicBandwidth, .toxicSlicer, .toxicResetPeer:
                let type: ToxicType = switch fault.kind {
                case .toxicLatency: .latency
                case .toxicBandwidth: .bandwidth
                case .toxicSlicer: .slicer
                default: .resetPeer
                }
                toxicName = "fault-\(fault.number)-\(type.rawValue)"
                _ = try await proxy.addToxic(Toxic(name: toxicName!, type: type, stream: fault.direction, attributes: fault.attributes))
            }
        } catch {
            request.outcome = .refused("\(error)")
            return keep(request)
        }
        guard fault.length > .zero, fault.kind != .outage, fault.kind != .handover else { return keep(request) }
        // The end is played even when the session is ending, so nothing stays held.
        _ = await sleep(until: began + fault.length)
        request.ended = clock().seconds
        switch fault.kind {
        case .partition:
            try? await proxy.heal(fault.direction, reason: reason)
        case .blackhole:
            for direction in [Direction.upstream, .downstream] { try? await proxy.removeToxic(named: "fault-\(fault.number)-blackhole-\(direction)") }
        case .toxicLatency, .toxicBandwidth, .toxicSlicer, .toxicResetPeer:
            if let toxicName { try? await proxy.removeToxic(named: toxicName) }
        case .reset, .outage, .handover:
            break
        }
        keep(request)
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

    private func keep(_ request: FaultRequest) {
        state.requests.withLock { $0.append(request) }
    }

    static func ordinal(_ number: Int) -> String {
        switch number {
        case 1: "1st"
        case 2: "2nd"
        case 3: "3rd"
        default: "\(number)th"
        }
    }
}
