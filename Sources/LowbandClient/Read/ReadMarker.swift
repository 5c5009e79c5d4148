package import LowbandDeterminism
import LowbandWire

/// Sends the user's read positions to the server until it has acknowledged each: the
/// persistent `markRead`.
///
/// A position is stored first (``ReadStore/markRead(chatID:upTo:)``), so it survives a lost
/// link and a killed app; every login sends what is owed, one request per chat at a time, the
/// newest position only (the server keeps the highest, so a repeat or a stale one is harmless).
/// A transient failure is retried after a seeded back-off while the session stays up, else at
/// the next login; a refusal (the message is gone on the server) gives that position up, with
/// a warning in the log. Confined to its scheduler.
public final class ReadMarker {
    /// The read positions in the cache.
    public let store: ReadStore
    private let sender: any RequestSender
    private let scheduler: any Scheduler
    private let backoff: Backoff
    private var generator: SeededGenerator
    private let log: ClientLog
    private var inFlight: Set<Int64> = []
    private var retryTimer: ScheduledWork?
    private var failures = 0
    private var started = false

    /// A marker that sends `store`'s owed positions through `sender` on `scheduler`, retrying
    /// after `backoff` with jitter from `generator`. Nothing is sent before ``start()``.
    package init(store: ReadStore, sender: any RequestSender, scheduler: any Scheduler, backoff: Backoff, generator: SeededGenerator, log: ClientLog) {
        self.store = store
        self.sender = sender
        self.scheduler = scheduler
        self.backoff = backoff
        self.generator = generator
        self.log = log
    }

    /// Chats with a markRead on the wire.
    public var runningCount: Int { inFlight.count }

    /// Starts sending owed positions, now and after every login.
    public func start() {
        started = true
        pump()
    }

    /// Stops sending and cancels the retry timer; owed positions stay stored for the next
    /// ``start()``.
    public func stop() {
        started = false
        if let retryTimer { scheduler.cancel(retryTimer) }
        retryTimer = nil
    }

    /// Stores the position and sends it when a session is up. See ``ReadStore/markRead(chatID:upTo:)``.
    @discardableResult
    public func markRead(chatID: Int64, upTo: Int64) throws(ClientError) -> Bool {
        let moved = try store.markRead(chatID: chatID, upTo: upTo)
        if moved { pump() }
        return moved
    }

    /// Sends every owed position whose chat has none on the wire.
    public func pump() {
        guard started, sender.isLoggedIn else { return }
        let owed: [ReadStore.Owed]
        do {
            owed = try store.owed()
        } catch {
            record(.error, "databaseFailed", "cannot read the owed read positions: \(error)")
            return
        }
        for position in owed where !inFlight.contains(position.chatID) {
            send(position)
        }
    }

    private func send(_ position: ReadStore.Owed) {
        inFlight.insert(position.chatID)
        sender.send(MarkReadRequest(chatID: position.chatID, messageID: position.upTo), timeout: nil) { [weak self] result in
            guard let self else { return }
            self.inFlight.remove(position.chatID)
            switch result {
            case .success:
                self.failures = 0
                self.acknowledge(position)
                self.pump()
            case .failure(let error) where error.code == .stopped || !self.started:
                return
            case .failure(let error) where error.isTransient:
                self.retryLater()
            case .failure(let error):
                self.record(.warning, "markReadRefused", "chat \(position.chatID) read up to \(position.upTo) was refused and is given up: \(error)")
                self.acknowledge(position)
                self.pump()
            }
        }
    }

    private func acknowledge(_ position: ReadStore.Owed) {
        do {
            try store.acknowledge(chatID: position.chatID, upTo: position.upTo)
        } catch {
            record(.error, "databaseFailed", "cannot record the acknowledged read position of chat \(position.chatID): \(error)")
        }
    }

    /// Lost with the link: the next login pumps. Failed while the session is up: after a back-off.
    private func retryLater() {
        failures += 1
        guard sender.isLoggedIn, retryTimer == nil else { return }
        retryTimer = scheduler.schedule(after: backoff.delay(attempt: failures - 1, using: &generator)) { [weak self] in
            self?.retryTimer = nil
            self?.pump()
        }
    }

    private func record(_ level: ClientLogEntry.Level, _ event: String, _ message: String) {
        log.record(ClientLogEntry(time: scheduler.now, level: level, event: event, message: message))
    }
}
