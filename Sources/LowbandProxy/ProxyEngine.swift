import LowbandDeterminism
import LowbandProxyCore
import LowbandShaper
import LowbandTransport
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The I/O half of a proxy, confined to its event loop: it owns the listener and the sockets,
/// turns socket events into ``ProxyStateMachine`` calls with the scheduler's time, carries
/// out the returned actions, and wakes the machine up at its `nextWakeup` on the scheduler.
///
/// Every connection of a proxy lives on this one loop, so the shaper is only touched here.
final class ProxyEngine {
    private let loop: any EventLoop
    /// The proxy's only clock and timer: nothing here reads the time any other way.
    private let scheduler: EventLoopScheduler
    private(set) var configuration: ShapingProxy.Configuration
    private var machine: ProxyStateMachine
    /// The scheduler's time when the proxy's timeline starts (its ShaperInstant zero).
    private let origin: Duration
    private let broadcast: ProxyEventBroadcast
    private let observer: ShaperObserver
    private var sockets: [Int: ConnectionSockets] = [:]
    private var listener: (any Channel)?
    /// The extra front doors' listeners, sharing this proxy's link.
    private var doorListeners: [any Channel] = []
    private var timer: ScheduledWork?
    private var timerDeadline: Duration?
    private var pendingOutbound = 0
    private var peakBuffered = 0
    /// Writes of the current `perform`, per socket: written and flushed together at its end.
    private var batches: [WriteBatch] = []
    /// A `perform` is carrying out actions. Socket calls report back into the engine at once
    /// (a write crossing the high watermark, a flush draining below the low one, a close), and
    /// the clock has moved on by then, so the machine may answer with bytes that follow the
    /// batch being written: its answer waits in `deferred` until that batch is out.
    private var performing = false
    private var deferred: [ProxyAction] = []
    private var stopping = false
    /// The listener drops handshakes: the link is down (see ``HandshakeGate``).
    private var gateShut = false
    /// The gate was shut at least once, so accepted sockets may carry its filter.
    private var gateUsed = false
    private var gateTimer: ScheduledWork?
    /// Clients of a front door still in their handshake, by handler (ProxyDoorEngine.swift).
    var doorClients: [ObjectIdentifier: DoorClient] = [:]
    /// Where each front-door connection goes, and its handshake for the reply, by number.
    var tunnels: [Int: DoorTunnel] = [:]
    /// Each open connection's words (`client → destination (how) [rule]`), for the API's list.
    var descriptions: [Int: String] = [:]
    /// The draws of the profile's DNS model (ProxyDNS.swift), from the link's seed.
    var dnsDraws: SeededGenerator
    var dnsCounts = (lookups: 0, failures: 0)

    private struct WriteBatch {
        let number: Int
        let handler: ProxySocketHandler
        var buffers: [ByteBuffer]
    }

    private struct Endpoint {
        let handler: ProxySocketHandler
        var outputShut: EventLoopFuture<Void>?
    }

    private struct ConnectionSockets {
        var client: Endpoint?
        var upstream: Endpoint?
        /// The machine is done with the connection; only the sockets' own closing is left.
        var released = false

        subscript(side: ProxySide) -> Endpoint? {
            get { side == .client ? client : upstream }
            set {
                if side == .client { client = newValue } else { upstream = newValue }
            }
        }
    }

    init(configuration: ShapingProxy.Configuration, scheduler: EventLoopScheduler, broadcast: ProxyEventBroadcast) {
        self.loop = scheduler.eventLoop
        self.scheduler = scheduler
        self.configuration = configuration
        self.broadcast = broadcast
        let observer = ShaperObserver(broadcast: broadcast)
        self.observer = observer
        self.origin = scheduler.now
        self.dnsDraws = Self.dnsGenerator(seed: configuration.link.seed)
        self.machine = ProxyStateMachine(
            shaper: configuration.link.makeShaper(Self.sink(of: configuration.link, observer, frame: .start)),
            seed: configuration.toxicSeed,
            toxicBufferLimit: configuration.limits.toxicBuffer,
            linkBufferLimit: configuration.limits.linkBuffer,
            at: .zero
        )
    }

