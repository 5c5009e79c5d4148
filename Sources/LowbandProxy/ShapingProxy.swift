public import LowbandProxyCore
public import LowbandShaper
public import LowbandTransport
public import NIOCore
public import NIOPosix
import ServiceLifecycle

/// A TCP proxy that shapes its traffic through a simulated device's link.
///
/// Every connection accepted on `listen` gets its own upstream connection, and all of them share
/// the proxy's one `TrafficShaper` — a phone has one radio. The proxy keeps the bytes; the
/// shaper decides how many move and when. Toxiproxy-style toxics act on each connection in
/// front of the link. Reads stop while the link's queue is full or a destination does not read,
/// so memory stays bounded (``Limits``) whatever the peers do.
///
/// Run it as a swift-service-lifecycle `Service` with ``run()`` (the group's graceful shutdown
/// or cancelling the task stops it), or drive it with
/// ``start()`` and ``stop()``. All of a proxy's sockets live on one event loop, its
/// scheduler's: the proxy reads the time and sets its timers only there.
public final class ShapingProxy: Sendable {
    /// The proxy's name in its registry and its status lines.
    public let name: String
    private let loop: any EventLoop
    private let engine: NIOLoopBoundBox<ProxyEngine>
    private let broadcast: ProxyEventBroadcast

    /// A proxy on one event loop of `group`, timed by that loop's clock.
    public convenience init(configuration: Configuration = Configuration(), group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.init(configuration: configuration, scheduler: EventLoopScheduler(eventLoop: group.next()))
    }

    /// A proxy on `scheduler`'s event loop, reading the time and setting its timers only there.
    /// The proxy's timeline (event times, link decisions) starts at the scheduler's `now` here.
    public init(configuration: Configuration = Configuration(), scheduler: EventLoopScheduler) {
        let loop = scheduler.eventLoop
        let broadcast = ProxyEventBroadcast()
        self.name = configuration.name
        self.loop = loop
        self.broadcast = broadcast
        self.engine = .makeBoxSendingValue(ProxyEngine(configuration: configuration, scheduler: scheduler, broadcast: broadcast), eventLoop: loop)
    }

    // MARK: Lifecycle

    /// Binds the listening socket and returns its address (with the real port when `listen`
    /// asked for port 0). Calling it on a started proxy returns the address again.
    ///
    /// - Throws: `ProxyError` with code `listenFailed` when the address cannot be bound.
    @discardableResult
    public func start() async throws -> SocketAddress {
        let engine = self.engine
        return try await loop.flatSubmit { engine.value.start() }.get()
    }

    /// Stops listening and closes every connection.
    public func stop() async {
        let engine = self.engine
        try? await loop.flatSubmit { engine.value.stop(reason: "proxy stopped") }.get()
    }

    /// Starts the proxy and serves until its `ServiceGroup` shuts down gracefully, the task is
    /// cancelled or ``stop()`` is called, then closes everything.
    public func run() async throws {
        try await start()
        let engine = self.engine
        let loop = self.loop
        await withTaskCancellationOrGracefulShutdownHandler {
            try? await loop.flatSubmit { engine.value.listenerClosed() }.get()
        } onCancelOrGracefulShutdown: {
            loop.execute { _ = engine.value.stop(reason: "proxy stopped") }
        }
        await stop()
    }

    /// The bound address while listening.
    public var listeningAddress: SocketAddress? {
        get async { try? await onLoop { engine in engine.listeningAddress } }
    }

    /// The configuration in force (its endpoints and link may have changed since creation).
    public var configuration: Configuration {
        get async throws(ProxyError) { try await onLoop { engine in engine.configuration } }
    }

    // MARK: Observation

    /// Counters, including the bytes held now and at most so far.
    public var statistics: ProxyStatistics {
        get async { (try? await onLoop { engine in engine.statistics }) ?? ProxyStatistics() }
    }

    /// Bytes that skipped the machine and the link (a perfect link with nothing in the way, see
    /// ProxyEngine+PassThrough.swift), per direction.
    var passedThroughBytes: (upstream: Int, downstream: Int) {
        get async {
            let passed = try? await onLoop { engine in [engine.passedBytes.upstream, engine.passedBytes.downstream] }
            return (passed?[0] ?? 0, passed?[1] ?? 0)
        }
    }

    /// The proxy's events from now on. A subscriber that falls behind loses its oldest events
    /// (4096 are kept); the stream ends when the proxy is removed from its registry.
    public func events() -> AsyncStream<ProxyEvent> {
        broadcast.subscribe()
    }

    // MARK: Link and toxics

    /// The link the proxy's device uses now.
    public var link: ProxyLink {
        get async throws(ProxyError) { try await onLoop { engine in engine.link } }
    }

    /// Switches the device to `link` as a handover would: open connections continue on the new
    /// link and bytes queued in the old one are queued again (none are lost).
    public func setLink(_ link: ProxyLink) async throws(ProxyError) {
        try await onLoop { engine in engine.setLink(link) }
    }

    /// The toxics acting on every connection, in order.
    public var toxics: [Toxic] {
        get async throws(ProxyError) { try await onLoop { engine in engine.toxics } }
    }

    /// Adds a toxic to every open and future connection.
    ///
    /// - Throws: `ProxyError`: `toxicExists` (409), `invalidToxicType` or `invalidAttribute` (400).
    @discardableResult
    public func addToxic(_ toxic: Toxic) async throws(ProxyError) -> Toxic {
        try await onLoop { engine throws(ProxyError) in try engine.addToxic(toxic) }
    }

