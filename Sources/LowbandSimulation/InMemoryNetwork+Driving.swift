import LowbandDeterminism
import LowbandProxyCore
import LowbandShaper

/// Carrying out the state machine's output on the scheduler.
///
/// The machine's events are its record: they go to the trace and the observer when the output
/// arrives, in the order decided. The connections' work is queued and carried out on a
/// scheduled turn, never inside the call that caused it (an end's `send` or `close`, a fault),
/// so an end's delegate is never re-entered. What a turn sets off in turn (a delegate
/// answering a frame that arrives at once) is carried out on a later turn at the same instant,
/// after the work already due then. Only reading is decided at once: whether a sending end is
/// read follows the machine's latest word, as a socket's reading does.
extension InMemoryNetwork {
    /// The state machine's time: the scheduler's, from when the network was made.
    var now: ShaperInstant {
        ShaperInstant(nanoseconds: (scheduler.now - origin).nanosecondsClamped)
    }

    /// Records the output's events, queues its work and makes sure a turn carries it out.
    func perform(_ output: ProxyOutput) {
        queue(output)
        if pending.count > turnRemaining { scheduleTurn() }
        if !performing { scheduleWakeup() }
    }

    private func queue(_ output: ProxyOutput) {
        for event in output.events {
            // Bytes the toxics, resets and closes discarded go into the trace, as the proxy's.
            if let line = event.shaperTraceEvent { shaper?.trace?.record(line) }
            onEvent?(event)
        }
        for work in output.work {
            guard let pipe = pipesByNumber[work.number] else { continue }
            for side in [ProxySide.client, .upstream] {
                if let on = work.reading(side) { pipe.flows[side.outgoing.index].reading = on }
            }
        }
        pending.append(contentsOf: output.work)
    }

    private func scheduleTurn() {
        guard !turnScheduled else { return }
        turnScheduled = true
        scheduler.execute { [weak self] in
            guard let self else { return }
            turnScheduled = false
            carryOut()
        }
    }

    /// Carries out the work queued so far, in order.
    private func carryOut() {
        guard !performing else { return }
        performing = true
        turnRemaining = pending.count
        while turnRemaining > 0, let work = pending.popFirst() {
            turnRemaining -= 1
            carryOut(work)
        }
        turnRemaining = 0
        performing = false
        scheduleWakeup()
    }

    /// One connection's work, in ``SocketWork``'s order.
    private func carryOut(_ work: SocketWork) {
        let number = work.number
        if work.connect, let pipe = pipesByNumber[number] { establish(pipe) }
        for (side, bytes) in work.writes {
            // The upstream side is the server: it receives what travels upstream.
            if let pipe = pipesByNumber[number] { receive(bytes, on: pipe, side == .upstream ? .upstream : .downstream) }
        }
        for side in work.shutdowns {
            if let pipe = pipesByNumber[number] { endArrives(on: pipe, side == .upstream ? .upstream : .downstream) }
        }
        for side in [ProxySide.client, .upstream] where work.reading(side) == true {
            // The flag was set when the work was queued; reading resumes here, in order.
            if let pipe = pipesByNumber[number] { read(pipe, side.outgoing) }
        }
        switch work.ending {
        case .close(let reset, let reason):
            if let pipe = pipesByNumber[number] { closed(pipe, reset: reset, reason: reason) }
        case .release:
            if let pipe = pipesByNumber.removeValue(forKey: number) { finish(pipe) }
        case nil:
            break
        }
    }

    /// Keeps one timer at the state machine's next wake-up.
    func scheduleWakeup() {
        // "Never" (a link down for good) needs no timer.
        guard let next = Self.nextWakeup(of: &machine), next.nanoseconds < Int64.max / 2 else {
            if let wakeup {
                scheduler.cancel(wakeup.work)
                self.wakeup = nil
            }
            return
        }
        let at = origin + .nanoseconds(next.nanoseconds)
        if let wakeup {
            if wakeup.at <= at { return }
            scheduler.cancel(wakeup.work)
        }
        let work = scheduler.schedule(at: at, wakeWork)
        wakeup = (at, work)
    }

    /// The machine's next wake-up, read where the machine lies: the getter called on the stored
    /// property copied the whole machine first (every reference in it retained and released).
    private static func nextWakeup(of machine: inout ProxyStateMachine) -> ShaperInstant? {
        machine.nextWakeup
    }

    func wake() {
        wakeup = nil
        queue(machine.advance(to: now))
        carryOut()
    }
}