    // MARK: Lifecycle

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
    private func bindDoor(_ index: Int) -> EventLoopFuture<Void> {
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
    private func bootstrap(door: ProxyDoor?) -> ServerBootstrap {
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

    private func bindListener() -> EventLoopFuture<SocketAddress> {
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

    // MARK: Control

    var statistics: ProxyStatistics {
        var statistics = machine.statistics
        statistics.bufferedBytes += pendingOutbound
        statistics.peakBufferedBytes = max(peakBuffered, statistics.bufferedBytes)
        let counts = observer.counts
        statistics.lossStalls = counts.lossStalls
        statistics.lossStallTime = counts.lossStallTime
        statistics.outages = counts.outages
        statistics.dnsLookups = dnsCounts.lookups
        statistics.dnsFailures = dnsCounts.failures
        return statistics
    }

    var toxics: [Toxic] { machine.toxics }

    var link: ProxyLink { configuration.link }

    /// Replaces the per-destination rules; connections opened from now on follow them.
    func setRoutes(_ routes: ProxyRoutes) {
        configuration.routes = routes
        let words = routes.routes.isEmpty ? "none" : routes.routes.map(\.description).joined(separator: ", ")
        announce(ProxyEvent(time: elapsed, kind: .routes, detail: words))
    }

    func addToxic(_ toxic: Toxic) throws(ProxyError) -> Toxic {
        let (added, actions) = try machine.addToxic(toxic, at: now())
        perform(actions)
        announce(ProxyEvent(toxic: added, kind: .toxicAdded, time: now() - .zero))
        return added
    }

    func updateToxic(named name: String, attributes: [String: Int64], toxicity: Double?) throws(ProxyError) -> Toxic {
        let (updated, actions) = try machine.updateToxic(named: name, attributes: attributes, toxicity: toxicity, at: now())
        perform(actions)
        announce(ProxyEvent(toxic: updated, kind: .toxicUpdated, time: now() - .zero))
        return updated
    }

    func removeToxic(named name: String) throws(ProxyError) {
        let removed = machine.toxics.first { $0.name == name }
        perform(try machine.removeToxic(named: name, at: now()))
        if let removed { announce(ProxyEvent(toxic: removed, kind: .toxicRemoved, time: now() - .zero)) }
    }

    func removeAllToxics() {
        let removed = machine.toxics
        perform(machine.removeAllToxics(at: now()))
        for toxic in removed.reversed() { announce(ProxyEvent(toxic: toxic, kind: .toxicRemoved, time: now() - .zero)) }
    }

    func resetAll(reason: String) {
        perform(machine.resetAll(reason: reason, at: now()))
    }

    /// An outage forced now for `length` (`kind`: outage or handover); see `ProxyStateMachine`.
    func forceOutage(for length: Duration, kind: String, reason: String?) {
        perform(machine.forceOutage(for: length, kind: kind, reason: reason, at: now()))
        updateGate()
    }

    /// Resets one open connection; false when there is none with that number.
    func reset(_ number: Int, reason: String) -> Bool {
        guard machine.hasConnection(number) else { return false }
        perform(machine.reset(number, reason: reason, at: now()))
        return true
    }

    /// The open connections now, in accept order.
    var connections: [ProxyConnection] {
        machine.connectionSummaries.map { summary in
            ProxyConnection(
                number: summary.number, description: descriptions[summary.number] ?? "", state: summary.state,
                openedSeconds: Double(summary.openedAt.nanoseconds) / 1e9, upstreamBytes: summary.upstreamBytes,
                downstreamBytes: summary.downstreamBytes, bufferedBytes: summary.bufferedBytes)
        }
    }

    /// The device's link now: down (an outage, forced or the profile's) or up.
    var linkState: ProxyLinkState {
        let now = now()
        var state: ProxyLinkState
        switch machine.reachability(at: now) {
        case .up:
            state = ProxyLinkState(down: false, untilSeconds: nil, forced: nil)
        case .down(let until):
            let seconds = until.nanoseconds >= Self.never ? nil : Double(until.nanoseconds) / 1e9
            state = ProxyLinkState(down: true, untilSeconds: seconds, forced: machine.forced?.kind)
        }
        if let shaper = machine.shaper as? NetworkShaper {
            state.queuedUpstreamBytes = shaper.queuedBytes(.upstream)
            state.queuedDownstreamBytes = shaper.queuedBytes(.downstream)
        }
        if let radio = machine.radioStatistics(at: now) {
            state.radioState = radio.state
            state.radioJoules = radio.joules
        }
        return state
    }

    /// What the device's radio did so far: time in each state, promotions and energy.
    var radioStatistics: RadioStatistics? {
        machine.radioStatistics(at: now())
    }

    func partition(_ direction: Direction, reason: String?) {
        perform(machine.partition(direction, reason: reason, at: now()))
        updateGate()
    }

    func heal(_ direction: Direction?, reason: String?) {
        perform(machine.heal(direction, reason: reason, at: now()))
        updateGate()
    }

    /// Switches to `link` like a handover. Its trace gets a `link` line, then the new shaper's
    /// decisions on the same timeline and numbers (the connections still open are opened again).
    func setLink(_ link: ProxyLink) {
        configuration.link = link
        dnsDraws = Self.dnsGenerator(seed: link.seed)
        let now = now()
        link.trace?.record(ShaperEvent(time: now, kind: .link, detail: link.description))
        let shaper = link.makeShaper(Self.sink(of: link, observer, frame: machine.traceFrame(startingAt: now)))
        perform(machine.replaceShaper(shaper, description: link.description, at: now))
        updateGate()
    }

    /// Where a shaper of `link` reports: the link's trace and the live events, both on the
    /// proxy's timeline and connection numbers.
    private static func sink(of link: ProxyLink, _ observer: ShaperObserver, frame: ShaperTraceFrame) -> any ShaperTraceSink {
        FramedTraceSink(TraceTee.combine(link.trace, observer) ?? observer, frame: frame)
    }

    // MARK: Socket events

    func accepted(_ handler: ProxySocketHandler, channel: any Channel) {
        guard !stopping else {
            handler.close(reset: false)
            return
        }
        if gateUsed { HandshakeGate.clear(channel) }
        let peer = channel.remoteAddress.map(Self.format) ?? "?"
        if let handshake = DoorHandshake(door: handler.door ?? configuration.door) {
            admit(handler, peer: peer, handshake: handshake)
            return
        }
        let upstream = configuration.upstream
        let decision = configuration.routes.decide(host: upstream.host, port: upstream.port, seed: configuration.link.seed)
        let rule = decision.rule.map { " [\($0)]" } ?? ""
        if decision.blocked {
            report(ProxyEvent(time: elapsed, kind: .denied, detail: "\(peer) → \(upstream): blocked by \(decision.rule ?? "a rule")"))
            handler.close(reset: false)
            return
        }
        open(handler, description: "\(peer) → \(upstream)\(rule)", route: decision.route)
    }

    /// Opens a connection of `handler`'s client on the link, as `description` (its number set),
    /// to `tunnel`'s destination when a front door named one. The machine may ask to connect at
    /// once (no connect delay), so the destination is known before its actions are carried out.
    @discardableResult
    func open(_ handler: ProxySocketHandler, description: String, tunnel: DoorTunnel? = nil, route: LinkRoute = .device) -> Int {
        let (number, actions) = machine.accept(description: description, route: route, at: now())
        handler.number = number
        sockets[number] = ConnectionSockets(client: Endpoint(handler: handler))
        tunnels[number] = tunnel
        descriptions[number] = description
        perform(actions)
        return number
    }

    /// Bytes the client sent after its front-door request: through the link like any other.
    func forward(_ bytes: [UInt8], on number: Int) {
        guard !bytes.isEmpty else { return }
        perform(machine.received(ByteBuffer(bytes: bytes), on: number, from: .client, at: now()))
    }

    /// Reports to the trace (what the shaper does not see), the status handler and the event
    /// stream: a front door's refusal, a DNS lookup.
    func report(_ event: ProxyEvent) {
        announce(event)
    }

    /// Time since the proxy started, as its events count it.
    var elapsed: Duration { now() - .zero }

    var eventLoopScheduler: EventLoopScheduler { scheduler }

    /// The reads of one readiness burst, in order.
    func received(_ buffers: [ByteBuffer], on number: Int, from side: ProxySide) {
        let now = now()
        if buffers.count == 1 {
            perform(machine.received(buffers[0], on: number, from: side, at: now))
            return
        }
        var actions: [ProxyAction] = []
        for buffer in buffers {
            actions += machine.received(buffer, on: number, from: side, at: now)
        }
        perform(actions)
    }

    func inputClosed(_ number: Int, side: ProxySide) {
        perform(machine.inputClosed(number, side: side, at: now()))
    }

    func writabilityChanged(_ number: Int, side: ProxySide, writable: Bool) {
        perform(machine.writabilityChanged(number, side: side, writable: writable, at: now()))
    }

    func socketInactive(_ number: Int, side: ProxySide, error: (any Error)?) {
        sockets[number]?[side] = nil
        if let entry = sockets[number], entry.client == nil, entry.upstream == nil {
            sockets[number] = nil
            tunnels[number] = nil
            descriptions[number] = nil
        }
        perform(machine.socketClosed(number, side: side, error: error.map(Self.describe), at: now()))
    }

    // MARK: Actions

    /// Carries out the machine's actions in the order it returned them, including those of
    /// events that socket calls fire meanwhile (see ``performing``).
    private func perform(_ actions: [ProxyAction]) {
        guard !performing else {
            deferred += actions
            return
        }
        performing = true
        var actions = actions
        while true {
            carryOut(actions)
            peakBuffered = max(peakBuffered, machine.statistics.bufferedBytes + pendingOutbound)
            guard !deferred.isEmpty else { break }
            actions = []
            swap(&actions, &deferred)
        }
        performing = false
        for event in observer.drain() {
            publish(ProxyEvent(placed: event))
        }
        scheduleWakeup()
    }

    private func carryOut(_ actions: [ProxyAction]) {
        for action in actions {
            switch action {
            case .connect(let number):
                connect(number)
            case .write(let number, let side, let buffer):
                write(buffer, to: number, side)
            case .shutdownOutput(let number, let side):
                writeBatches(of: number)
                // Socket calls can re-enter the engine, so no access to `sockets` spans one.
                if let handler = sockets[number]?[side]?.handler {
                    let shut = handler.shutdownOutput()
                    sockets[number]?[side]?.outputShut = shut
                }
            case .setReading(let number, let side, let on):
                let handler = sockets[number]?[side]?.handler
                handler?.setReading(on)
            case .close(let number, let reset, _):
                writeBatches(of: number)
                close(number, reset: reset)
            case .forget(let number):
                sockets[number]?.released = true
            case .event(let event):
                announce(event)
            }
        }
        writeBatches(of: nil)
    }

    private func write(_ buffer: ByteBuffer, to number: Int, _ side: ProxySide) {
        guard let handler = sockets[number]?[side]?.handler else { return }
        let count = buffer.readableBytes
        pendingOutbound += count
        if let position = batches.lastIndex(where: { $0.handler === handler }) {
            batches[position].buffers.append(buffer)
        } else {
            batches.append(WriteBatch(number: number, handler: handler, buffers: [buffer]))
        }
    }

    /// Hands the batched writes (of one connection, or all) to their sockets and flushes each
    /// socket once. One promise per write, so ``pendingOutbound`` drops as soon as the kernel has
    /// taken each buffer: with one promise per batch, a batch the kernel had mostly taken still
    /// counted whole until its last byte went, and the peak read up to a batch too high. A
    /// failed write fails those after it; the first failure is recorded.
    private func writeBatches(of number: Int?) {
        guard !batches.isEmpty else { return }
        var due: [WriteBatch] = []
        if let number {
            guard batches.contains(where: { $0.number == number }) else { return }
            due = batches.filter { $0.number == number }
            batches.removeAll { $0.number == number }
        } else {
            swap(&due, &batches)
        }
        for batch in due {
            let handler = batch.handler
            for buffer in batch.buffers {
                let count = buffer.readableBytes
                let promise = loop.makePromise(of: Void.self)
                promise.futureResult.assumeIsolated().whenComplete { result in
                    self.pendingOutbound -= count
                    if case .failure(let error) = result { handler.recordFailure(error) }
                }
                handler.write(buffer, promise: promise)
            }
            handler.flush()
        }
    }

    private func close(_ number: Int, reset: Bool) {
        guard var entry = sockets[number] else { return }
        entry.released = true
        sockets[number] = entry
        for side in [ProxySide.client, .upstream] {
            guard let endpoint = entry[side] else { continue }
            let handler = endpoint.handler
            if reset || stopping {
                handler.close(reset: reset)
            } else if let shut = endpoint.outputShut ?? handler.shutdownOutput() {
                // Graceful: pending writes go out and FIN follows, then the socket closes.
                shut.assumeIsolated().whenComplete { _ in handler.close(reset: false) }
            }
        }
    }

    private func connect(_ number: Int) {
        guard let entry = sockets[number], !entry.released else { return }
        let upstream = tunnels[number].map { ProxyEndpoint(host: $0.destination.host, port: $0.destination.port) } ?? configuration.upstream
        // A name is looked up on the device's network first, as the profile's `dns` says (a
        // `direct` route's connection skips the device's network, its DNS delay included).
        if let dns = configuration.link.dns, !machine.isDirect(number), !Self.isAddressLiteral(upstream.host) {
            lookUp(upstream, for: number, dns: dns)
            return
        }
        openUpstream(number, upstream)
    }

    /// Opens the upstream socket of connection `number`; the machine hears how it went.
    func openUpstream(_ number: Int, _ upstream: ProxyEndpoint) {
        guard let entry = sockets[number], !entry.released else { return }
        let bound = NIOLoopBound(self, eventLoop: loop)
        let limits = configuration.limits
        ClientBootstrap(group: loop)
            .channelOption(.allowRemoteHalfClosure, value: true)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelOption(.writeBufferWaterMark, value: Self.watermark(limits))
            .channelOption(.recvAllocator, value: Self.recvAllocator(limits))
            .channelOption(.maxMessagesPerRead, value: UInt(max(limits.readsPerWakeup, 1)))
            .connectTimeout(TimeAmount(limits.connectTimeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = ProxySocketHandler(engine: bound.value, side: .upstream, number: number)
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
            .connect(host: upstream.host, port: upstream.port)
            .assumeIsolated()
            .whenComplete { result in
                self.connectFinished(number, result)
            }
    }

    private func connectFinished(_ number: Int, _ result: Result<any Channel, any Error>) {
        switch result {
        case .success(let channel):
            guard let entry = sockets[number], !entry.released, channel.isActive,
                let handler = try? channel.pipeline.syncOperations.handler(type: ProxySocketHandler.self)
            else {
                channel.close(promise: nil)
                return
            }
            sockets[number]?.upstream = Endpoint(handler: handler)
            // A front door tells its client first, outside the link: the reply is the proxy's.
            if let tunnel = tunnels[number], let client = sockets[number]?.client?.handler {
                Self.tell(client, tunnel.handshake.success(boundAddress: Self.addressBytes(channel.localAddress), boundPort: channel.localAddress?.port ?? 0))
            }
            perform(machine.upstreamConnected(number, at: now()))
        case .failure(let error):
            let destination = tunnels[number].map(\.destination.description) ?? configuration.upstream.description
            upstreamFailed(number, Self.doorFailure(error), reason: "\(destination): \(Self.describe(error))")
        }
    }

    /// The upstream of `number` cannot be reached: a front door's client is told in its
    /// protocol's words, then the machine closes the connection.
    func upstreamFailed(_ number: Int, _ failure: DoorFailure, reason: String) {
        if let tunnel = tunnels[number], let client = sockets[number]?.client?.handler {
            Self.tell(client, tunnel.handshake.failure(failure, reason: reason))
        }
        perform(machine.upstreamFailed(number, reason: reason, at: now()))
    }

    /// Publishes `event`, and writes the proxy's own decisions the shaper does not see — toxics
    /// changed, bytes discarded — into the link's trace, on the proxy's timeline and numbers.
    private func announce(_ event: ProxyEvent) {
        if let trace = configuration.link.trace, let line = event.shaperTraceEvent {
            trace.record(line)
        }
        publish(event)
    }

    private func publish(_ event: ProxyEvent) {
        if let handler = configuration.statusHandler, let line = event.statusLine {
            handler(line)
        }
        if broadcast.hasSubscribers {
            broadcast.publish(event)
        }
    }

    // MARK: Time

    private func now() -> ShaperInstant {
        ShaperInstant(nanoseconds: (scheduler.now - origin).nanosecondsClamped)
    }

    private func scheduleWakeup() {
        // "Never" (an outage without end) needs no timer either.
        guard let next = machine.nextWakeup, next.nanoseconds < Self.never else {
            if let timer { scheduler.cancel(timer) }
            timer = nil
            timerDeadline = nil
            return
        }
        var deadline = origin + .nanoseconds(next.nanoseconds)
        let current = scheduler.now
        if deadline <= current {
            // Never spin: something due that the machine could not settle waits 100 µs.
            deadline = current + .microseconds(100)
        }
        if timerDeadline == deadline { return }
        if let timer { scheduler.cancel(timer) }
        timerDeadline = deadline
        timer = scheduler.schedule(at: deadline) {
            self.timer = nil
            self.timerDeadline = nil
            self.perform(self.machine.advance(to: self.now()))
        }
    }

    // MARK: Blackouts

    /// Shuts the listener's handshakes while the link is down, as a dead network loses SYNs,
    /// and opens them when it comes back; checks again at the next change of the link.
    private func updateGate() {
        if let gateTimer { scheduler.cancel(gateTimer) }
        gateTimer = nil
        guard let listener, HandshakeGate.isSupported else { return }
        let shut: Bool
        let change: ShaperInstant?
        switch machine.reachability(at: now()) {
        case .up(let until):
            (shut, change) = (false, until)
        case .down(let until):
            (shut, change) = (true, until)
        }
        if shut != gateShut, HandshakeGate.set(shut, on: listener) {
            for door in doorListeners { _ = HandshakeGate.set(shut, on: door) }
            gateShut = shut
            gateUsed = gateUsed || shut
        }
        guard let change, change.nanoseconds < Self.never else { return }
        let deadline = max(origin + .nanoseconds(change.nanoseconds), scheduler.now + .microseconds(100))
        gateTimer = scheduler.schedule(at: deadline) {
            self.gateTimer = nil
            self.updateGate()
        }
    }

    // MARK: Helpers

    /// Instants from here on (about 146 years) mean "never".
    private static let never: Int64 = .max / 2

    /// Reads grow towards `readSize` while they come back full (bulk transfers: few, large
    /// chunks) and shrink again for small messages, so a queued 1-byte read does not pin a
    /// `readSize` buffer.
    private static func recvAllocator(_ limits: ShapingProxy.Limits) -> AdaptiveRecvByteBufferAllocator {
        let maximum = max(limits.readSize, 64)
        return AdaptiveRecvByteBufferAllocator(minimum: min(64, maximum), initial: min(2048, maximum), maximum: maximum)
    }

    /// NIO requires `1 <= low <= high` (and stops the process otherwise).
    private static func watermark(_ limits: ShapingProxy.Limits) -> ChannelOptions.Types.WriteBufferWaterMark {
        let high = max(limits.writeBufferHigh, 1)
        return ChannelOptions.Types.WriteBufferWaterMark(low: min(max(limits.writeBufferLow, 1), high), high: high)
    }

    /// The 4 or 16 bytes of an IP address, for a SOCKS reply.
    static func addressBytes(_ address: SocketAddress?) -> [UInt8]? {
        switch address {
        case .v4(let v4)?:
            return withUnsafeBytes(of: v4.address.sin_addr.s_addr) { Array($0) }
        case .v6(let v6)?:
            return withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
        default:
            return nil
        }
    }

    /// What kind of failure a connect error is, for a front door's refusal.
    static func doorFailure(_ error: any Error) -> DoorFailure {
        switch error {
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first { return doorFailure(first.error) }
            return .unresolved
        case let error as IOError:
            return error.errnoCode == ECONNREFUSED ? .refused : error.errnoCode == ETIMEDOUT ? .timedOut : .other
        case ChannelError.connectTimeout:
            return .timedOut
        default:
            return .other
        }
    }

    static func format(_ address: SocketAddress) -> String {
        guard let ip = address.ipAddress, let port = address.port else { return "\(address)" }
        return ProxyEndpoint(host: ip, port: port).description
    }

    /// A short reason for a status line: `Connection refused`, `Connection reset by peer`.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first { return describe(first.error) }
            if error.dnsAError != nil || error.dnsAAAAError != nil { return "\(error.host) does not resolve" }
            return "cannot connect"
        case let error as IOError:
            return String(cString: strerror(error.errnoCode))
        case ChannelError.connectTimeout:
            return "connect timed out"
        case let error as ProxyError:
            return error.message
        default:
            return "\(error)"
        }
    }
}
