public import LowbandDeterminism
public import LowbandShaper
public import LowbandWire
import NIOCore

/// A simulated network on a ``LowbandDeterminism/VirtualScheduler``: the transport of tests and
/// virtual-time runs.
///
/// Links carry real encoded frames. Without a shaper every frame arrives `latency` after it
/// was sent. With a ``LowbandShaper/NetworkShaper`` the network is one device's access link:
/// every frame's bytes are submitted to the shaper (upstream from the client end, downstream
/// from the server end) and delivered when it says, so rate, delay, jitter, loss stalls,
/// outages, connect delays and resets are the profile's. When the shaper's queue is full the
/// sending end keeps whole frames back until the shaper resumes it.
///
/// Everything happens on the scheduler, in a fixed order: the same seed and the same sends give
/// the same deliveries at the same virtual times. Use one network per simulated device; many
/// networks (and their clients) can share one scheduler and one server.
///
/// For reconnect tests: ``refusesConnections`` makes new connections fail (the server is down)
/// and ``cut()`` resets every connection.
public final class InMemoryNetwork {
    public struct Configuration: Sendable {
        public var frame: FrameConfiguration
        /// One-way delay of every frame when there is no shaper; a connect takes two.
        public var latency: Duration
        /// The link model; nil for a network that only adds `latency`.
        public var shaper: NetworkShaper?
        /// The most bytes handed to the shaper in one `submit` (the shaper wants bounded reads).
        public var submitChunkSize: Int

        public init(frame: FrameConfiguration = FrameConfiguration(), latency: Duration = .zero, shaper: NetworkShaper? = nil, submitChunkSize: Int = 16 * 1024) {
            precondition(latency >= .zero, "latency must not be negative")
            precondition(submitChunkSize > 0, "submitChunkSize must be positive")
            self.frame = frame
            self.latency = latency
            self.shaper = shaper
            self.submitChunkSize = submitChunkSize
        }
    }

    public let scheduler: VirtualScheduler
    public let configuration: Configuration
    /// While true, new connections fail with `.connectionRefused` (open ones are unaffected).
    public var refusesConnections = false
    /// Called on every frame handed to a receiving end, before its delegate sees it.
    public var onDelivery: ((InMemoryDelivery) -> Void)?
    /// Called on every frame a sending end hands to the network and on every frame a receiving
    /// end gets, with its place in the direction's byte stream: what the latency breakdown joins
    /// with the shaper's decisions (which count the same bytes).
    public var onFrame: ((InMemoryFrameEvent) -> Void)?

    /// The link model as it stands (queues, open connections), for statistics and tests.
    public private(set) var shaper: NetworkShaper?
    /// The scheduler's time when the network was made: the shaper's time zero.
    public let origin: Duration
    private var pipes: [InMemoryPipe] = []
    /// Looked up, never iterated.
    private var pipesByShaperID: [ConnectionID: InMemoryPipe] = [:]
    private var wakeup: (at: Duration, work: ScheduledWork)?

    public init(scheduler: VirtualScheduler, configuration: Configuration = Configuration()) {
        self.scheduler = scheduler
        self.configuration = configuration
        self.shaper = configuration.shaper
        origin = scheduler.now
    }

    /// A network shaped by `profile`, its decisions drawn from `seed`.
    public convenience init(scheduler: VirtualScheduler, profile: NetworkProfile, seed: UInt64, trace: (any ShaperTraceSink)? = nil, frame: FrameConfiguration = FrameConfiguration()) {
        self.init(scheduler: scheduler, configuration: Configuration(frame: frame, shaper: NetworkShaper(profile: profile, seed: seed, trace: trace)))
    }

    /// A connector whose links end at `acceptor` (typically a server on the same scheduler).
    public func makeConnector(to acceptor: any FrameLinkAcceptor) -> InMemoryConnector {
        InMemoryConnector(network: self, acceptor: acceptor)
    }

