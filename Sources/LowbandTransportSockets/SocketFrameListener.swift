public import LowbandTransport
public import LowbandWire
public import NIOCore
import NIOPosix

/// Accepts TCP connections on one event loop and hands each, as a `SocketFrameLink`, to a
/// `LowbandTransport/FrameLinkAcceptor`: the server's side of the socket transport.
///
/// The listening socket and every accepted connection live on the ``scheduler``'s event loop,
/// so the acceptor, the links and whatever the acceptor drives (a server) share one thread and
/// one clock. The listener itself is `Sendable`: ``start(_:)`` and ``stop()`` are called from
/// async code anywhere. It may be started again after a stop; a restart binds the port the
/// first start bound (unless the configuration names one), so clients reconnect to the same
/// address.
public final class SocketFrameListener: Sendable {
    /// Where to listen and how to frame.
    public struct Configuration: Sendable {
        /// The address to bind: a literal IPv4 or IPv6 address (default the IPv4 loopback).
        public var host: String
        /// 0 picks a free port (the first time; a restart reuses the one picked).
        public var port: Int
        /// The framing limits and compression of every accepted link.
        public var frame: FrameConfiguration
        /// Pending connections the kernel queues before `accept`.
        public var backlog: Int32
        /// When an accepted link stops reading because its client does not read; nil: never.
        public var outboundLimits: OutboundLimits?

        /// A configuration; by default the IPv4 loopback, a free port, a backlog of 256 and no
        /// outbound limits.
        public init(
            host: String = "127.0.0.1", port: Int = 0, frame: FrameConfiguration = FrameConfiguration(), backlog: Int32 = 256,
            outboundLimits: OutboundLimits? = nil
        ) {
            self.host = host
            self.port = port
            self.frame = frame
            self.backlog = backlog
            self.outboundLimits = outboundLimits
        }
    }

    /// The clock and event loop of the listener, its links and its acceptor.
    public let scheduler: EventLoopScheduler
    /// Where it listens and how it frames.
    public let configuration: Configuration
    private let state: NIOLoopBoundBox<State>

    private struct State {
        var serverChannel: (any Channel)?
        var acceptor: (any FrameLinkAcceptor)?
        var boundPort: Int?
        var nextLinkID: UInt64 = 0
        /// Open accepted links by acceptance order; looked up, and sorted before iterating.
        var links: [UInt64: SocketFrameLink] = [:]
    }

    /// A listener on `scheduler`'s loop; nothing is bound before it starts.
    public init(scheduler: EventLoopScheduler, configuration: Configuration = Configuration()) {
        self.scheduler = scheduler
        self.configuration = configuration
        state = NIOLoopBoundBox.makeBoxSendingValue(State(), as: State.self, eventLoop: scheduler.eventLoop)
    }

    /// A listener on `eventLoop` with a scheduler of its own.
    public convenience init(eventLoop: any EventLoop, configuration: Configuration = Configuration()) {
        self.init(scheduler: EventLoopScheduler(eventLoop: eventLoop), configuration: configuration)
    }

    /// The event loop of the listener and its links.
    public var eventLoop: any EventLoop { scheduler.eventLoop }

    /// Binds and starts accepting. `makeAcceptor` runs once, on the event loop, and its
    /// acceptor gets every link accepted until ``stop()``. Returns the bound port.
    ///
    /// - Throws: `LowbandTransport/TransportError` `.invalidState` when already listening, `.bindFailed`
    ///   when the address cannot be bound.
    @discardableResult
    public func start(_ makeAcceptor: @escaping @Sendable () -> any FrameLinkAcceptor) async throws -> Int {
        let state = self.state
        let port = try await eventLoop.submit { () throws -> Int in
            guard state.value.serverChannel == nil, state.value.acceptor == nil else {
                throw TransportError(.invalidState, "the listener is already listening on port \(state.value.boundPort ?? 0); stop it first")
            }
            state.value.acceptor = makeAcceptor()
            return self.configuration.port != 0 ? self.configuration.port : (state.value.boundPort ?? 0)
        }.get()
        let channel: any Channel
        do {
            channel = try await bootstrap().bind(host: configuration.host, port: port).get()
        } catch {
            try? await eventLoop.submit { state.value.acceptor = nil }.get()
            // In words ("Address already in use"), not NIO's `bind(descriptor:ptr:bytes:): …) (errno: 98)`.
            let reason = (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
            throw TransportError(.bindFailed, "cannot listen on \(configuration.host):\(port): \(reason)")
        }
        let bound = channel.localAddress?.port ?? port
        try await eventLoop.submit {
            state.value.serverChannel = channel
            state.value.boundPort = bound
        }.get()
        return bound
    }

    /// The port bound by the last start, nil before the first.
    public var port: Int? {
        get async throws {
            let state = self.state
            return try await eventLoop.submit { state.value.boundPort }.get()
        }
    }

    /// Stops listening and closes every accepted link (their delegates see the close). The
    /// acceptor is released; a later ``start(_:)`` takes a new one. Stopping a stopped listener
    /// does nothing.
    public func stop() async throws {
        let state = self.state
        let closing = try await eventLoop.submit { () -> EventLoopFuture<Void> in
            let loop = self.eventLoop
            var futures: [EventLoopFuture<Void>] = []
            if let channel = state.value.serverChannel {
                futures.append(channel.close())
            }
            state.value.serverChannel = nil
            for id in state.value.links.keys.sorted() {
                if let link = state.value.links[id] {
                    futures.append(link.channel.close().recover { _ in })
                }
            }
            state.value.acceptor = nil
            return EventLoopFuture.andAllComplete(futures, on: loop)
        }.get()
        try await closing.get()
    }

    /// Accepted links still open. Call on the event loop.
    public var openLinkCount: Int { state.value.links.count }

    private func bootstrap() -> ServerBootstrap {
        let state = self.state
        let scheduler = self.scheduler
        let frame = configuration.frame
        let outboundLimits = configuration.outboundLimits
        return ServerBootstrap(group: eventLoop, childGroup: eventLoop)
            .serverChannelOption(.backlog, value: configuration.backlog)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    state.value.nextLinkID += 1
                    let id = state.value.nextLinkID
                    _ = try SocketFrameLink.install(
                        on: channel, scheduler: scheduler, configuration: frame, outboundLimits: outboundLimits,
                        onActive: { link in
                            guard let acceptor = state.value.acceptor else {
                                link.close()
                                return
                            }
                            state.value.links[id] = link
                            acceptor.accept(link)
                        },
                        onInactive: { _ in
                            state.value.links[id] = nil
                        }
                    )
                }
            }
    }
}
