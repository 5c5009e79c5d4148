import LowbandDeterminism
import LowbandProxyCore
import LowbandShaper
import LowbandTransport
import NIOCore
import NIOPosix

/// ProxyEngine: what the control API and the registry ask of it: routes, toxics, faults, the link.
extension ProxyEngine {
    var statistics: ProxyStatistics {
        var statistics = machine.statistics
        statistics.bufferedBytes += pendingOutbound
        statistics.peakBufferedBytes = max(peakBuffered, statistics.bufferedBytes)
        let counts = observer.counts
        statistics.lossStalls = counts.lossStalls
        statistics.lossStallTime = counts.lossStallTime
        statistics.outages = counts.outages
        statistics.dnsLookups = dnsCounts.lookups
        statistics.dnsFailures = dnsCounts.failures
        return statistics
    }

    var toxics: [Toxic] { machine.toxics }

    var link: ProxyLink { configuration.link }

    /// Replaces the per-destination rules; connections opened from now on follow them.
    func setRoutes(_ routes: ProxyRoutes) {
        configuration.routes = routes
        let words = routes.routes.isEmpty ? "none" : routes.routes.map(\.description).joined(separator: ", ")
        announce(ProxyEvent(time: elapsed, kind: .routes, detail: words))
    }

    func addToxic(_ toxic: Toxic) throws(ProxyError) -> Toxic {
        let (added, output) = try machine.addToxic(toxic, at: now())
        perform(output)
        announce(ProxyEvent(toxic: added, kind: .toxicAdded, time: now() - .zero))
        return added
    }

    func updateToxic(named name: String, attributes: [String: Int64], toxicity: Double?) throws(ProxyError) -> Toxic {
        let (updated, output) = try machine.updateToxic(named: name, attributes: attributes, toxicity: toxicity, at: now())
        perform(output)
        announce(ProxyEvent(toxic: updated, kind: .toxicUpdated, time: now() - .zero))
        return updated
    }

    func removeToxic(named name: String) throws(ProxyError) {
        let removed = machine.toxics.first { $0.name == name }
        perform(try machine.removeToxic(named: name, at: now()))
        if let removed { announce(ProxyEvent(toxic: removed, kind: .toxicRemoved, time: now() - .zero)) }
    }

    func removeAllToxics() {
        let removed = machine.toxics
        perform(machine.removeAllToxics(at: now()))
        for toxic in removed.reversed() { announce(ProxyEvent(toxic: toxic, kind: .toxicRemoved, time: now() - .zero)) }
    }

    func resetAll(reason: String) {
        perform(machine.resetAll(reason: reason, at: now()))
    }

    /// An outage forced now for `length` (`kind`: outage or handover); see `ProxyStateMachine`.
    func forceOutage(for length: Duration, kind: String, reason: String?) {
        perform(machine.forceOutage(for: length, kind: kind, reason: reason, at: now()))
        updateGate()
    }

    /// Resets one open connection; false when there is none with that number.
    func reset(_ number: Int, reason: String) -> Bool {
        guard machine.hasConnection(number) else { return false }
        perform(machine.reset(number, reason: reason, at: now()))
        return true
    }

    /// The open connections now, in accept order.
    var connections: [ProxyConnection] {
        machine.connectionSummaries.map { summary in
            ProxyConnection(
                number: summary.number, description: descriptions[summary.number] ?? "", state: summary.state,
                openedSeconds: Double(summary.openedAt.nanoseconds) / 1e9, upstreamBytes: summary.upstreamBytes,
                downstreamBytes: summary.downstreamBytes, bufferedBytes: summary.bufferedBytes)
        }
    }

    /// The device's link now: down (an outage, forced or the profile's) or up.
    var linkState: ProxyLinkState {
        let now = now()
        var state: ProxyLinkState
        switch machine.reachability(at: now) {
        case .up:
            state = ProxyLinkState(down: false, untilSeconds: nil, forced: nil)
        case .down(let until):
            let seconds = until.nanoseconds >= Self.never ? nil : Double(until.nanoseconds) / 1e9
            state = ProxyLinkState(down: true, untilSeconds: seconds, forced: machine.forced?.kind)
        }
        if let shaper = machine.shaper as? NetworkShaper {
            state.queuedUpstreamBytes = shaper.queuedBytes(.upstream)
            state.queuedDownstreamBytes = shaper.queuedBytes(.downstream)
            state.uplink = ProxyLinkFigures(shaper.profile.uplink)
            state.downlink = ProxyLinkFigures(shaper.profile.downlink)
        }
        state.heldBytes = machine.statistics.bufferedBytes + pendingOutbound
        if !machine.partitioned.isEmpty { state.partitioned = machine.partitioned.map(\.rawValue) }
        if let radio = machine.radioStatistics(at: now) {
            state.radioState = radio.state
            state.radioJoules = radio.joules
        }
        return state
    }

    /// What the device's radio did so far: time in each state, promotions and energy.
    var radioStatistics: RadioStatistics? {
        machine.radioStatistics(at: now())
    }

    func partition(_ direction: Direction, reason: String?) {
        perform(machine.partition(direction, reason: reason, at: now()))
        updateGate()
    }

    func heal(_ direction: Direction?, reason: String?) {
        perform(machine.heal(direction, reason: reason, at: now()))
        updateGate()
    }

    /// Switches to `link` like a handover. Its trace gets a `link` line, then the new shaper's
    /// decisions on the same timeline and numbers (the connections still open are opened again).
    func setLink(_ link: ProxyLink) {
        configuration.link = link
        dnsDraws = Self.dnsGenerator(seed: link.seed)
        let now = now()
        link.trace?.record(ShaperEvent(time: now, kind: .link, detail: link.description))
        let shaper = link.makeShaper(Self.sink(of: link, observer, frame: machine.traceFrame(startingAt: now)))
        perform(machine.replaceShaper(shaper, description: link.description, at: now))
        updateGate()
    }

    /// Where a shaper of `link` reports: the link's trace and the live events, both on the
    /// proxy's timeline and connection numbers.
    static func sink(of link: ProxyLink, _ observer: ShaperObserver, frame: ShaperTraceFrame) -> any ShaperTraceSink {
        FramedTraceSink(TraceTee.combine(link.trace, observer) ?? observer, frame: frame)
    }
}
