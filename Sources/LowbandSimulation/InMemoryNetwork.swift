public import LowbandDeterminism
public import LowbandProxyCore
public import LowbandShaper
public import LowbandTransport
public import LowbandWire
import NIOCore

/// A simulated network on a `LowbandDeterminism/VirtualScheduler`: the transport of tests and
/// virtual-time runs.
///
/// It is the shaping proxy without sockets: the client end → the same sans-I/O state machine
/// the socket proxy drives (`ProxyStateMachine`: toxics, faults, the link model,
/// back-pressure, half-close) → the server end. Links carry real encoded frames. Without a
/// shaper every frame arrives `latency` after it was sent. With a
/// `LowbandShaper/NetworkShaper` the network is one device's access link: every frame's bytes
/// go to the shaper (upstream from the client end, downstream from the server end) and are
/// delivered when it says, so rate, delay, jitter, loss stalls, outages, connect delays and
/// resets are the profile's. When the shaper's queue is full the network stops reading the
/// sending end, which keeps whole frames back until the shaper resumes it.
///
/// Everything happens on the scheduler, in a fixed order: the same seed and the same sends give
/// the same deliveries at the same virtual times. Use one network per simulated device; many
/// networks (and their clients) can share one scheduler and one server. Ends never hear of
/// anything inside `send`, `close` or a fault call: deliveries and closes come on a scheduled turn.
///
/// Faults, all through the state machine as in the proxy: toxics (``addToxic(_:)``, the
/// toxiproxy `Toxic` the control API uses), one-way partitions (``partition(_:)``/``heal()``),
/// resets (``cut()``, ``reset(_:)``) and refusing new connections (``refusesConnections``).
public final class InMemoryNetwork {
    /// How frames are sized and shaped, and the toxics' seed and buffer.
    public struct Configuration: Sendable {
        /// The frame format both ends use (payload limits, compression).
        public var frame: FrameConfiguration
        /// One-way delay of every frame when there is no shaper; a connect takes two.
        public var latency: Duration
        /// The link model; nil for a network that only adds `latency`.
        public var shaper: NetworkShaper?
        /// The most bytes read from a sending end at a time, as one `submit` to the shaper (the
        /// shaper wants bounded reads; a socket proxy reads at most its read size).
        public var submitChunkSize: Int
        /// Seeds the toxics' random choices (toxicity rolls, latency jitter, slicer cuts).
        public var toxicSeed: UInt64
        /// Reading a sending end stops while its direction's toxics hold this many bytes.
        public var toxicBuffer: Int

        /// A configuration; the defaults are an unshaped network with no latency.
        public init(
            frame: FrameConfiguration = FrameConfiguration(), latency: Duration = .zero, shaper: NetworkShaper? = nil,
            submitChunkSize: Int = 16 * 1024, toxicSeed: UInt64 = 0, toxicBuffer: Int = 256 * 1024
        ) {
            precondition(latency >= .zero, "latency must not be negative")
            precondition(submitChunkSize > 0, "submitChunkSize must be positive")
            self.frame = frame
            self.latency = latency
            self.shaper = shaper
            self.submitChunkSize = submitChunkSize
            self.toxicSeed = toxicSeed
            self.toxicBuffer = toxicBuffer
        }
    }

    /// The virtual clock every delivery, close and timer of the network runs on.
    public let scheduler: VirtualScheduler
    /// The settings the network was made with.
    public let configuration: Configuration
    /// While true, new connections are refused when they would come up: their connect fails with
    /// `.connectionRefused` after the link's connect delay, as through a proxy whose upstream
    /// is down (open ones are unaffected).
    public var refusesConnections = false
    /// Called on every frame handed to a receiving end, before its delegate sees it.
    public var onDelivery: ((InMemoryDelivery) -> Void)?
    /// Called on every frame a sending end hands to the network and on every frame a receiving
    /// end gets, with its place in the direction's byte stream: what the latency breakdown joins
    /// with the shaper's decisions (which count the same bytes).
    public var onFrame: ((InMemoryFrameEvent) -> Void)?
    /// Called with every event of the state machine, as the proxy streams them (times since the
    /// network was made, connection numbers from 1 in opening order).
    public var onEvent: ((ProxyEvent) -> Void)?

