import Synchronization

/// The events a session received, in arrival order, stamped on one clock: what `POST /events`,
/// an events file and a command's `LOWBAND_EVENT` lines write to, and what the checker reads.
///
/// Bounded: at most ``Limits/perSecond`` events are taken in any one second of the session's
/// clock and ``Limits/total`` in all; the rest are counted (``dropped``) and reported, never kept.
/// A message id is one message: an event that names it with another chat than it was first seen
/// in is refused. Safe to use from any thread.
public final class AppEventLog: Sendable {
    /// The caps of one log.
    public struct Limits: Sendable, Hashable {
        /// Events taken per second of the clock; more are dropped and counted.
        public var perSecond: Int
        /// Events kept in all.
        public var total: Int

        /// 2,000 a second, 200,000 in all; with ids capped at 200 characters each event is bounded,
        /// so the log is too (not measured: a few hundred bytes an event is the expectation).
        public init(perSecond: Int = 2_000, total: Int = 200_000) {
            self.perSecond = perSecond
            self.total = total
        }
    }

    /// What became of a batch of events.
    public struct Outcome: Sendable, Hashable {
        /// Events kept.
        public var accepted = 0
        /// Events over a cap, counted and dropped.
        public var dropped = 0
    }

    private struct State {
        var events: [AppEvent] = []
        /// Per kind, the arrival of each event kept, in order.
        var arrivals: [AppEvent.Kind: [(at: Duration, device: String)]] = [:]
        var chats: [String: String] = [:]
        var second: Int64 = -1
        var inSecond = 0
        var dropped = 0
    }

    /// The log's caps.
    public let limits: Limits
    private let clock: @Sendable () -> Duration
    private let state = Mutex(State())

    /// A log whose events are stamped by `clock` (time since the session started).
    public init(limits: Limits = Limits(), clock: @escaping @Sendable () -> Duration) {
        self.limits = limits
        self.clock = clock
    }

    /// A log stamped by the continuous clock, from now.
    public convenience init(limits: Limits = Limits()) {
        let origin = ContinuousClock.now
        self.init(limits: limits) { ContinuousClock.now - origin }
    }

    /// The session's clock now.
    public var now: Duration { clock() }

    /// Reads `text` (JSON lines), stamps every event with the clock now and keeps them.
    ///
    /// - Throws: ``AppEventReader/Failure`` for a bad line or a message id already seen in
    ///   another chat; then nothing of `text` is kept.
    @discardableResult
    public func append(lines text: String) throws(AppEventReader.Failure) -> Outcome {
        try append(AppEventReader.events(text, arrival: clock()))
    }

    /// Keeps `events` (stamped already), all or none.
    ///
    /// - Throws: ``AppEventReader/Failure`` for a message id already seen in another chat.
    @discardableResult
    public func append(_ events: [AppEvent]) throws(AppEventReader.Failure) -> Outcome {
        let limits = self.limits
        let result: Result<Outcome, AppEventReader.Failure> = state.withLock { state in
            var batch: [String: String] = [:]
            for (index, event) in events.enumerated() {
                guard let message = event.message, let chat = event.chat else { continue }
                if let known = state.chats[message] ?? batch[message], known != chat {
                    return .failure(AppEventReader.Failure(
                        line: index + 1, reason: "message '\(message)' was named in chat '\(known)' before; one message id is one message, here it names chat '\(chat)'"))
                }
                batch[message] = chat
            }
            var outcome = Outcome()
            for event in events {
                let second = event.arrival.components.seconds
                if second != state.second {
                    state.second = second
                    state.inSecond = 0
                }
                guard state.inSecond < limits.perSecond, state.events.count < limits.total else {
                    state.dropped += 1
                    outcome.dropped += 1
                    continue
                }
                state.inSecond += 1
                state.events.append(event)
                state.arrivals[event.kind, default: []].append((event.arrival, event.device))
                if let message = event.message, let chat = event.chat, state.chats[message] == nil { state.chats[message] = chat }
                outcome.accepted += 1
            }
            return .success(outcome)
        }
        return try result.get()
    }

    /// Every event kept, in arrival order.
    public var events: [AppEvent] { state.withLock { $0.events } }

    /// When the `occurrence`-th (1-based) event of `kind` arrived; nil while fewer have. Cheap:
    /// what an aimed fault polls while it waits for the app's moment.
    public func arrival(of kind: AppEvent.Kind, occurrence: Int) -> Duration? {
        moment(of: kind, occurrence: occurrence)?.at
    }

    /// When the `occurrence`-th event of `kind` (from 1) arrived, and from which device; nil
    /// until it has.
    public func moment(of kind: AppEvent.Kind, occurrence: Int) -> (at: Duration, device: String)? {
        state.withLock { state in
            guard occurrence >= 1, let list = state.arrivals[kind], list.count >= occurrence else { return nil }
            return list[occurrence - 1]
        }
    }

    /// Events dropped for being over a cap.
    public var dropped: Int { state.withLock { $0.dropped } }
}
