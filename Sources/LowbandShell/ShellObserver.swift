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

    package init(profile: String, seed: UInt64) {
        self.profile = profile
        self.seed = seed
    }
}

/// The latest ``ShellSnapshot``, written by the shell's loop and read by the API's threads.
package final class ShellObserver: Sendable {
    private let latest: Mutex<ShellSnapshot>

    package init(_ first: ShellSnapshot) {
        latest = Mutex(first)
    }

    package var snapshot: ShellSnapshot { latest.withLock { $0 } }

    func publish(_ change: (inout ShellSnapshot) -> Void) {
        latest.withLock { change(&$0) }
    }
}
