package import LowbandShaper
import Glibc
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

    package init(profile: String, seed: UInt64) {
        self.profile = profile
        self.seed = seed
    }
}

/// A change the API asks of the running shell.
package enum ShellControl: Sendable, Hashable {
    /// An outage (or handover) now, for that long.
    case outage(OutageProfile.Kind, Duration)
}

/// The latest ``ShellSnapshot``, written by the shell's loop and read by the API's threads, and
/// the controls the API sends the other way (the loop is woken by a zero byte on its pipe).
package final class ShellObserver: Sendable {
    private let latest: Mutex<ShellSnapshot>
    private let inbox = Mutex<[ShellControl]>([])
    /// The write end of the loop's signal pipe; a 0 byte there means "read the inbox".
    private let wake: Int32

    package init(_ first: ShellSnapshot, wake: Int32 = -1) {
        latest = Mutex(first)
        self.wake = wake
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
