import LowbandWire

/// The server's time: its scheduler's clock in milliseconds from the configured epoch, made
/// strictly increasing for the stamps of changes.
///
/// Two changes in one millisecond get distinct stamps, and every change after a login reply's
/// `serverTime` is stamped later than it, so "changed since `lastSync`" (`updatedAt > lastSync`)
/// never misses or repeats a change. Under a burst the stamps may run a few milliseconds ahead
/// of the scheduler; they never go back.
struct ServerClock: Sendable, Hashable {
    let epoch: ServerTime
    /// The latest time handed out as a stamp or a sync point.
    private(set) var issued: ServerTime

    init(epoch: ServerTime) {
        self.epoch = epoch
        issued = epoch
    }

    /// The scheduler's `now` as server time, never behind what was handed out.
    func reading(at now: Duration) -> ServerTime {
        max(milliseconds(now), issued)
    }

    /// A stamp for a change made now: later than every stamp and sync point before it.
    mutating func stamp(at now: Duration) -> ServerTime {
        issued = max(milliseconds(now), issued + 1)
        return issued
    }

    /// A sync point for a login reply: every change so far is at or before it, every later one after.
    mutating func syncPoint(at now: Duration) -> ServerTime {
        issued = reading(at: now)
        return issued
    }

    private func milliseconds(_ duration: Duration) -> ServerTime {
        let (seconds, attoseconds) = duration.components
        return epoch + seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
