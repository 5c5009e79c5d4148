import LowbandDeterminism

/// A packet's number on a ``PacketLink``: from 0, one more per packet offered, both directions.
/// The trace names a packet by its number within its direction instead (`frame 17` with `dir`).
public typealias PacketID = UInt64

/// Why a ``PacketLink`` dropped a packet; the name is the trace's `detail`.
public struct PacketDrop: Hashable, Sendable, CustomStringConvertible {
    /// The word written to the trace.
    public let name: String
    private init(_ name: String) { self.name = name }
    public var description: String { name }

    /// The direction's drop-tail queue (the profile's `queue` bytes) had no room for it.
    public static let queueFull = PacketDrop("queue-full")
    /// Larger than the profile's MTU.
    public static let overMTU = PacketDrop("over-mtu")
    /// Lost on the air: in a fade of the radio (bursty loss) or by its own draw (independent).
    public static let loss = PacketDrop("loss")
    /// The link went down for good while it was on its way.
    public static let linkDown = PacketDrop("link-down")
    /// Its flow's NAT binding is gone: idle past the profile's `nat` timeout, or the device came
    /// back from an outage with another address.
    public static let natExpired = PacketDrop("nat-expired")
    /// Its flow was reset by the network (the profile's `resets`, or the NAT's `on-expiry:
    /// reset`): what either end still sends of it dies at the reset.
    public static let reset = PacketDrop("reset")
}

/// The flow a packet belongs to, as a NAT tells flows apart: the protocol and both ends, the
/// device's first. The owner reads it from the packet's headers.
public struct PacketFlow: Hashable, Sendable {
    /// The IP protocol number: 6 for TCP, 17 for UDP.
    public var transport: UInt8
    /// The device's IPv4 address, in host byte order.
    public var deviceAddress: UInt32
    /// The device's port.
    public var devicePort: UInt16
    /// The far end's IPv4 address, in host byte order.
    public var remoteAddress: UInt32
    /// The far end's port.
    public var remotePort: UInt16

    /// The flow of `transport` (6 TCP, 17 UDP) between the device's and the remote's address and port.
    public init(transport: UInt8, deviceAddress: UInt32, devicePort: UInt16, remoteAddress: UInt32, remotePort: UInt16) {
        self.transport = transport
        self.deviceAddress = deviceAddress
        self.devicePort = devicePort
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
    }
}

/// What a ``PacketLink`` says about a packet offered to it.
public enum PacketAdmission: Hashable, Sendable {
    /// Queued; a later ``PacketLink/advance(to:)`` delivers or drops it.
    case queued(PacketID)
    /// Dropped at once (a full queue, over the MTU).
    case dropped(PacketID, PacketDrop)
}

/// What ``PacketLink/advance(to:)`` tells its owner to do with a queued packet.
public enum PacketAction: Hashable, Sendable {
    /// Hand the packet to the far side now.
    case deliver(PacketID, Direction)
    /// The packet is gone; forget its bytes.
    case drop(PacketID, Direction, PacketDrop)
    /// The network resets the TCP flow now: the owner makes up a reset toward each end (as a
    /// carrier's NAT or middlebox does), and the link drops the flow's packets from now on.
    /// The string says why, in the trace's words.
    case reset(PacketFlow, String)
}

/// The link model for whole packets: the profile played out on IP packets, as `lowband shell`
/// needs it, where loss is a real drop that the endpoints' own TCP recovers from.
///
/// Per direction, one FIFO bottleneck at the profile's rate counting each packet's real bytes;
/// a drop-tail queue of the profile's `queue` bytes; after the bottleneck each packet is lost
/// (bursty in fades of the radio, or independently) or takes the one-way delay plus jitter,
/// never overtaking the packet before it. Outages and handovers hold the bottleneck (the queue
/// fills and then drops), the radio wakes up after idling, the timeline changes the figures.
/// The outage schedule, the radio's wake-ups and the fades are drawn from the same streams as
/// ``NetworkShaper``'s for the same seed; jitter and independent loss from the direction's own
/// (`seed` → derived(4, direction)). No clock and no I/O: every call gets `now`.
///
/// The NAT (the profile's `nat`, and outages that bring a new address) forgets a flow the owner
/// names in ``submit(_:_:flow:at:)``: every later packet of it is dropped (`nat-expired`); with
/// `on-expiry: reset` the link also tells the owner to reset the flow (``PacketAction/reset(_:_:)``).
/// The profile's `resets` are drawn per flow when the link first sees it, as ``NetworkShaper``
/// draws them per connection: with the chance `probability`, after a lifetime from `after-time`
/// or once its packets' bytes both ways reach a count from `after-bytes`, the flow is reset.
///
/// What the byte-stream model adds and this one leaves to the real endpoints: header overhead
/// and acknowledgements (they are real packets here), retransmission stalls (real TCP
/// retransmits).
public struct PacketLink: Sendable {
    /// The network played out.
    public let profile: NetworkProfile
    /// The seed every random decision derives from.
    public let seed: UInt64
    /// Where its decisions are written (enqueue, drop with its cause, deliver, outages).
    public let trace: (any ShaperTraceSink)?

