import Synchronization

/// Where an engine's events go: the observers, called at once on the engine's scheduler, and
/// the event streams, each a bounded buffer its consumer reads at its own pace.
///
/// Confined to the engine's scheduler, except the streams' table, which a stream's termination
/// (a consumer's task cancelled, on any thread) also reaches.
final class ClientEventBroadcast {
    private var observers: [WeakObserver] = []
    private let streams = ClientEventStreams()

    private struct WeakObserver {
        weak var observer: (any ClientEngineObserver)?
    }

    deinit {
        streams.finishAll()
    }

    func add(_ observer: any ClientEngineObserver) {
        observers.removeAll { $0.observer == nil }
        guard !observers.contains(where: { $0.observer === observer }) else { return }
        observers.append(WeakObserver(observer: observer))
    }

    func remove(_ observer: any ClientEngineObserver) {
        observers.removeAll { $0.observer == nil || $0.observer === observer }
    }

    func stream(bufferingNewest limit: Int) -> AsyncStream<ClientEvent> {
        streams.subscribe(bufferingNewest: limit)
    }

    /// Streams not yet finished or cancelled.
    var streamCount: Int { streams.count }

    /// Calls every observer, in the order they were added, then hands `event` to every stream.
    func emit(_ event: ClientEvent, from engine: ClientEngine) {
        // A copy: an observer may add or remove observers while it is called.
        for entry in observers {
            entry.observer?.engine(engine, didEmit: event)
        }
        streams.yield(event)
    }
}

/// The event streams' continuations, in subscription order.
private final class ClientEventStreams: Sendable {
    private struct Table {
        var lastID: UInt64 = 0
        var continuations: [(id: UInt64, continuation: AsyncStream<ClientEvent>.Continuation)] = []
    }

    private let table = Mutex(Table())

    var count: Int { table.withLock { $0.continuations.count } }

    func subscribe(bufferingNewest limit: Int) -> AsyncStream<ClientEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ClientEvent.self, bufferingPolicy: .bufferingNewest(max(1, limit)))
        let id = table.withLock { table in
            table.lastID += 1
            table.continuations.append((table.lastID, continuation))
            return table.lastID
        }
        continuation.onTermination = { [weak self] _ in
            self?.table.withLock { $0.continuations.removeAll { $0.id == id } }
        }
        return stream
    }

    func yield(_ event: ClientEvent) {
        // Yielded outside the lock: a consumer resumed by it may cancel its stream at once.
        let continuations = table.withLock { $0.continuations.map(\.continuation) }
        for continuation in continuations {
            continuation.yield(event)
        }
    }

    func finishAll() {
        let continuations = table.withLock { table in
            defer { table.continuations.removeAll() }
            return table.continuations.map(\.continuation)
        }
        for continuation in continuations {
            continuation.finish()
        }
    }
}