    /// Resets every connection, as a dropped radio link or a crashed server would: both ends
    /// see `linkDidClose` with a ``TransportError`` `.connectionReset`; what was on its way is
    /// lost. Connections still being set up fail the same way.
    public func cut() {
        for pipe in pipes where pipe.phase != .closed {
            abort(pipe, TransportError(.connectionReset, "connection #\(pipe.index) reset: the network was cut"), shaperForgot: false)
        }
        scheduleWakeup()
    }

    /// Resets the connection `link` belongs to (both ends see `.connectionReset`).
    public func reset(_ link: InMemoryLink) {
        guard link.pipe.network === self, link.pipe.phase != .closed else { return }
        abort(link.pipe, TransportError(.connectionReset, "connection #\(link.pipe.index) reset"), shaperForgot: false)
        scheduleWakeup()
    }

    /// Every connection this network opened, in opening order, with its byte counters.
    public var connections: [InMemoryConnectionStatistics] {
        pipes.map { pipe in
            InMemoryConnectionStatistics(
                index: pipe.index,
                upstream: pipe.flows[Direction.upstream.index].statistics,
                downstream: pipe.flows[Direction.downstream.index].statistics,
                openedAt: pipe.openedAt,
                closedAt: pipe.closedAt,
                isOpen: pipe.phase == .open
            )
        }
    }

    /// Connections up (both or one end still open).
    public var openConnectionCount: Int {
        pipes.count { $0.phase == .open }
    }

    /// All traffic that went `direction` on every connection.
    public func traffic(_ direction: Direction) -> FlowStatistics {
        var total = FlowStatistics(sent: .zero, delivered: .zero)
        for pipe in pipes {
            total.sent += pipe.flows[direction.index].sent
            total.delivered += pipe.flows[direction.index].delivered
        }
        return total
    }

    // MARK: Connecting

    func connect(to acceptor: any FrameLinkAcceptor, _ completion: @escaping (Result<any FrameLink, any Error>) -> Void) {
        let pipe = InMemoryPipe(index: pipes.count, network: self, frame: configuration.frame)
        pipes.append(pipe)
        pipe.acceptor = acceptor
        pipe.completion = completion
        if refusesConnections {
            scheduler.schedule(after: roundTrip) { [weak self] in
                self?.refuse(pipe)
            }
            return
        }
        guard shaper != nil else {
            scheduler.schedule(after: roundTrip) { [weak self] in
                self?.establish(pipe)
            }
            return
        }
        let (id, connectAt) = shaper!.open(at: shaperNow)
        pipe.shaperID = id
        pipesByShaperID[id] = pipe
        if connectAt != .never {
            scheduler.schedule(at: time(of: connectAt)) { [weak self] in
                self?.establish(pipe)
            }
        }
        scheduleWakeup()
    }

    private var roundTrip: Duration {
        guard let profile = shaper?.profile else { return configuration.latency * 2 }
        return profile.uplink.delay + profile.downlink.delay
    }

    private func refuse(_ pipe: InMemoryPipe) {
        guard pipe.phase == .connecting else { return }
        pipe.phase = .closed
        pipe.closedAt = scheduler.now
        pipe.acceptor = nil
        forgetShaperConnection(of: pipe)
        let completion = pipe.completion
        pipe.completion = nil
        completion?(.failure(TransportError(.connectionRefused, "connection #\(pipe.index) refused: the server is not accepting connections")))
    }

    private func establish(_ pipe: InMemoryPipe) {
        guard pipe.phase == .connecting else { return }
        guard !refusesConnections, let acceptor = pipe.acceptor else {
            refuse(pipe)
            scheduleWakeup()
            return
        }
        pipe.acceptor = nil
        let client = InMemoryLink(pipe: pipe, side: .client, scheduler: scheduler)
        let server = InMemoryLink(pipe: pipe, side: .server, scheduler: scheduler)
        pipe.attach(client: client, server: server)
        pipe.openedAt = scheduler.now
        let completion = pipe.completion
        pipe.completion = nil
        acceptor.accept(server)
        completion?(.success(client))
    }

