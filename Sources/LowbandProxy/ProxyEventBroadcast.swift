import LowbandProxyCore
import Synchronization

/// Hands each proxy event to every live subscriber. A subscriber that falls behind loses its
/// oldest events (each keeps at most `bufferSize`), so a slow reader never holds up the proxy.
final class ProxyEventBroadcast: Sendable {
    private struct State {
        var nextID = 0
        /// In subscription order.
        var subscribers: [(id: Int, continuation: AsyncStream<ProxyEvent>.Continuation)] = []
        var finished = false
    }

    private let state = Mutex(State())
    /// The subscribers' count, kept beside `state` (changed under its lock) so the proxy can
    /// ask at every read burst without taking the lock.
    private let listening = Atomic<Int>(0)
    private let bufferSize: Int

    init(bufferSize: Int = 4096) {
        self.bufferSize = bufferSize
    }

    /// True while somebody listens, so events need not be built for nobody.
    var hasSubscribers: Bool { listening.load(ordering: .sequentiallyConsistent) > 0 }

    func subscribe() -> AsyncStream<ProxyEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ProxyEvent.self, bufferingPolicy: .bufferingNewest(bufferSize))
        let id: Int? = state.withLock { state in
            guard !state.finished else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.subscribers.append((id, continuation))
            listening.store(state.subscribers.count, ordering: .sequentiallyConsistent)
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.state.withLock { state in
                state.subscribers.removeAll { $0.id == id }
                self.listening.store(state.subscribers.count, ordering: .sequentiallyConsistent)
            }
        }
        return stream
    }

    func publish(_ event: ProxyEvent) {
        let subscribers = state.withLock { $0.subscribers.map(\.continuation) }
        for subscriber in subscribers {
            subscriber.yield(event)
        }
    }

    /// Ends every subscription; later subscribers get an empty stream.
    func finish() {
        let subscribers = state.withLock { state in
            state.finished = true
            defer {
                state.subscribers.removeAll()
                listening.store(0, ordering: .sequentiallyConsistent)
            }
            return state.subscribers.map(\.continuation)
        }
        for subscriber in subscribers {
            subscriber.finish()
        }
    }
}
