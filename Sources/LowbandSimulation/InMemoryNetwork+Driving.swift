import LowbandDeterminism
import LowbandProxyCore
import LowbandShaper

/// Carrying out the state machine's actions on the scheduler, in the order it gave them.
///
/// Actions are queued and carried out on a scheduled turn, never inside the call that caused
/// them (an end's `send` or `close`, a fault), so an end's delegate is never re-entered. What
/// a turn sets off in turn (a delegate answering a frame that arrives at once) is carried out
/// on a later turn at the same instant, after the work already due then. Only reading is
/// decided at once: whether a sending end is read follows the machine's latest word, as a
/// socket's reading does.
extension InMemoryNetwork {
    /// The state machine's time: the scheduler's, from when the network was made.
    var now: ShaperInstant {
        ShaperInstant(nanoseconds: (scheduler.now - origin).nanosecondsClamped)
    }

    /// Queues `actions` and makes sure a turn carries them out.
    func perform(_ actions: [ProxyAction]) {
        queue(actions)
        if pending.count > turnRemaining { scheduleTurn() }
        if !performing { scheduleWakeup() }
    }

    private func queue(_ actions: [ProxyAction]) {
        for action in actions {
            if case .setReading(let number, let side, let on) = action, let pipe = pipesByNumber[number] {
                pipe.flows[side.outgoing.index].reading = on
            }
        }
        pending.append(contentsOf: actions)
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

    /// Carries out the actions queued so far, in order.
    private func carryOut() {
        guard !performing else { return }
        performing = true
        turnRemaining = pending.count
        while turnRemaining > 0, let action = pending.popFirst() {
            turnRemaining -= 1
            carryOut(action)
        }
        turnRemaining = 0
        performing = false
        scheduleWakeup()
    }

    private func carryOut(_ action: ProxyAction) {
        switch action {
        case .connect(let number):
            if let pipe = pipesByNumber[number] { establish(pipe) }
        case .write(let number, let side, let bytes):
            // The upstream side is the server: it receives what travels upstream.
            if let pipe = pipesByNumber[number] { receive(bytes, on: pipe, side == .upstream ? .upstream : .downstream) }
        case .shutdownOutput(let number, let side):
            if let pipe = pipesByNumber[number] { endArrives(on: pipe, side == .upstream ? .upstream : .downstream) }
        case .setReading(let number, let side, let on):
            // The flag was set when the action was queued; reading resumes here, in order.
            if on, let pipe = pipesByNumber[number] { read(pipe, side.outgoing) }
        case .close(let number, let reset, let reason):
            if let pipe = pipesByNumber[number] { closed(pipe, reset: reset, reason: reason) }
        case .forget(let number):
            if let pipe = pipesByNumber.removeValue(forKey: number) { finish(pipe) }
        case .event(let event):
            // Bytes the toxics, resets and closes discarded go into the trace, as the proxy's.
            if let line = event.shaperTraceEvent { shaper?.trace?.record(line) }
            onEvent?(event)
        }
    }

    /// Keeps one timer at the state machine's next wake-up.
    func scheduleWakeup() {
        // "Never" (a link down for good) needs no timer.
        guard let next = machine.nextWakeup, next.nanoseconds < Int64.max / 2 else {
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
        let work = scheduler.schedule(at: at) { [weak self] in
            self?.wake()
        }
        wakeup = (at, work)
    }

    private func wake() {
        wakeup = nil
        queue(machine.advance(to: now))
        carryOut()
    }
}
