import NIOCore
import Synchronization

/// A server's connections from accept to close, each served by a task of its own from the
/// moment it is accepted, so none waits unserved.
///
/// NIO's async server channel hands accepted connections through a stream; when the serving task
/// is cancelled (a graceful shutdown cancels it too) while one is still in that stream, the stream
/// drops it, and a `NIOAsyncChannel` dropped before `executeThenClose` traps ("Deinited
/// NIOAsyncWriter without calling finish()", swift-nio#2637, #3481). A loaded test run hit it:
/// `lowband proxy --api` could on Ctrl-C. Here a connection accepted after ``stop()`` began is
/// closed through `executeThenClose` as well.
final class ServedConnections<Inbound: Sendable, Outbound: Sendable>: Sendable {
    typealias Connection = NIOAsyncChannel<Inbound, Outbound>

    private struct State {
        var open: [ObjectIdentifier: any Channel] = [:]
        var tasks = 0
        var stopped = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let serve: @Sendable (Connection) async -> Void

    /// Connections served by `serve`, which must return once the connection's channel closes.
    init(serve: @escaping @Sendable (Connection) async -> Void) {
        self.serve = serve
    }

    /// Starts serving `connection` (called from the child channel's initializer).
    func admit(_ connection: Connection) {
        let channel = connection.channel
        let admitted = state.withLock { state -> Bool in
            state.tasks += 1
            guard !state.stopped else { return false }
            state.open[ObjectIdentifier(channel)] = channel
            return true
        }
        Task { [serve] in
            if admitted {
                await serve(connection)
            } else {
                try? await connection.executeThenClose { _, _ in }
            }
            self.finished(channel)
        }
    }

    /// Closes every connection and returns once all their tasks have ended; connections accepted
    /// from now on are closed at once.
    func stop() async {
        let open = state.withLock { state -> [any Channel] in
            state.stopped = true
            return Array(state.open.values)
        }
        for channel in open { channel.close(promise: nil) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                guard state.tasks > 0 else { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    private func finished(_ channel: any Channel) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open[ObjectIdentifier(channel)] = nil
            state.tasks -= 1
            guard state.tasks == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
