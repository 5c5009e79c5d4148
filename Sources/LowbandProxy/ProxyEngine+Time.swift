import LowbandDeterminism
import LowbandProxyCore
import LowbandShaper
import LowbandTransport
import NIOCore
import NIOPosix

/// ProxyEngine: its clock, the next wake-up, and the gate an outage shuts.
extension ProxyEngine {
    func now() -> ShaperInstant {
        ShaperInstant(nanoseconds: (scheduler.now - origin).nanosecondsClamped)
    }

    func scheduleWakeup() {
        // "Never" (an outage without end) needs no timer either.
        guard let next = Self.nextWakeup(of: &machine), next.nanoseconds < Self.never else {
            if let timer { scheduler.cancel(timer) }
            timer = nil
            timerDeadline = nil
            return
        }
        var deadline = origin + .nanoseconds(next.nanoseconds)
        let current = scheduler.now
        if deadline <= current {
            // Never spin: something due that the machine could not settle waits 100 µs.
            deadline = current + .microseconds(100)
        }
        if timerDeadline == deadline { return }
        if let timer { scheduler.cancel(timer) }
        timerDeadline = deadline
        timer = scheduler.schedule(at: deadline) {
            self.timer = nil
            self.timerDeadline = nil
            self.perform(self.machine.advance(to: self.now()))
        }
    }


    /// The machine's next wake-up, read where the machine is stored: `machine.nextWakeup` on
    /// this class's property copied the whole machine (and retained all it holds) per event.
    static func nextWakeup(of machine: inout ProxyStateMachine) -> ShaperInstant? {
        machine.nextWakeup
    }

    // MARK: Blackouts

    /// Shuts the listener's handshakes while the link is down, as a dead network loses SYNs,
    /// and opens them when it comes back; checks again at the next change of the link.
    func updateGate() {
        if let gateTimer { scheduler.cancel(gateTimer) }
        gateTimer = nil
        guard let listener, HandshakeGate.isSupported else { return }
        let shut: Bool
        let change: ShaperInstant?
        switch machine.reachability(at: now()) {
        case .up(let until):
            (shut, change) = (false, until)
        case .down(let until):
            (shut, change) = (true, until)
        }
        if shut != gateShut, HandshakeGate.set(shut, on: listener) {
            for door in doorListeners { _ = HandshakeGate.set(shut, on: door) }
            gateShut = shut
            gateUsed = gateUsed || shut
        }
        guard let change, change.nanoseconds < Self.never else { return }
        let deadline = max(origin + .nanoseconds(change.nanoseconds), scheduler.now + .microseconds(100))
        gateTimer = scheduler.schedule(at: deadline) {
            self.gateTimer = nil
            self.updateGate()
        }
    }
}
