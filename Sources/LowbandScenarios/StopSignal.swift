import Synchronization

/// Asks a running scenario to stop early (the CLI triggers it on Ctrl-C).
///
/// The run then stops at once, cleanly, and returns what it measured so far with
/// `LowbandRunReport/RunRecord/partial` set. Triggering it twice, or before the run starts,
/// is harmless: a run started with a triggered signal stops at its first step.
package final class StopSignal: Sendable {
    private struct State {
        var stopped = false
        var nextToken: UInt64 = 0
        var handlers: [(token: UInt64, handler: @Sendable () -> Void)] = []
    }

    private let state = Mutex(State())

    /// A signal not yet triggered.
    package init() {}

    /// Requests the stop; handlers registered by the run are called on this thread.
    package func stop() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.stopped else { return [] }
            state.stopped = true
            let handlers = state.handlers.map(\.handler)
            state.handlers = []
            return handlers
        }
        for handler in handlers { handler() }
    }

    /// Whether ``stop()`` was called; safe from any thread.
    package var isStopped: Bool {
        state.withLock { $0.stopped }
    }

    /// Calls `handler` when the stop is requested (at once when it already was); the token
    /// removes it.
    func onStop(_ handler: @escaping @Sendable () -> Void) -> UInt64 {
        let (token, already) = state.withLock { state -> (UInt64, Bool) in
            state.nextToken += 1
            if state.stopped { return (state.nextToken, true) }
            state.handlers.append((state.nextToken, handler))
            return (state.nextToken, false)
        }
        if already { handler() }
        return token
    }

    func removeHandler(_ token: UInt64) {
        state.withLock { state in state.handlers.removeAll { $0.token == token } }
    }
}
