import LowbandDeterminism
import LowbandProxyCore
import LowbandShaper
import LowbandTransport
import NIOCore
import NIOPosix

/// ProxyEngine: binding its listeners and front doors, and stopping.
extension ProxyEngine {
    var listeningAddress: SocketAddress? { listener?.localAddress }

    var isListening: Bool { listener != nil }

    /// Binds the listener (once), then the extra front doors' (``ShapingProxy/Configuration/doors``);
    /// the future gives the listener's bound address.
    func start() -> EventLoopFuture<SocketAddress> {
        if let address = listener?.localAddress {
            return loop.makeSucceededFuture(address)
        }
        stopping = false
        return bindListener().assumeIsolated().flatMap { address in
            var chain = self.loop.makeSucceededVoidFuture()
            for index in self.configuration.doors.indices {
                chain = chain.assumeIsolated().flatMap { self.bindDoor(index) }.nonisolated()
            }
            return chain.map { address }
        }.nonisolated()
    }

    /// Binds an extra front door's listener; its accepted clients speak its protocol.
    func bindDoor(_ index: Int) -> EventLoopFuture<Void> {
        let door = configuration.doors[index]
        return bootstrap(door: door.door).bind(host: door.listen.host, port: door.listen.port)
            .flatMapErrorThrowing { error in
                throw ProxyError(.listenFailed, "cannot listen on \(door.listen) (\(door.door)): \(Self.describe(error))")
            }
            .assumeIsolated()
            .map { channel in
                self.doorListeners.append(channel)
                if let address = channel.localAddress, let ip = address.ipAddress, let port = address.port {
                    self.configuration.doors[index].listen = ProxyEndpoint(host: ip, port: port)
                }
                self.updateGate()
            }
            .nonisolated()
    }

    /// Accepts clients for this proxy; `door` overrides the configuration's for an extra listener.
    func bootstrap(door: ProxyDoor?) -> ServerBootstrap {
        let bound = NIOLoopBound(self, eventLoop: loop)
        let limits = configuration.limits
        return ServerBootstrap(group: loop, childGroup: loop)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: Self.watermark(limits))
            .childChannelOption(.recvAllocator, value: Self.recvAllocator(limits))
            .childChannelOption(.maxMessagesPerRead, value: UInt(max(limits.readsPerWakeup, 1)))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = ProxySocketHandler(engine: bound.value, side: .client, number: nil, door: door)
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
    }

    func bindListener() -> EventLoopFuture<SocketAddress> {
        let listen = configuration.listen
        return bootstrap(door: nil)
            .bind(host: listen.host, port: listen.port)
            .flatMapErrorThrowing { error in
                throw ProxyError(.listenFailed, "cannot listen on \(listen): \(Self.describe(error))")
            }
            .assumeIsolated()
            .flatMapThrowing { channel in
                self.listener = channel
                guard let address = channel.localAddress, let ip = address.ipAddress, let port = address.port else {
                    throw ProxyError(.listenFailed, "cannot listen on \(listen): no local address")
                }
                // Like toxiproxy, the proxy reports (and later re-binds) the address it got.
                self.configuration.listen = ProxyEndpoint(host: ip, port: port)
                self.updateGate()
                return address
            }
            .nonisolated()
    }

    /// Closes the listener and every connection (no graceful drain: a stopped proxy drops them).
    func stop(reason: String) -> EventLoopFuture<Void> {
        stopping = true
        var closing: [EventLoopFuture<Void>] = []
        if let listener {
            closing.append(listener.close())
            self.listener = nil
        }
        for door in doorListeners { closing.append(door.close()) }
        doorListeners = []
        closeHandshakes()
        perform(machine.closeAll(reason: reason, at: now()))
        if let timer { scheduler.cancel(timer) }
        timer = nil
        timerDeadline = nil
        if let gateTimer { scheduler.cancel(gateTimer) }
        gateTimer = nil
        gateShut = false
        // Handlers are copied out first: closing fires callbacks that change `sockets`.
        let handlers = sockets.keys.sorted().flatMap { number in
            [sockets[number]?.client?.handler, sockets[number]?.upstream?.handler].compactMap { $0 }
        }
        for handler in handlers {
            handler.close(reset: false)
        }
        return EventLoopFuture.andAllComplete(closing, on: loop)
    }

    /// The listener's close future, or a succeeded one when not listening.
    func listenerClosed() -> EventLoopFuture<Void> {
        listener?.closeFuture ?? loop.makeSucceededVoidFuture()
    }

    func setEndpoints(listen: ProxyEndpoint, upstream: ProxyEndpoint) {
        configuration.listen = listen
        configuration.upstream = upstream
    }
}