    // MARK: Sending and delivering

    func send(_ frame: Frame, from side: InMemoryLinkSide, on pipe: InMemoryPipe) {
        guard pipe.isOpen(side) else { return }
        let direction = side.sending
        var bytes = ByteBuffer()
        do {
            try pipe.flows[direction.index].encoder.write(frame, to: &bytes)
        } catch {
            close(side, of: pipe, error: error)
            return
        }
        pipe.flows[direction.index].sent += TrafficCount(frames: 1, bytes: bytes.readableBytes, payloadBytes: frame.payload.count)
        onFrame?(InMemoryFrameEvent(
            kind: .sent, time: scheduler.now, connection: pipe.index, shaperConnection: pipe.shaperID?.index, direction: direction,
            streamEnd: pipe.flows[direction.index].sent.bytes, wireBytes: bytes.readableBytes, frame: frame))
        guard shaper != nil else {
            scheduler.schedule(after: configuration.latency) { [weak self] in
                self?.receive(bytes, on: pipe, direction)
            }
            return
        }
        pipe.flows[direction.index].waiting.append(bytes)
        submitWaiting(on: pipe, direction)
        scheduleWakeup()
    }

    /// Hands waiting bytes to the shaper in bounded pieces until it says its queue is full.
    private func submitWaiting(on pipe: InMemoryPipe, _ direction: Direction) {
        guard let id = pipe.shaperID, pipe.phase == .open else { return }
        let slot = direction.index
        while !pipe.flows[slot].paused, var head = pipe.flows[slot].waiting.popFirst() {
            let count = min(head.readableBytes, configuration.submitChunkSize)
            let piece = head.readSlice(length: count)!
            if head.readableBytes > 0 { pipe.flows[slot].waiting.prepend(head) }
            pipe.flows[slot].inFlight.writeImmutableBuffer(piece)
            if !shaper!.submit(count, on: id, direction, at: shaperNow) {
                pipe.flows[slot].paused = true
            }
        }
    }

    /// `bytes` reached the receiving end of `direction`: decode whole frames and hand them over.
    private func receive(_ bytes: ByteBuffer, on pipe: InMemoryPipe, _ direction: Direction) {
        let slot = direction.index
        let receiver = direction.receiver
        pipe.flows[slot].delivered.bytes += bytes.readableBytes
        guard pipe.isOpen(receiver) else { return }
        pipe.link(receiver)?.deliverBytes(bytes.readableBytes)
        guard pipe.isOpen(receiver) else { return }
        var arrived = pipe.flows[slot].arrived
        var decoder = pipe.flows[slot].decoder
        pipe.flows[slot].arrived = ByteBuffer()
        arrived.writeImmutableBuffer(bytes)
        var frames: [(wireBytes: Int, frame: Frame)] = []
        var failure: WireError?
        while true {
            do {
                guard let (header, frame) = try decoder.nextFrame(from: &arrived) else { break }
                frames.append((FrameHeader.size + Int(header.payloadLength), frame))
            } catch {
                failure = error
                break
            }
        }
        arrived.discardReadBytes()
        pipe.flows[slot].arrived = arrived
        pipe.flows[slot].decoder = decoder
        for (wireBytes, frame) in frames {
            guard pipe.isOpen(receiver), let link = pipe.link(receiver) else { return }
            pipe.flows[slot].delivered.frames += 1
            pipe.flows[slot].delivered.payloadBytes += frame.payload.count
            pipe.flows[slot].decodedBytes += wireBytes
            onFrame?(InMemoryFrameEvent(
                kind: .delivered, time: scheduler.now, connection: pipe.index, shaperConnection: pipe.shaperID?.index, direction: direction,
                streamEnd: pipe.flows[slot].decodedBytes, wireBytes: wireBytes, frame: frame))
            onDelivery?(InMemoryDelivery(time: scheduler.now, connection: pipe.index, direction: direction, command: frame.command, flags: frame.flags, sequence: frame.sequence, wireBytes: wireBytes, payloadBytes: frame.payload.count))
            link.deliver(frame)
        }
        if let failure {
            close(receiver, of: pipe, error: failure)
        }
    }