    private enum Timer: Sendable {
        case transmitted(Direction, QueuedPacket)
        case arrival(Direction, QueuedPacket)
        case ready(Direction)
        case forcedEnd(Int64)
        /// A flow's lifetime (the profile's `resets.after-time`) is up; the binding's `number`
        /// tells a later flow of the same addresses from it.
        case resetDue(PacketFlow, Int)
    }

    private struct QueuedPacket: Sendable {
        var id: PacketID
        var bytes: Int
        var enqueuedAt: Int64
        var flow: PacketFlow?
        /// Its number among its direction's packets, from 1: what the trace names, so that two
        /// runs of one seed line up however the directions interleave.
        var ordinal: Int

        var name: String { "frame \(ordinal)" }
    }

    /// What the NAT remembers of a flow.
    private struct Binding: Sendable {
        var lastCrossed: Int64
        var firstSeen: Int64
        var forgotten = false
        /// Its number among the flows bound, from 1: its random stream for `resets`.
        var number = 0
        /// The bytes (both ways) after which the profile's `resets` reset it; nil: none.
        var resetAfterBytes: Int?
        /// Its packets' bytes that crossed so far, both ways.
        var bytes = 0
        /// Reset by the network: its packets are dropped as `reset`.
        var reset = false
    }

    /// Flows the NAT keeps at once; the oldest binding is forgotten to make room (and is a new
    /// binding if its flow comes back).
    public static let maximumFlows = 65_536

    /// One direction's own state beyond its bottleneck.
    private struct Lane: Sendable {
        var queue = FIFO<QueuedPacket>()
        var generator: SeededGenerator
        var jitter = JitterState()
        /// When the previous packet arrives: none arrives before it.
        var lastArrival: Int64 = 0
        /// Packets offered so far.
        var offered = 0
    }

    private var now: Int64 = 0
    private var timers = EventQueue<Timer>()
    private var pending: [PacketAction] = []
    private var bottlenecks: [Bottleneck]
    private var lanes: [Lane]
    private var outages: Outages
    private var radio: Radio
    private var fades: [Fades]
    private var nextID: PacketID = 0
    /// The NAT's bindings, looked up by flow, never iterated; `bindingOrder` is their age order.
    private var bindings: [PacketFlow: Binding] = [:]
    private var bindingOrder = FIFO<PacketFlow>()
    /// Flows bound so far (each binding's number).
    private var flowsBound = 0
    /// When the device last came back with another address: bindings made before are gone.
    private var addressChangedAt: Int64 = .min
    /// The end of an outage forced by the owner (``forceOutage(_:for:at:)``); nothing leaves a
    /// bottleneck or arrives before it.
    private var forcedUntil: Int64 = 0

    /// A link playing `profile` with every random decision derived from `seed`.
    public init(profile: NetworkProfile, seed: UInt64, trace: (any ShaperTraceSink)? = nil) {
        self.profile = profile
        self.seed = seed
        self.trace = trace
        let root = SeededGenerator(seed: seed)
        let device = root.derived(0)
        outages = Outages(profile.outages, generator: device, healedFrom: profile.healedFrom?.nanosecondsClamped)
        radio = Radio(profile: profile.radio ?? profile.wakeUp.map(RadioProfile.init(wakeUp:)), generator: device.derived(2))
        fades = Direction.allCases.map { Fades(generator: device.derived(3, UInt64($0.index))) }
        bottlenecks = Direction.allCases.map { Bottleneck(profile: profile, direction: $0) }
        lanes = Direction.allCases.map { Lane(generator: root.derived(4, UInt64($0.index))) }
    }