    /// The link model as it stands (queues, open connections), for statistics and tests; nil on
    /// a latency-only network.
    public var shaper: NetworkShaper? { machine.shaper as? NetworkShaper }
    /// The scheduler's time when the network was made: the shaper's time zero.
    public let origin: Duration
    var machine: ProxyStateMachine
    var pipes: [InMemoryPipe] = []
    /// By state-machine number; looked up, never iterated.
    var pipesByNumber: [Int: InMemoryPipe] = [:]
    /// The connections' work the state machine asked for, not yet carried out, in order.
    var pending = CircularBuffer<SocketWork>()
    var performing = false
    /// Actions of the running turn not yet carried out; those queued behind them wait for the next.
    var turnRemaining = 0
    var turnScheduled = false
    var wakeup: (at: Duration, work: ScheduledWork)?
    /// The wake-up timer's work, made once: a new closure at every wake-up was an allocation
    /// and a weak reference made and destroyed per timer (the network's timer is most of what
    /// the scheduler runs).
    lazy var wakeWork: () -> Void = { [weak self] in self?.wake() }

    /// A network on `scheduler`, shaped by `configuration.shaper` or adding `configuration.latency`.
    public init(scheduler: VirtualScheduler, configuration: Configuration = Configuration()) {
        self.scheduler = scheduler
        self.configuration = configuration
        origin = scheduler.now
        let shaper: any TrafficShaper = configuration.shaper ?? LatencyShaper(latency: configuration.latency)
        machine = ProxyStateMachine(
            shaper: shaper, seed: configuration.toxicSeed, toxicBufferLimit: configuration.toxicBuffer,
            // No limit of its own on the link: only the shaper's queue pushes back.
            linkBufferLimit: .max, at: .zero)
    }

    /// A network shaped by `profile`, its decisions (and its toxics') drawn from `seed`; `trace`
    /// gets them as the proxy's `--trace` does: time since the network was made, connections
    /// numbered from 1 as in ``onEvent``.
    public convenience init(scheduler: VirtualScheduler, profile: NetworkProfile, seed: UInt64, trace: (any ShaperTraceSink)? = nil, frame: FrameConfiguration = FrameConfiguration()) {
        let placed = trace.map { FramedTraceSink($0, frame: .start) as any ShaperTraceSink }
        self.init(scheduler: scheduler, configuration: Configuration(frame: frame, shaper: NetworkShaper(profile: profile, seed: seed, trace: placed), toxicSeed: seed))
    }

