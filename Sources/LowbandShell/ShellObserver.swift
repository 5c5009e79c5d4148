import Glibc
package import LowbandProxyCore
package import LowbandShaper
import Synchronization

/// A shell's link at one moment, for `/stats` and `/metrics`.
package struct ShellSnapshot: Sendable {
    package var profile: String
    package var seed: UInt64
    /// Seconds since the link started.
    package var elapsed: Double = 0
    package var statistics = ShellStatistics()
    /// Bytes waiting for (or crossing) each direction's bottleneck, upstream first.
    package var queuedBytes = [0, 0]
    /// What the radio did so far; nil when the profile has none.
    package var radio: RadioStatistics?
    /// Whether the command still runs.
    package var running = true
    /// The profile the link plays now (switched through the API).
    package var networkProfile: NetworkProfile?
    /// The toxics on the link, in the order they act.
    package var toxics: [Toxic] = []
    /// The TCP connections crossing the link and not over yet, by number (the trace's `conn`).
    package var liveConnections: Set<Int> = []
    /// The end of the outage forced through the API, seconds since the link started, and its
    /// kind (`outage`, `handover`); nil when none was forced.
    package var forced: (until: Double, kind: String)?

    package init(profile: String, seed: UInt64) {
        self.profile = profile
        self.seed = seed
    }
}

/// A change the API asks of the running shell.
package enum ShellControl: Sendable {
    /// An outage (or handover) now, for that long.
    case outage(OutageProfile.Kind, Duration)
    /// Another link from now: this profile, this seed.
    case link(NetworkProfile, seed: UInt64)
    /// These toxics from now (the whole list, in order); `change` is the trace's words for what
    /// changed (`added latency_downstream: latency jitter=0 latency=500`).
    case toxics([Toxic], change: String, stream: Direction)
    /// Reset this TCP connection (by number), or every one not over yet (nil), now: a reset
    /// made up toward each end, as the link's own resets; `reason` goes into the trace.
    case reset(connection: Int?, reason: String)
}

/// The latest ``ShellSnapshot``, written by the shell's loop and read by the API's threads, and
/// the controls the API sends the other way (the loop is woken by a zero byte on its pipe).
package final class ShellObserver: Sendable {
    private let latest: Mutex<ShellSnapshot>
    private let inbox = Mutex<[ShellControl]>([])
    /// The write end of the loop's signal pipe; a 0 byte there means "read the inbox".
    private let wake: Int32

    /// When the link started (``MonotonicClock`` nanoseconds), set by the session; the API
    /// reads the link's time from it.
    private let origin = Mutex<Int64?>(nil)

    package init(_ first: ShellSnapshot, wake: Int32 = -1) {
        latest = Mutex(first)
        self.wake = wake
    }

    /// Seconds since the link started, now (0 before it started).
    package var elapsed: Double {
        guard let start = origin.withLock({ $0 }) else { return 0 }
        return Double(MonotonicClock().nanoseconds() - start) / 1e9
    }

    func started(at nanoseconds: Int64) {
        origin.withLock { $0 = nanoseconds }
    }

    /// Changes the snapshot from the API's side (its toxics, its profile), under the lock;
    /// what `change` throws is thrown and nothing is changed.
    package func update<Failure: Error>(_ change: (inout ShellSnapshot) throws(Failure) -> Void) throws(Failure) {
        try latest.withLock { (snapshot: inout ShellSnapshot) throws(Failure) in
            var copy = snapshot
            try change(&copy)
            snapshot = copy
        }
    }

    /// Queues `control` for the loop and wakes it; at most 64 wait (older ones are kept).
    package func send(_ control: ShellControl) {
        let queued = inbox.withLock { inbox in
            guard inbox.count < 64 else { return false }
            inbox.append(control)
            return true
        }
        guard queued, wake >= 0 else { return }
        var zero: UInt8 = 0
        _ = write(wake, &zero, 1)
    }

    /// The controls sent since the last call, in order.
    func takeControls() -> [ShellControl] {
        inbox.withLock { inbox in
            defer { inbox = [] }
            return inbox
        }
    }

    package var snapshot: ShellSnapshot { latest.withLock { $0 } }

    func publish(_ change: (inout ShellSnapshot) -> Void) {
        latest.withLock { change(&$0) }
    }
}