    /// Offers a packet of `bytes` (the IP packet, headers included) going `direction` at `now`;
    /// `flow` is its flow when the profile's NAT applies to it (nil: none).
    public mutating func submit(_ bytes: Int, _ direction: Direction, flow: PacketFlow? = nil, at now: ShaperInstant) -> PacketAdmission {
        run(until: now.nanoseconds)
        let id = nextID
        nextID += 1
        let slot = direction.index
        lanes[slot].offered += 1
        let packet = QueuedPacket(id: id, bytes: bytes, enqueuedAt: self.now, flow: flow, ordinal: lanes[slot].offered)
        if bytes > profile.mtu {
            record(.drop, direction, bytes: bytes, detail: "\(packet.name): \(PacketDrop.overMTU)")
            return .dropped(id, .overMTU)
        }
        if bottlenecks[slot].occupancy + bytes > bottlenecks[slot].queueLimit {
            record(.drop, direction, bytes: bytes, queued: bottlenecks[slot].occupancy, detail: "\(packet.name): \(PacketDrop.queueFull)")
            return .dropped(id, .queueFull)
        }
        bottlenecks[slot].occupancy += bytes
        if let flow, bindings[flow] == nil { bind(flow) }
        lanes[slot].queue.append(packet)
        record(.enqueue, direction, bytes: bytes, queued: bottlenecks[slot].occupancy, detail: packet.name)
        startNext(direction)
        return .queued(id)
    }

    /// Everything due by `now`, in the order it happens.
    public mutating func advance(to now: ShaperInstant) -> [PacketAction] {
        run(until: now.nanoseconds)
        defer { pending = [] }
        return pending
    }

    /// When ``advance(to:)`` next has something to do; nil while idle.
    public var nextWakeup: ShaperInstant? {
        if !pending.isEmpty { return ShaperInstant(nanoseconds: now) }
        return timers.nextTime.map { ShaperInstant(nanoseconds: $0) }
    }

    /// Forces an outage of `kind` from `now` for `duration`, as the proxy's control API does:
    /// both bottlenecks hold their queues (which fill, then drop their tails) and packets on
    /// their way arrive after it. A packet already crossing a bottleneck finishes crossing.
    public mutating func forceOutage(_ kind: OutageProfile.Kind, for duration: Duration, at now: ShaperInstant) {
        run(until: now.nanoseconds)
        let end = self.now + max(0, duration.nanosecondsClamped)
        guard end > forcedUntil else { return }
        forcedUntil = end
        trace?.record(ShaperEvent(time: ShaperInstant(nanoseconds: self.now), kind: .outageStart, delay: .nanoseconds(end - self.now), detail: "\(kind.rawValue), forced"))
        timers.schedule(.forcedEnd(end), at: end)
    }

    /// Bytes waiting for (or crossing) `direction`'s bottleneck.
    public func queuedBytes(_ direction: Direction) -> Int {
        bottlenecks[direction.index].occupancy
    }

    /// What the device's radio did up to `now`; nil when the profile has no radio.
    public func radioStatistics(at now: ShaperInstant) -> RadioStatistics? {
        radio.statistics(at: max(now.nanoseconds, self.now))
    }

    // MARK: The loop

    private mutating func run(until time: Int64) {
        let target = max(time, now)
        while let (at, timer) = timers.popFirst(dueBy: target) {
            traceBoundaries(through: at)
            now = at
            switch timer {
            case let .transmitted(direction, packet): transmitted(direction, packet)
            case let .arrival(direction, packet):
                // On its way when an outage was forced: it arrives when that ends, in order.
                if now < forcedUntil {
                    timers.schedule(.arrival(direction, packet), at: forcedUntil)
                    continue
                }
                radio.touch(now)
                pending.append(.deliver(packet.id, direction))
                record(.deliver, direction, bytes: packet.bytes, delay: now - packet.enqueuedAt, detail: packet.name)
            case let .ready(direction):
                bottlenecks[direction.index].waitingUntil = nil
                startNext(direction)
            case let .forcedEnd(end):
                // A later forced outage replaced this one: its own end is traced.
                if end == forcedUntil {
                    record(.outageEnd, nil, detail: "forced")
                }
            case let .resetDue(flow, number):
                // Only the binding it was drawn for, while still alive.
                guard let binding = bindings[flow], binding.number == number, !binding.forgotten, !isHealed else { continue }
                reset(flow, because: "the profile's resets: its lifetime is up")
            }
        }
        traceBoundaries(through: target)
        now = target
    }