    /// Changes a toxic's attributes (those given) and toxicity (when given).
    @discardableResult
    public func updateToxic(named name: String, attributes: [String: Int64] = [:], toxicity: Double? = nil) async throws(ProxyError) -> Toxic {
        try await onLoop { engine throws(ProxyError) in
            try engine.updateToxic(named: name, attributes: attributes, toxicity: toxicity)
        }
    }

    /// Removes a toxic; what it held goes on at once.
    public func removeToxic(named name: String) async throws(ProxyError) {
        try await onLoop { engine throws(ProxyError) in try engine.removeToxic(named: name) }
    }

    /// Removes every toxic; what they held goes on at once.
    public func removeAllToxics() async throws(ProxyError) {
        try await onLoop { engine in engine.removeAllToxics() }
    }

    // MARK: Routes

    /// The per-destination rules, in the order they are tried.
    public var routes: [ProxyRoute] {
        get async throws(ProxyError) { try await onLoop { engine in engine.configuration.routes.routes } }
    }

    /// Replaces the per-destination rules (``ProxyRoutes``); connections already open keep
    /// the path they were given, new ones follow the new rules. Announced as a `routes` event.
    public func setRoutes(_ routes: ProxyRoutes) async throws(ProxyError) {
        try await onLoop { engine in engine.setRoutes(routes) }
    }

    // MARK: Faults

    /// Forces an outage now, for `length`: nothing moves either way (bytes held in order, none
    /// dropped), no new handshake completes, connections stay open; an `outage-start` event now
    /// and an `outage-end` at its end. `kind` is `outage` or `handover` (a short one, by name).
    /// One already forced is lengthened. `reason` (e.g. `fault 3`) goes into the event's words.
    public func forceOutage(for length: Duration, kind: String = "outage", reason: String? = nil) async throws(ProxyError) {
        try await onLoop { engine in engine.forceOutage(for: length, kind: kind, reason: reason) }
    }

    /// ``forceOutage(for:kind:reason:)``, and the link's state right after, read in the same turn
    /// of the proxy's loop: a ``linkState`` asked for afterwards may already find a short outage
    /// over (on a loaded machine the control API's reply to an outage of 1.5 s once said
    /// `down: false`).
    func forceOutageThenState(for length: Duration, kind: String) async throws(ProxyError) -> ProxyLinkState {
        try await onLoop { engine in
            engine.forceOutage(for: length, kind: kind, reason: nil)
            return engine.linkState
        }
    }

    /// Resets one open connection (a TCP RST to both sides); false when none has that number.
    @discardableResult
    public func reset(connection number: Int, reason: String = "reset through the control API") async throws(ProxyError) -> Bool {
        try await onLoop { engine in engine.reset(number, reason: reason) }
    }

    /// The open connections now, in accept order.
    public var connections: [ProxyConnection] {
        get async throws(ProxyError) { try await onLoop { engine in engine.connections } }
    }

    /// Whether the device's link is up now, and until when it is down.
    public var linkState: ProxyLinkState {
        get async throws(ProxyError) { try await onLoop { engine in engine.linkState } }
    }

    /// What the device's radio did since the link started (time in each state, promotions
    /// and, when the profile gives powers, energy); nil when the profile has no radio model.
    public var radioStatistics: RadioStatistics? {
        get async throws(ProxyError) { try await onLoop { engine in engine.radioStatistics } }
    }

    /// Resets every open connection (a TCP RST to both sides), as a dropped bearer or a NAT
    /// rebinding would; what was on its way is lost. New connections are served as usual.
    public func resetAll(reason: String = "reset by a fault") async throws(ProxyError) {
        try await onLoop { engine in engine.resetAll(reason: reason) }
    }

    /// Holds every byte of `direction` on every connection, open or new, until ``heal(_:reason:)``:
    /// nothing is dropped, nothing gets through (a one-way partition). `reason` (e.g. `fault 3`)
    /// is the `partition` event's detail.
    public func partition(_ direction: Direction, reason: String? = nil) async throws(ProxyError) {
        try await onLoop { engine in engine.partition(direction, reason: reason) }
    }

    /// Ends the partition of `direction` (nil: every partition); the held bytes go on, in
    /// order. `reason` is the `heal` event's detail.
    public func heal(_ direction: Direction? = nil, reason: String? = nil) async throws(ProxyError) {
        try await onLoop { engine in engine.heal(direction, reason: reason) }
    }

    // MARK: Registry support

    /// Stops, changes the endpoints and starts again (toxiproxy drops connections likewise).
    func restart(listen: ProxyEndpoint, upstream: ProxyEndpoint, listening: Bool) async throws -> SocketAddress? {
        await stop()
        try await onLoop { engine in engine.setEndpoints(listen: listen, upstream: upstream) }
        return listening ? try await start() : nil
    }

    /// Ends every event subscription (the proxy was deleted).
    func finishEvents() {
        broadcast.finish()
    }

    private func onLoop<Result: Sendable>(
        _ body: @escaping @Sendable (ProxyEngine) throws(ProxyError) -> Result
    ) async throws(ProxyError) -> Result {
        let engine = self.engine
        do {
            return try await loop.submit { try body(engine.value) }.get()
        } catch let error as ProxyError {
            throw error
        } catch {
            throw ProxyError(.notRunning, "proxy '\(name)': its event loop is gone (\(error))")
        }
    }
}
