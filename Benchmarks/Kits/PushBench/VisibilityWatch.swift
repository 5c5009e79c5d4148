import LowbandClient
import NIOCore

/// Watches one open chat screen on the client's event loop: notes the monotonic instant the
/// next message row enters the list, and wakes whoever waits for it, a screen state or an idle
/// update queue — from the screen's own visibility events and queue, never by polling.
///
/// Confined to the client's loop (kept in a `NIOLoopBoundBox`). Every wait has a timeout timer
/// that is cancelled when the wait ends, so a closed watch leaves nothing scheduled.
final class VisibilityWatch {
    /// When a message row entered the list, and what it shows.
    struct Shown: Hashable, Sendable {
        var visibleAt: NIODeadline
        /// When the decoded push reached the engine (the engine's `arrivedAt`, moved onto the
        /// same monotonic clock); nil for rows without one.
        var arrivedAt: NIODeadline?
        var text: String?
    }

    private struct Pending<Value: Sendable> {
        var continuation: CheckedContinuation<Value, any Error>
        var timeout: Scheduled<Void>

        func resume(_ result: Result<Value, any Error>) {
            timeout.cancel()
            continuation.resume(with: result)
        }
    }

    let screen: ChatScreenModel
    private let loop: any EventLoop
    private var nextRow: (promise: EventLoopPromise<(id: Int64, row: Shown)>, timeout: Scheduled<Void>)?
    private var stateWaiters: [(id: UInt64, condition: (ChatScreenModel) -> Bool, pending: Pending<Void>)] = []
    private var idleWaiters: [UInt64: Pending<Void>] = [:]
    private var nextID: UInt64 = 0
    private var closed = false

    init(screen: ChatScreenModel, loop: any EventLoop) {
        self.screen = screen
        self.loop = loop
        screen.onVisible = { [weak self] event in self?.record(event) }
    }

    // MARK: Waiting

    /// Fulfils `promise` with the next message row that enters the list, and its message id:
    /// registered before the push is posted, so the push's arrival never waits for the
    /// harness to ask for it (the client's loop may be busy storing the message right after
    /// showing it). One such wait at a time; fails after `timeout`.
    func whenNextShown(timeout: Duration, _ promise: EventLoopPromise<(id: Int64, row: Shown)>) {
        guard !closed else { return promise.fail(Self.stoppedError) }
        guard nextRow == nil else {
            return promise.fail(PushBenchError(.stopped, "a wait for the next row is already registered; pushes are measured one at a time"))
        }
        let chatID = screen.chatID
        let timer = loop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) { [weak self] () -> Void in
            guard let self, let waiting = self.nextRow else { return }
            self.nextRow = nil
            waiting.promise.fail(PushBenchError(.timedOut, "no new message was visible in chat \(chatID) within \(timeout)"))
        }
        nextRow = (promise, timer)
    }

    /// Resumes `continuation` once `condition` holds for the screen: checked now and after
    /// every visibility event.
    func when(_ condition: @escaping (ChatScreenModel) -> Bool, timeout: Duration, describe: String, _ continuation: CheckedContinuation<Void, any Error>) {
        guard !closed else { return continuation.resume(throwing: Self.stoppedError) }
        if condition(screen) { return continuation.resume() }
        let id = takeID()
        let timer = loop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) { [weak self] in
            guard let self, let index = self.stateWaiters.firstIndex(where: { $0.id == id }) else { return }
            self.stateWaiters.remove(at: index).pending.resume(.failure(PushBenchError(.timedOut, "\(describe) did not happen within \(timeout)")))
        }
        stateWaiters.append((id, condition, Pending(continuation: continuation, timeout: timer)))
    }

    /// Resumes `continuation` when every update queued on the screen so far, animations
    /// included, has run: a no-op update is queued behind them.
    func whenIdle(timeout: Duration, _ continuation: CheckedContinuation<Void, any Error>) {
        guard !closed else { return continuation.resume(throwing: Self.stoppedError) }
        let id = takeID()
        let timer = loop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) { [weak self] () -> Void in
            self?.idleWaiters.removeValue(forKey: id)?.resume(.failure(PushBenchError(.timedOut, "the chat screen's update queue was still busy after \(timeout)")))
        }
        idleWaiters[id] = Pending(continuation: continuation, timeout: timer)
        screen.queue.enqueue("push-bench: idle") { [weak self] in
            self?.idleWaiters.removeValue(forKey: id)?.resume(.success(()))
            return .zero
        }
    }

    /// Fails every wait, cancels its timers and lets go of the screen.
    func close() {
        guard !closed else { return }
        closed = true
        screen.onVisible = nil
        if let waiting = nextRow {
            nextRow = nil
            waiting.timeout.cancel()
            waiting.promise.fail(Self.stoppedError)
        }
        let states = stateWaiters
        stateWaiters.removeAll()
        for waiter in states { waiter.pending.resume(.failure(Self.stoppedError)) }
        let idles = idleWaiters.values
        idleWaiters.removeAll()
        for pending in idles { pending.resume(.failure(Self.stoppedError)) }
    }

    // MARK: Events

    private func record(_ event: VisibilityEvent) {
        guard !closed, case .message(let id) = event.row else { return }
        let now = NIODeadline.now()
        // The engine's times are its scheduler's; `visibleAt` is this very turn, so the
        // arrival sits `visibleAt - arrivedAt` before now on the monotonic clock.
        let arrived = event.arrivedAt.map { now - TimeAmount(event.visibleAt - $0) }
        let text = screen.rows.last { $0.id == event.row }?.message.text
        if let waiting = nextRow {
            nextRow = nil
            waiting.timeout.cancel()
            waiting.promise.succeed((id, Shown(visibleAt: now, arrivedAt: arrived, text: text)))
        }
        var index = 0
        while index < stateWaiters.count {
            if stateWaiters[index].condition(screen) {
                stateWaiters.remove(at: index).pending.resume(.success(()))
            } else {
                index += 1
            }
        }
    }

    private func takeID() -> UInt64 {
        nextID += 1
        return nextID
    }

    private static var stoppedError: PushBenchError {
        PushBenchError(.stopped, "the push-to-visible harness was stopped")
    }
}

@available(*, unavailable)
extension VisibilityWatch: Sendable {}