    // MARK: Closing

    /// `side` closes (its owner asked, or its stream broke with `error`): it is told at once;
    /// the other end is told once everything `side` sent before has arrived.
    func close(_ side: InMemoryLinkSide, of pipe: InMemoryPipe, error: (any Error)?) {
        guard pipe.isOpen(side) else { return }
        report(side, of: pipe, error: error)
        if pipe.bothSidesClosed {
            finish(pipe)
            return
        }
        let direction = side.sending
        if shaper == nil {
            scheduler.schedule(after: configuration.latency) { [weak self] in
                self?.finArrives(on: pipe, direction)
            }
        } else {
            pipe.flows[direction.index].finPending = true
            scheduleFinIfDrained(on: pipe, direction)
        }
    }

    private func scheduleFinIfDrained(on pipe: InMemoryPipe, _ direction: Direction) {
        let slot = direction.index
        guard pipe.flows[slot].finPending, pipe.flows[slot].idle else { return }
        pipe.flows[slot].finPending = false
        let delay = shaper?.profile.link(direction).delay ?? configuration.latency
        scheduler.schedule(after: delay) { [weak self] in
            self?.finArrives(on: pipe, direction)
        }
    }

    private func finArrives(on pipe: InMemoryPipe, _ direction: Direction) {
        let receiver = direction.receiver
        guard pipe.isOpen(receiver) else { return }
        report(receiver, of: pipe, error: nil)
        if pipe.bothSidesClosed { finish(pipe) }
    }

    /// Tells `side`'s delegate, on the scheduler's next turn, that its link is gone.
    private func report(_ side: InMemoryLinkSide, of pipe: InMemoryPipe, error: (any Error)?) {
        guard let link = pipe.detach(side) else { return }
        scheduler.execute {
            link.reportClose(error)
        }
    }

    /// Both ends are closed: forget the connection.
    private func finish(_ pipe: InMemoryPipe) {
        pipe.phase = .closed
        pipe.closedAt = scheduler.now
        forgetShaperConnection(of: pipe)
        pipe.discardTraffic()
        scheduleWakeup()
    }

    private func abort(_ pipe: InMemoryPipe, _ error: TransportError, shaperForgot: Bool) {
        switch pipe.phase {
        case .closed:
            return
        case .connecting:
            pipe.phase = .closed
            pipe.closedAt = scheduler.now
            pipe.acceptor = nil
            if shaperForgot, let id = pipe.shaperID { pipesByShaperID[id] = nil }
            forgetShaperConnection(of: pipe)
            let completion = pipe.completion
            pipe.completion = nil
            scheduler.execute {
                completion?(.failure(error))
            }
        case .open:
            if pipe.isOpen(.client) { report(.client, of: pipe, error: error) }
            if pipe.isOpen(.server) { report(.server, of: pipe, error: error) }
            if shaperForgot, let id = pipe.shaperID { pipesByShaperID[id] = nil }
            finish(pipe)
        }
    }

    private func forgetShaperConnection(of pipe: InMemoryPipe) {
        guard let id = pipe.shaperID, pipesByShaperID[id] != nil else { return }
        pipesByShaperID[id] = nil
        shaper?.close(id, at: shaperNow)
    }

    // MARK: Driving the shaper

    private var shaperNow: ShaperInstant {
        ShaperInstant(nanoseconds: (scheduler.now - origin).nanosecondsClamped)
    }

    private func time(of instant: ShaperInstant) -> Duration {
        origin + .nanoseconds(instant.nanoseconds)
    }