    /// A connector whose links end at `acceptor` (typically a server on the same scheduler).
    public func makeConnector(to acceptor: any FrameLinkAcceptor) -> InMemoryConnector {
        InMemoryConnector(network: self, acceptor: acceptor)
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

    /// The state machine's counters: connections accepted, refused and reset, bytes delivered
    /// and held, as `LowbandProxyCore/ProxyStatistics` counts them for the proxy.
    public var statistics: ProxyStatistics { machine.statistics }

    // MARK: Connecting

    func connect(to acceptor: any FrameLinkAcceptor, _ completion: @escaping (Result<any FrameLink, any Error>) -> Void) {
        let pipe = InMemoryPipe(index: pipes.count, network: self, frame: configuration.frame)
        pipes.append(pipe)
        pipe.acceptor = acceptor
        pipe.completion = completion
        let (number, output) = machine.accept(description: "connection #\(pipe.index)", at: now)
        pipe.number = number
        pipesByNumber[number] = pipe
        if configuration.shaper != nil { pipe.traceConnection = number }
        perform(output)
    }

    /// The link lets the connection through: hand both ends out, unless the network refuses.
    func establish(_ pipe: InMemoryPipe) {
        // A fault may have ended it since the connect was due.
        guard pipe.phase == .connecting, machine.hasConnection(pipe.number) else { return }
        guard !refusesConnections, let acceptor = pipe.acceptor else {
            pipe.refused = true
            perform(machine.upstreamFailed(pipe.number, reason: "the server is not accepting connections", at: now))
            return
        }
        pipe.acceptor = nil
        let client = InMemoryLink(pipe: pipe, side: .client, scheduler: scheduler)
        let server = InMemoryLink(pipe: pipe, side: .server, scheduler: scheduler)
        pipe.attach(client: client, server: server)
        pipe.openedAt = scheduler.now
        // Reading starts before either end can send.
        perform(machine.upstreamConnected(pipe.number, at: now))
        let completion = pipe.completion
        pipe.completion = nil
        acceptor.accept(server)
        completion?(.success(client))
    }

    /// The connection failed before it was up.
    func fail(_ pipe: InMemoryPipe, reset: Bool, reason: String) {
        pipe.phase = .closed
        pipe.closedAt = scheduler.now
        pipe.acceptor = nil
        let completion = pipe.completion
        pipe.completion = nil
        let error: TransportError
        if pipe.refused {
            error = TransportError(.connectionRefused, "connection #\(pipe.index) refused: the server is not accepting connections")
        } else if reset {
            error = TransportError(.connectionReset, "connection #\(pipe.index) reset: \(reason)")
        } else {
            error = TransportError(.connectFailed, "connection #\(pipe.index) failed: \(reason)")
        }
        completion?(.failure(error))
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
            kind: .sent, time: scheduler.now, connection: pipe.index, traceConnection: pipe.traceConnection, direction: direction,
            streamEnd: pipe.flows[direction.index].sent.bytes, wireBytes: bytes.readableBytes, frame: frame))
        pipe.flows[direction.index].outbox.append(bytes)
        read(pipe, direction)
    }

    /// Hands the sending end's frames to the state machine in bounded pieces while it reads
    /// that end; once they are all in, a pending end follows them.
    func read(_ pipe: InMemoryPipe, _ direction: Direction) {
        let slot = direction.index
        let chunk = configuration.submitChunkSize
        while pipe.flows[slot].reading, var head = pipe.flows[slot].outbox.popFirst() {
            let count = min(head.readableBytes, chunk)
            // readSlice cannot fail: count <= readableBytes.
            let piece = head.readSlice(length: count) ?? ByteBuffer()
            if head.readableBytes > 0 { pipe.flows[slot].outbox.prepend(head) }
            perform(machine.received(piece, on: pipe.number, from: direction.sender.proxySide, at: now))
        }
        if pipe.flows[slot].endPending, pipe.flows[slot].outbox.isEmpty, pipe.phase == .open {
            pipe.flows[slot].endPending = false
            perform(machine.inputClosed(pipe.number, side: direction.sender.proxySide, at: now))
        }
    }

    /// `bytes` reached the receiving end of `direction`: decode whole frames and hand them over.
    func receive(_ bytes: ByteBuffer, on pipe: InMemoryPipe, _ direction: Direction) {
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
                kind: .delivered, time: scheduler.now, connection: pipe.index, traceConnection: pipe.traceConnection, direction: direction,
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
    /// the other end is told once everything `side` sent before has arrived and the end has
    /// crossed the link (see ``endArrives(on:_:)``).
    func close(_ side: InMemoryLinkSide, of pipe: InMemoryPipe, error: (any Error)?) {
        guard pipe.isOpen(side) else { return }
        report(side, of: pipe, error: error)
        if pipe.bothSidesClosed {
            finish(pipe)
            return
        }
        let direction = side.sending
        pipe.flows[direction.index].endedAt = scheduler.now
        pipe.flows[direction.index].endPending = true
        read(pipe, direction)
    }

    /// The state machine forwarded the end of `direction` (everything before it is delivered):
    /// the receiver hears of it when the FIN arrives. On a shaped link the FIN then crosses the
    /// link, taking its delay; on a latency-only network nothing queues, so it arrives `latency`
    /// after the close, with the last frames sent before it.
    func endArrives(on pipe: InMemoryPipe, _ direction: Direction) {
        let at: Duration
        if let profile = configuration.shaper?.profile {
            at = scheduler.now + profile.link(direction).delay
        } else {
            at = max(scheduler.now, (pipe.flows[direction.index].endedAt ?? scheduler.now) + configuration.latency)
        }
        scheduler.schedule(at: at) { [weak self] in
            guard let self, pipe.isOpen(direction.receiver) else { return }
            report(direction.receiver, of: pipe, error: nil)
            if pipe.bothSidesClosed { finish(pipe) }
        }
    }

    /// Tells `side`'s delegate, on the scheduler's next turn, that its link is gone.
    func report(_ side: InMemoryLinkSide, of pipe: InMemoryPipe, error: (any Error)?) {
        guard let link = pipe.detach(side) else { return }
        scheduler.execute {
            link.reportClose(error)
        }
    }

    /// Both ends are closed: forget the connection and what is still on its way.
    func finish(_ pipe: InMemoryPipe) {
        guard pipe.phase != .closed else { return }
        pipe.phase = .closed
        pipe.closedAt = scheduler.now
        pipe.discardTraffic()
        guard pipesByNumber[pipe.number] != nil else { return }
        perform(machine.socketClosed(pipe.number, side: .client, error: nil, at: now))
        perform(machine.socketClosed(pipe.number, side: .upstream, error: nil, at: now))
    }

    /// The state machine closed the connection: a reset reaches both ends as `.connectionReset`
    /// and loses what was on its way; a toxic's close reaches them as a clean close.
    func closed(_ pipe: InMemoryPipe, reset: Bool, reason: String) {
        pipesByNumber[pipe.number] = nil
        switch pipe.phase {
        case .closed:
            return
        case .connecting:
            fail(pipe, reset: reset, reason: reason)
        case .open:
            let error = reset ? TransportError(.connectionReset, "connection #\(pipe.index) reset: \(reason)") : nil
            if pipe.isOpen(.client) { report(.client, of: pipe, error: error) }
            if pipe.isOpen(.server) { report(.server, of: pipe, error: error) }
            finish(pipe)
        }
    }
}