    private mutating func startNext(_ direction: Direction) {
        let slot = direction.index
        guard !bottlenecks[slot].busy, bottlenecks[slot].waitingUntil == nil, let head = lanes[slot].queue.first else { return }
        // A link down for good holds its queue for ever (new packets find it full).
        guard let clear = outages.clear(from: max(now, radio.awakeFrom, forcedUntil)) else { return }
        if clear > now {
            wait(direction, until: clear)
            return
        }
        if let wake = radio.wakeIfIdle(at: now, bytes: bottlenecks[slot].occupancy, direction: direction) {
            record(.wakeup, direction, delay: wake.delay, detail: profile.radio.map { "from \(wake.from) to \($0.states[0].name)" })
            wait(direction, until: now + wake.delay)
            return
        }
        radio.touch(now)
        _ = lanes[slot].queue.popFirst()
        bottlenecks[slot].busy = true
        if let end = bottlenecks[slot].transmissionEnd(startingAt: now, bytes: head.bytes, outages: &outages) {
            timers.schedule(.transmitted(direction, head), at: end)
        }
    }

    private mutating func wait(_ direction: Direction, until time: Int64) {
        bottlenecks[direction.index].waitingUntil = time
        timers.schedule(.ready(direction), at: time)
    }

    /// A packet has left the bottleneck: lost, or on its way for the delay plus jitter.
    private mutating func transmitted(_ direction: Direction, _ packet: QueuedPacket) {
        let slot = direction.index
        bottlenecks[slot].busy = false
        bottlenecks[slot].occupancy -= packet.bytes
        radio.touch(now)
        let link = bottlenecks[slot].timeline.phase(at: now).link
        if let flow = packet.flow, bindings[flow]?.reset == true {
            drop(packet, direction, .reset)
        } else if let flow = packet.flow, isForgotten(flow, direction) {
            drop(packet, direction, bindings[flow]?.reset == true ? .reset : .natExpired)
        } else if isLost(direction, link.loss) {
            drop(packet, direction, .loss)
        } else {
            var lane = lanes[slot]
            let delay = max(0, link.delay.nanosecondsClamped + lane.jitter.sample(link.jitter, using: &lane.generator))
            if let arrival = outages.clear(from: max(now + delay, lane.lastArrival, forcedUntil)) {
                lane.lastArrival = arrival
                timers.schedule(.arrival(direction, packet), at: arrival)
            } else {
                drop(packet, direction, .linkDown)
            }
            lanes[slot] = lane
            if let flow = packet.flow { countBytes(packet.bytes, of: flow) }
        }
        startNext(direction)
    }

    private mutating func drop(_ packet: QueuedPacket, _ direction: Direction, _ cause: PacketDrop) {
        pending.append(.drop(packet.id, direction, cause))
        record(.drop, direction, bytes: packet.bytes, queued: bottlenecks[direction.index].occupancy, detail: "\(packet.name): \(cause)")
    }

    private mutating func bind(_ flow: PacketFlow) {
        if bindings.count >= Self.maximumFlows, let oldest = bindingOrder.popFirst() {
            bindings[oldest] = nil
        }
        flowsBound += 1
        var binding = Binding(lastCrossed: now, firstSeen: now, number: flowsBound)
        // The profile's resets, drawn per flow from its own stream (the byte model's come from
        // each connection's: `root.derived(1, label, 2)`; a flow's are `derived(5, number)`).
        if flow.transport == 6, let resets = profile.resets {
            var control = SeededGenerator(seed: seed).derived(5, UInt64(flowsBound))
            if control.chance(resets.probability) {
                if let lifetime = resets.afterTime {
                    timers.schedule(.resetDue(flow, flowsBound), at: now + control.uniform(in: lifetime))
                }
                if let bytes = resets.afterBytes {
                    binding.resetAfterBytes = Int(control.uniform(in: Int64(bytes.lowerBound) ... Int64(bytes.upperBound)))
                }
            }
        }
        bindings[flow] = binding
        bindingOrder.append(flow)
    }

    /// Counts a packet of `flow` that crossed; past its `after-bytes` the flow is reset.
    private mutating func countBytes(_ bytes: Int, of flow: PacketFlow) {
        guard var binding = bindings[flow], !binding.forgotten else { return }
        binding.bytes += bytes
        bindings[flow] = binding
        if let limit = binding.resetAfterBytes, binding.bytes >= limit, !isHealed {
            reset(flow, because: "the profile's resets: \(binding.bytes) B crossed, its limit is \(limit) B")
        }
    }

