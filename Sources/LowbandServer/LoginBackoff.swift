/// Failed logins remembered per source address, so a client that reconnects after each refusal
/// does not start its back-off again: the next failure from that address waits as long as if it
/// had stayed on one connection.
///
/// A state machine with no I/O: ``MessengerServer`` tells it each failure with the scheduler's
/// time. It is bounded twice: an address's failures are forgotten ``ConnectionLimits/loginFailureMemory``
/// after its last one, and at most ``ConnectionLimits/loginFailureSources`` addresses are kept —
/// a new one then evicts the address whose last failure is oldest (ties by address, so the
/// choice never depends on hash order). A successful login does not clear its address: behind a
/// carrier NAT the next failure may be somebody else's, and a guesser with one good account
/// could otherwise reset the count at will; the delay's cap (``ConnectionLimits/loginFailureDelayCap``)
/// bounds what honest users behind the same address pay.
package struct LoginBackoff: Sendable {
    package struct Entry: Sendable, Hashable {
        /// Failures since the address was last forgotten.
        package var failures: Int
        /// When the last one happened.
        package var last: Duration
    }

    package let limits: ConnectionLimits
    package private(set) var entries: [String: Entry] = [:]

    package init(limits: ConnectionLimits) {
        self.limits = limits
    }

    /// Records a failed login from `address` at `now`; returns the failures from it that count
    /// (this one included).
    package mutating func failed(from address: String, at now: Duration) -> Int {
        var entry = entries[address].flatMap { now - $0.last < limits.loginFailureMemory ? $0 : nil } ?? Entry(failures: 0, last: now)
        entry.failures = min(entry.failures + 1, 64)
        entry.last = now
        if entries[address] == nil, entries.count >= limits.loginFailureSources {
            forgetExpired(at: now)
            if entries.count >= limits.loginFailureSources, let oldest = entries.min(by: { ($0.value.last, $0.key) < ($1.value.last, $1.key) })?.key {
                entries[oldest] = nil
            }
        }
        entries[address] = entry
        return entry.failures
    }

    /// The failures from `address` that still count at `now`.
    package func failures(from address: String, at now: Duration) -> Int {
        guard let entry = entries[address], now - entry.last < limits.loginFailureMemory else { return 0 }
        return entry.failures
    }

    /// Drops every address whose last failure is ``ConnectionLimits/loginFailureMemory`` old.
    package mutating func forgetExpired(at now: Duration) {
        entries = entries.filter { now - $0.value.last < limits.loginFailureMemory }
    }
}
