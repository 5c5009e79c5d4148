package import LowbandTransport
import LowbandTransportSockets
package import LowbandWire
package import NIOCore

/// A frame client over a real socket, driven from async tests: a request waits for the response
/// with its sequence number, pushes queue up, every wait has a deadline.
///
/// The link and its delegate live on the event loop; this handle hops there.
package final class LoopClient: Sendable {
    package struct Timeout: Error, CustomStringConvertible {
        package var description: String
    }

    package struct Closed: Error, CustomStringConvertible {
        package var description: String
    }

    package let loop: any EventLoop
    private let box: NIOLoopBoundBox<State>

    private init(loop: any EventLoop, box: NIOLoopBoundBox<State>) {
        self.loop = loop
        self.box = box
    }

    /// Connects to 127.0.0.1:`port` from `loop`.
    package static func connect(port: Int, host: String = "127.0.0.1", loop: any EventLoop, configuration: FrameConfiguration = FrameConfiguration()) async throws -> LoopClient {
        let scheduler = EventLoopScheduler(eventLoop: loop)
        let connector = SocketFrameConnector(scheduler: scheduler, configuration: .init(host: host, port: port, connectTimeout: .seconds(10), frame: configuration))
        let promise = loop.makePromise(of: NIOLoopBoundBox<State>.self)
        loop.execute {
            connector.connect { result in
                switch result {
                case .success(let link):
                    let state = State(link: link)
                    link.delegate = state
                    promise.succeed(NIOLoopBoundBox(state, eventLoop: loop))
                case .failure(let error):
                    promise.fail(error)
                }
            }
        }
        return LoopClient(loop: loop, box: try await promise.futureResult.get())
    }

    /// Sends `request` with the next sequence number and returns the response frame.
    package func send<R: WireRequest>(_ request: R, timeout: TimeAmount = .seconds(10)) async throws -> Frame {
        let box = self.box
        let loop = self.loop
        let future = try await loop.submit { () throws -> EventLoopFuture<Frame> in
            let state = box.value
            state.sequence += 1
            return state.request(try Frame.request(request, sequence: state.sequence), timeout: timeout, box: box)
        }.get()
        return try await future.get()
    }

    /// Sends a raw frame and waits for the response with its sequence number.
    package func send(raw frame: Frame, timeout: TimeAmount = .seconds(10)) async throws -> Frame {
        let box = self.box
        let future = try await loop.submit { box.value.request(frame, timeout: timeout, box: box) }.get()
        return try await future.get()
    }

    /// Sends `request` and decodes its successful reply (an error reply throws it).
    package func call<R: WireRequest>(_ request: R, timeout: TimeAmount = .seconds(10)) async throws -> R.Reply {
        let frame = try await send(request, timeout: timeout)
        if frame.flags.contains(.error) {
            throw try frame.decode(ErrorReply.self)
        }
        return try frame.decode(R.Reply.self)
    }

    /// The next push, in arrival order.
    package func nextPush(timeout: TimeAmount = .seconds(10)) async throws -> Frame {
        let box = self.box
        let future = try await loop.submit { box.value.nextPush(timeout: timeout, box: box) }.get()
        return try await future.get()
    }

    /// Pushes that arrived and were not taken yet.
    package var queuedPushes: Int {
        get async throws {
            let box = self.box
            return try await loop.submit { box.value.pushes.count }.get()
        }
    }

    /// Waits until the link has closed; returns the close error's description, if any.
    package func closed(timeout: TimeAmount = .seconds(10)) async throws -> String? {
        let box = self.box
        let future = try await loop.submit { box.value.closed(timeout: timeout, box: box) }.get()
        return try await future.get()
    }

    /// Closes the link and waits for the close.
    package func close() async throws {
        let box = self.box
        try await loop.submit { box.value.link.close() }.get()
        _ = try await closed()
    }

    /// Bytes and frames the link sent and received so far.
    package var traffic: (sent: TrafficCount, received: TrafficCount) {
        get async throws {
            let box = self.box
            return try await loop.submit { () -> (TrafficCount, TrafficCount) in
                let link = box.value.link as? SocketFrameLink
                return (link?.sent ?? .zero, link?.received ?? .zero)
            }.get()
        }
    }

    private final class State: FrameLinkDelegate {
        let link: any FrameLink
        var sequence: UInt32 = 0
        var waiting: [UInt32: EventLoopPromise<Frame>] = [:]
        var pushes = CircularBuffer<Frame>()
        var pushWaiter: EventLoopPromise<Frame>?
        var isClosed = false
        var closeError: String?
        var closeWaiters: [EventLoopPromise<String?>] = []

        init(link: any FrameLink) {
            self.link = link
        }

        func request(_ frame: Frame, timeout: TimeAmount, box: NIOLoopBoundBox<State>) -> EventLoopFuture<Frame> {
            let loop = box.eventLoop
            let promise = loop.makePromise(of: Frame.self)
            guard !isClosed else {
                promise.fail(Closed(description: "the link is closed (\(closeError ?? "no error"))"))
                return promise.futureResult
            }
            waiting[frame.sequence] = promise
            link.send(frame)
            let sequence = frame.sequence
            loop.scheduleTask(in: timeout) {
                box.value.waiting.removeValue(forKey: sequence)?.fail(Timeout(description: "no response to \(frame.command) #\(sequence) within \(timeout)"))
            }
            return promise.futureResult
        }

        func nextPush(timeout: TimeAmount, box: NIOLoopBoundBox<State>) -> EventLoopFuture<Frame> {
            let loop = box.eventLoop
            if let push = pushes.popFirst() { return loop.makeSucceededFuture(push) }
            let promise = loop.makePromise(of: Frame.self)
            guard !isClosed else {
                promise.fail(Closed(description: "the link is closed (\(closeError ?? "no error"))"))
                return promise.futureResult
            }
            pushWaiter?.fail(Timeout(description: "replaced by another wait"))
            pushWaiter = promise
            let future = promise.futureResult
            loop.scheduleTask(in: timeout) {
                let state = box.value
                if let waiter = state.pushWaiter, waiter.futureResult === future {
                    state.pushWaiter = nil
                    waiter.fail(Timeout(description: "no push within \(timeout)"))
                }
            }
            return future
        }

        func closed(timeout: TimeAmount, box: NIOLoopBoundBox<State>) -> EventLoopFuture<String?> {
            let loop = box.eventLoop
            if isClosed { return loop.makeSucceededFuture(closeError) }
            let promise = loop.makePromise(of: String?.self)
            closeWaiters.append(promise)
            let future = promise.futureResult
            loop.scheduleTask(in: timeout) {
                let state = box.value
                if let index = state.closeWaiters.firstIndex(where: { $0.futureResult === future }) {
                    state.closeWaiters.remove(at: index).fail(Timeout(description: "the link did not close within \(timeout)"))
                }
            }
            return future
        }

        func link(_ link: any FrameLink, didReceive frame: Frame) {
            if frame.flags.contains(.push) {
                if let waiter = pushWaiter {
                    pushWaiter = nil
                    waiter.succeed(frame)
                } else {
                    pushes.append(frame)
                }
            } else if let promise = waiting.removeValue(forKey: frame.sequence) {
                promise.succeed(frame)
            }
        }

        func linkDidClose(_ link: any FrameLink, error: (any Error)?) {
            isClosed = true
            closeError = error.map { "\($0)" }
            let failure = Closed(description: "the link closed (\(closeError ?? "no error"))")
            for sequence in waiting.keys.sorted() { waiting[sequence]?.fail(failure) }
            waiting = [:]
            pushWaiter?.fail(failure)
            pushWaiter = nil
            for waiter in closeWaiters { waiter.succeed(closeError) }
            closeWaiters = []
        }
    }
}
