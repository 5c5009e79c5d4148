import LowbandDeterminism
public import LowbandTransport
import LowbandTransportSockets
public import NIOCore
import NIOPosix

/// A ``ClientEngine`` on a SwiftNIO event loop over TCP, driven from async code: the product's
/// way to run the engine, and what socket tests and scenarios use.
///
/// The engine, its scheduler and its connection live on one event loop; this handle is
/// `Sendable` and hops there for you.
///
/// ```swift
/// let host = try await ClientEngineHost.start(configuration: configuration, port: server.port)
/// try await host.withEngine { try $0.send(text: "hi", to: chatID) }
/// try await host.waitUntil { try $0.pendingTasks().isEmpty }
/// try await host.stop()
/// ```
public final class ClientEngineHost: Sendable {
    /// Why a wait ended without its condition.
    public struct WaitTimedOut: Error, CustomStringConvertible {
        /// What the condition was and how long it was waited for.
        public var description: String
    }

    /// The event-loop scheduler the engine runs on.
    public let scheduler: EventLoopScheduler
    private let state: NIOLoopBoundBox<HostState?>

    private init(scheduler: EventLoopScheduler, state: NIOLoopBoundBox<HostState?>) {
        self.scheduler = scheduler
        self.state = state
    }

    /// Builds the engine on `eventLoop` (nil: one of NIO's shared loops), connecting to
    /// `host:port`, lets `prepare` see it on that loop before it starts (to add an observer that
    /// must see every event, or store messages to send), and starts it.
    ///
    /// - Throws: ``ClientError`` `.database` when the cache cannot be opened even fresh; what
    ///   `prepare` throws (the engine is then not started).
    public static func start(
        configuration: ClientConfiguration,
        host: String = "127.0.0.1",
        port: Int,
        eventLoop: (any EventLoop)? = nil,
        prepare: @escaping @Sendable (ClientEngine) throws -> Void = { _ in }
    ) async throws -> ClientEngineHost {
        let loop = eventLoop ?? MultiThreadedEventLoopGroup.singleton.next()
        let scheduler = EventLoopScheduler(eventLoop: loop)
        let state = NIOLoopBoundBox.makeEmptyBox(valueType: HostState.self, eventLoop: loop)
        try await loop.submit {
            let connector = SocketFrameConnector(scheduler: scheduler, host: host, port: port)
            let engine = try ClientEngine(configuration: configuration, connector: connector, scheduler: scheduler, workClock: ContinuousWorkClock())
            do {
                try prepare(engine)
            } catch {
                engine.stop()
                throw error
            }
            state.value = HostState(engine: engine)
            engine.start()
        }.get()
        return ClientEngineHost(scheduler: scheduler, state: state)
    }

    /// Runs `body` with the engine on its event loop and returns what it returns.
    @discardableResult
    public func withEngine<Result: Sendable>(_ body: @escaping @Sendable (ClientEngine) throws -> Result) async throws -> Result {
        let state = self.state
        return try await scheduler.eventLoop.submit {
            guard let engine = state.value?.engine else { throw ClientError(.stopped, "the engine host was stopped") }
            return try body(engine)
        }.get()
    }

    /// Returns once `condition` holds; it is checked now and after every event of the engine,
    /// on its loop. No polling, no sleeping.
    ///
    /// - Throws: ``WaitTimedOut`` when it does not hold within `timeout`; what `condition` throws.
    public func waitUntil(timeout: Duration = .seconds(30), _ condition: @escaping @Sendable (ClientEngine) throws -> Bool) async throws {
        let state = self.state
        let scheduler = self.scheduler
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            scheduler.eventLoop.execute {
                guard let host = state.value else {
                    continuation.resume(throwing: ClientError(.stopped, "the engine host was stopped"))
                    return
                }
                host.add(Waiter(condition: condition, continuation: continuation), timeout: timeout)
            }
        }
    }

    /// Stops the engine (requests in flight fail, the link closes) and releases it.
    public func stop() async throws {
        let state = self.state
        try await scheduler.eventLoop.submit {
            state.value?.stop()
            state.value = nil
        }.get()
    }
}

/// A condition someone is waiting for.
private struct Waiter {
    var condition: @Sendable (ClientEngine) throws -> Bool
    var continuation: CheckedContinuation<Void, any Error>
}

/// The engine and the waiters, on the host's loop.
private final class HostState: ClientEngineObserver {
    let engine: ClientEngine
    /// Each waiter with its timeout, cancelled when the waiter is answered (a timer left behind
    /// would outlive the engine's stop).
    private var waiters: [(id: UInt64, waiter: Waiter, timeout: ScheduledWork?)] = []
    private var nextID: UInt64 = 0

    init(engine: ClientEngine) {
        self.engine = engine
        engine.addObserver(self)
    }

    func add(_ waiter: Waiter, timeout: Duration) {
        nextID += 1
        let id = nextID
        waiters.append((id, waiter, nil))
        check()
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters[index].timeout = engine.scheduler.schedule(after: timeout) { [weak self] in
            guard let self, let index = self.waiters.firstIndex(where: { $0.id == id }) else { return }
            let expired = self.waiters.remove(at: index).waiter
            expired.continuation.resume(throwing: ClientEngineHost.WaitTimedOut(description: "the condition did not hold within \(timeout)"))
        }
    }

    func stop() {
        engine.stop()
        let pending = waiters
        waiters = []
        for (_, waiter, timeout) in pending {
            if let timeout { engine.scheduler.cancel(timeout) }
            waiter.continuation.resume(throwing: ClientError(.stopped, "the engine host was stopped while waiting"))
        }
    }

    func engine(_ engine: ClientEngine, didEmit event: ClientEvent) {
        check()
    }

    private func check() {
        var index = 0
        while index < waiters.count {
            let (_, waiter, timeout) = waiters[index]
            do {
                if try waiter.condition(engine) {
                    waiters.remove(at: index)
                    if let timeout { engine.scheduler.cancel(timeout) }
                    waiter.continuation.resume()
                    continue
                }
            } catch {
                waiters.remove(at: index)
                if let timeout { engine.scheduler.cancel(timeout) }
                waiter.continuation.resume(throwing: error)
                continue
            }
            index += 1
        }
    }
}