    /// The network resets `flow`: traced, told to the owner, and its packets dropped from now.
    private mutating func reset(_ flow: PacketFlow, because reason: String) {
        guard var binding = bindings[flow], !binding.reset else { return }
        binding.forgotten = true
        binding.reset = true
        bindings[flow] = binding
        record(.reset, nil, detail: "\(Self.describe(flow)): \(reason)")
        pending.append(.reset(flow, reason))
    }

    /// `10.0.2.100:40312 → 10.0.2.2:8000`: a flow in the trace's words.
    public static func describe(_ flow: PacketFlow) -> String {
        func address(_ value: UInt32) -> String { (0 ..< 4).map { String(value >> (24 - 8 * $0) & 0xff) }.joined(separator: ".") }
        return "\(address(flow.deviceAddress)):\(flow.devicePort) → \(address(flow.remoteAddress)):\(flow.remotePort)"
    }

    private var isHealed: Bool {
        profile.healedFrom.map { now >= $0.nanosecondsClamped } ?? false
    }

    /// Whether the NAT has forgotten `flow` as its packet crosses now: forgotten before, made
    /// before the device's address changed, or idle past the profile's timeout (then traced as
    /// `nat-expired`); otherwise its idle clock starts again. Every packet of a forgotten flow
    /// is dropped, as a carrier NAT drops them; with `on-expiry: reset` an idle flow is also
    /// reset (the owner makes up a reset toward each end).
    private mutating func isForgotten(_ flow: PacketFlow, _ direction: Direction) -> Bool {
        guard var binding = bindings[flow] else { return false }
        if binding.forgotten { return true }
        var reason: String?
        if binding.firstSeen < addressChangedAt {
            reason = "silent: the device's address changed"
        } else if let nat = profile.nat, !isHealed, now - binding.lastCrossed >= nat.idleTimeout.nanosecondsClamped {
            reason = "silent: idle \(Units.formatDuration(now - binding.lastCrossed)), the NAT's timeout is \(Units.formatDuration(nat.idleTimeout.nanosecondsClamped))"
        }
        if let reason {
            binding.forgotten = true
            bindings[flow] = binding
            let resets = profile.nat?.onExpiry == .reset && !reason.hasPrefix("silent: the device's address")
            record(.natExpired, direction, detail: resets ? "reset" + reason.dropFirst("silent".count) : reason)
            if resets {
                binding.forgotten = false
                bindings[flow] = binding
                reset(flow, because: "the NAT forgot it (\(reason.dropFirst("silent: ".count)))")
            }
            return true
        }
        binding.lastCrossed = now
        bindings[flow] = binding
        return false
    }

    private mutating func isLost(_ direction: Direction, _ loss: LossProfile) -> Bool {
        guard loss.rate > 0 else { return false }
        guard loss.burst != nil else { return lanes[direction.index].generator.chance(loss.rate) }
        let timeline = bottlenecks[direction.index].timeline
        return fades[direction.index].isFading(at: now) { timeline.phase(at: $0).link.loss }
    }

    // MARK: Trace

    private mutating func traceBoundaries(through time: Int64) {
        let demotions = radio.demotions(through: time)
        let boundaries = outages.boundaries(through: time)
        for boundary in boundaries where boundary.start && boundary.window.newAddress != nil && !isHealed {
            addressChangedAt = max(addressChangedAt, boundary.time)
        }
        guard let trace else { return }
        if profile.radio != nil {
            for demotion in demotions {
                trace.record(ShaperEvent(time: ShaperInstant(nanoseconds: demotion.time), kind: .radio, detail: "\(demotion.from) → \(demotion.to)"))
            }
        }
        for boundary in boundaries {
            let length = boundary.window.end.map { $0 - boundary.window.start }
            trace.record(ShaperEvent(
                time: ShaperInstant(nanoseconds: boundary.time),
                kind: boundary.start ? .outageStart : .outageEnd,
                delay: length.map { .nanoseconds($0) },
                detail: boundary.window.kind.rawValue
            ))
        }
    }

    private func record(_ kind: ShaperEvent.Kind, _ direction: Direction?, bytes: Int? = nil, delay: Int64? = nil, queued: Int? = nil, detail: String? = nil) {
        guard let trace else { return }
        trace.record(ShaperEvent(
            time: ShaperInstant(nanoseconds: now), kind: kind, direction: direction,
            bytes: bytes, delay: delay.map { .nanoseconds($0) }, queued: queued, detail: detail
        ))
    }
}
