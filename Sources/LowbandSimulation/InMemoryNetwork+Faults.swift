public import LowbandProxyCore
public import LowbandShaper

/// Faults a harness injects in virtual time. They go through the same state machine as the
/// socket proxy's, so a toxic or a partition does here exactly what it does there; like the
/// proxy's, they act on every open and every new connection of the network.
extension InMemoryNetwork {
    /// Resets every connection, as a dropped radio link or a crashed server would: both ends
    /// see `linkDidClose` with a `LowbandTransport/TransportError` `.connectionReset`; what
    /// was on its way is lost. Connections still being set up fail the same way.
    public func cut() {
        perform(machine.resetAll(reason: "the network was cut", at: now))
    }

    /// Resets the connection `link` belongs to (both ends see `.connectionReset`).
    public func reset(_ link: InMemoryLink) {
        guard link.pipe.network === self, link.pipe.phase != .closed else { return }
        perform(machine.reset(link.pipe.number, reason: "reset by the harness", at: now))
    }

    /// The network forgets the flow of the connection `link` belongs to, as a carrier NAT that
    /// lost its binding does: from now on its bytes vanish both ways with no reset, and only a
    /// timeout at an end (a heartbeat) finds it dead. Other and new connections work.
    public func forgetBinding(_ link: InMemoryLink) {
        guard link.pipe.network === self, link.pipe.phase != .closed else { return }
        perform(machine.forget(link.pipe.number, at: now))
    }

    // MARK: Toxics

    /// The toxics in force, in the order they act.
    public var toxics: [Toxic] { machine.toxics }

    /// Adds a toxic to every open and future connection, as the proxy's control API does.
    ///
    /// - Throws: `ProxyError`: `toxicExists`, `invalidToxicType` or `invalidAttribute`.
    @discardableResult
    public func addToxic(_ toxic: Toxic) throws(ProxyError) -> Toxic {
        let (added, output) = try machine.addToxic(toxic, at: now)
        perform(output)
        return added
    }

    /// Changes a toxic's attributes (those given) and toxicity (when given).
    ///
    /// - Throws: `ProxyError`: `toxicNotFound` or `invalidAttribute`.
    @discardableResult
    public func updateToxic(named name: String, attributes: [String: Int64] = [:], toxicity: Double? = nil) throws(ProxyError) -> Toxic {
        let (updated, output) = try machine.updateToxic(named: name, attributes: attributes, toxicity: toxicity, at: now)
        perform(output)
        return updated
    }

    /// Removes a toxic; what it held goes on at once.
    ///
    /// - Throws: `ProxyError` `toxicNotFound`.
    public func removeToxic(named name: String) throws(ProxyError) {
        perform(try machine.removeToxic(named: name, at: now))
    }

    /// Removes every toxic; what they held goes on at once.
    public func removeAllToxics() {
        perform(machine.removeAllToxics(at: now))
    }

    // MARK: Partitions

    /// Directions held by a partition, in the order they were cut off.
    public var partitions: [Direction] { machine.partitioned }

    /// Cuts `direction` off on every connection without dropping anything: its bytes are held
    /// (those on the link included) until ``heal()``, then arrive in order, ends and closes
    /// behind them. The other direction keeps flowing.
    public func partition(_ direction: Direction) {
        perform(machine.partition(direction, at: now))
    }

    /// Ends every partition: the held bytes arrive at once, and what was not yet on the link
    /// goes onto it.
    public func heal() {
        perform(machine.heal(at: now))
    }
}
