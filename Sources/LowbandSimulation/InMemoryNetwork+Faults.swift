/// Faults a harness injects in virtual time. They go through the same state machine as the
/// socket proxy's; like the proxy's, they act on every open connection of the network.
extension InMemoryNetwork {
    /// Resets every connection, as a dropped radio link or a crashed server would: both ends
    /// see `linkDidClose` with a ``LowbandTransport/TransportError`` `.connectionReset`; what
    /// was on its way is lost. Connections still being set up fail the same way.
    public func cut() {
        perform(machine.resetAll(reason: "the network was cut", at: now))
    }

    /// Resets the connection `link` belongs to (both ends see `.connectionReset`).
    public func reset(_ link: InMemoryLink) {
        guard link.pipe.network === self, link.pipe.phase != .closed else { return }
        perform(machine.reset(link.pipe.number, reason: "reset by the harness", at: now))
    }
}
