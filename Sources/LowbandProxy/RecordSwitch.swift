import Synchronization

/// Pauses and resumes a session's record (`lowband proxy --record`): while paused, neither the
/// proxies' decisions nor the app's events are kept, and the record's timeline marks both ends.
/// The control API's `GET|POST /record` and the live page's button use it.
public final class RecordSwitch: Sendable {
    private struct State {
        var paused = false
        var intervals: [(start: Duration, end: Duration?)] = []
    }

    private let state = Mutex(State())
    private let clock: @Sendable () -> Duration

    /// A switch whose pauses are timed by `clock` (the session's).
    public init(clock: @escaping @Sendable () -> Duration) {
        self.clock = clock
    }

    /// Whether the record is paused now.
    public var isPaused: Bool { state.withLock { $0.paused } }

    /// Pauses or resumes; a pause already in force (or a resume of a running record) changes nothing.
    public func set(paused: Bool) {
        let now = clock()
        state.withLock { state in
            guard state.paused != paused else { return }
            state.paused = paused
            if paused {
                state.intervals.append((now, nil))
            } else if let last = state.intervals.indices.last {
                state.intervals[last].end = now
            }
        }
    }

    /// The stretches the record was paused, on the session's clock; the last may still be open.
    public var pausedIntervals: [(start: Duration, end: Duration?)] { state.withLock { $0.intervals } }

    /// Whether `instant` fell in a pause.
    public func wasPaused(at instant: Duration) -> Bool {
        state.withLock { state in
            state.intervals.contains { $0.start <= instant && ($0.end.map { instant < $0 } ?? true) }
        }
    }
}