/// What went one way on a connection.
public struct FlowStatistics: Hashable, Sendable {
    /// Handed to the network by the sending end.
    public var sent: TrafficCount
    /// Arrived at the receiving end (bytes as they arrived; frames once whole and decoded).
    public var delivered: TrafficCount

    /// Figures of one direction.
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
    /// When the connection closed; nil while it is open or if it never came up.
    public var closedAt: Duration?
    /// Whether the connection is up now.
    public var isOpen: Bool
}

/// A frame entering or leaving an ``InMemoryNetwork``, placed in its direction's byte stream.
public struct InMemoryFrameEvent {
    /// Whether a frame entered or left the network.
    public enum Kind: String, Sendable {
        /// The sending end handed the frame to the network.
        case sent
        /// The frame arrived whole and decoded at the receiving end.
        case delivered
    }

    /// Whether the frame was sent or delivered.
    public var kind: Kind
    /// The scheduler's time.
    public var time: Duration
    /// The connection's index in its network.
    public var connection: Int
    /// The connection's `conn` in the trace (its number in the network's events, from 1); nil
    /// without a shaper.
    public var traceConnection: Int?
    /// The direction the frame travels.
    public var direction: Direction
    /// Bytes of the direction's stream up to and including this frame: the frame is the bytes
    /// `streamEnd - wireBytes ..< streamEnd`, the same bytes the shaper's trace counts. A toxic
    /// that drops bytes before the link (`limit_data` past its limit, `timeout`, `reset_peer`)
    /// makes the shaper count fewer: offsets agree up to the first dropped byte. Toxics that only
    /// delay or cut bytes (`latency`, `bandwidth`, `slicer`, `slow_close`) and partitions keep
    /// them equal.
    public var streamEnd: Int
    /// The frame's bytes on the wire: header plus payload as it travels.
    public var wireBytes: Int
    /// The frame itself.
    public var frame: Frame
}

/// A frame handed to a receiving end of an ``InMemoryNetwork``.
public struct InMemoryDelivery: Hashable, Sendable {
    /// The scheduler's time of the delivery.
    public var time: Duration
    /// The connection's index in its network.
    public var connection: Int
    /// The direction the frame travelled.
    public var direction: Direction
    /// The frame's command.
    public var command: Command
    /// The frame's header flags (response, error, push, compressed).
    public var flags: FrameFlags
    /// The frame's sequence number.
    public var sequence: UInt32
    /// The frame's bytes on the wire: header plus payload as it travelled.
    public var wireBytes: Int
    /// The payload after decompression.
    public var payloadBytes: Int
}

extension Flow {
    var statistics: FlowStatistics { FlowStatistics(sent: sent, delivered: delivered) }
}