    /// Keeps one timer at the shaper's next wake-up.
    private func scheduleWakeup() {
        guard let next = shaper?.nextWakeup, next != .never else {
            if let wakeup {
                scheduler.cancel(wakeup.work)
                self.wakeup = nil
            }
            return
        }
        let at = time(of: next)
        if let wakeup {
            if wakeup.at <= at { return }
            scheduler.cancel(wakeup.work)
        }
        let work = scheduler.schedule(at: at) { [weak self] in
            self?.wake()
        }
        wakeup = (at, work)
    }

    private func wake() {
        wakeup = nil
        guard shaper != nil else { return }
        for action in shaper!.advance(to: shaperNow) {
            switch action {
            case .deliver(let id, let direction, let count):
                guard let pipe = pipesByShaperID[id] else { continue }
                let slot = direction.index
                guard let bytes = pipe.flows[slot].inFlight.readSlice(length: min(count, pipe.flows[slot].inFlight.readableBytes)) else { continue }
                if pipe.flows[slot].inFlight.readableBytes == 0 { pipe.flows[slot].inFlight.clear() }
                receive(bytes, on: pipe, direction)
                scheduleFinIfDrained(on: pipe, direction)
            case .resumeReading(let id, let direction):
                guard let pipe = pipesByShaperID[id] else { continue }
                pipe.flows[direction.index].paused = false
                submitWaiting(on: pipe, direction)
                scheduleFinIfDrained(on: pipe, direction)
            case .reset(let id):
                guard let pipe = pipesByShaperID[id] else { continue }
                pipesByShaperID[id] = nil
                abort(pipe, TransportError(.connectionReset, "connection #\(pipe.index) reset by the network (profile \(shaper?.profile.name ?? "?"))"), shaperForgot: true)
            }
        }
        scheduleWakeup()
    }
}

/// What went one way on a connection.
public struct FlowStatistics: Hashable, Sendable {
    /// Handed to the network by the sending end.
    public var sent: TrafficCount
    /// Arrived at the receiving end (bytes as they arrived; frames once whole and decoded).
    public var delivered: TrafficCount

    public init(sent: TrafficCount, delivered: TrafficCount) {
        self.sent = sent
        self.delivered = delivered
    }
}

/// One connection of an ``InMemoryNetwork`` and its traffic.
public struct InMemoryConnectionStatistics: Hashable, Sendable {
    /// Opening order, from 0.
    public var index: Int
    /// Client to server.
    public var upstream: FlowStatistics
    /// Server to client.
    public var downstream: FlowStatistics
    /// When the connection came up; nil if it never did.
    public var openedAt: Duration?
    public var closedAt: Duration?
    public var isOpen: Bool
}

/// A frame entering or leaving an ``InMemoryNetwork``, placed in its direction's byte stream.
public struct InMemoryFrameEvent {
    public enum Kind: String, Sendable {
        /// The sending end handed the frame to the network.
        case sent
        /// The frame arrived whole and decoded at the receiving end.
        case delivered
    }

    public var kind: Kind
    /// The scheduler's time.
    public var time: Duration
    /// The connection's index in its network.
    public var connection: Int
    /// The shaper's number for the connection (its `conn` in the trace); nil without a shaper.
    public var shaperConnection: Int?
    public var direction: Direction
    /// Bytes of the direction's stream up to and including this frame: the frame is the bytes
    /// `streamEnd - wireBytes ..< streamEnd`, the same bytes the shaper's trace counts.
    public var streamEnd: Int
    public var wireBytes: Int
    public var frame: Frame
}

/// A frame handed to a receiving end of an ``InMemoryNetwork``.
public struct InMemoryDelivery: Hashable, Sendable {
    /// The scheduler's time of the delivery.
    public var time: Duration
    /// The connection's index in its network.
    public var connection: Int
    public var direction: Direction
    public var command: Command
    public var flags: FrameFlags
    public var sequence: UInt32
    /// The frame's bytes on the wire: header plus payload as it travelled.
    public var wireBytes: Int
    /// The payload after decompression.
    public var payloadBytes: Int
}

extension Flow {
    var statistics: FlowStatistics { FlowStatistics(sent: sent, delivered: delivered) }
}
