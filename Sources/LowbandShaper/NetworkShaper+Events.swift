/// The event loop inside ``NetworkShaper``: timers processed in time order, one piece at a time.
extension NetworkShaper {
    /// Processes every timer due by `time`, reporting outage boundaries on the way.
    mutating func run(until time: Int64) {
        let target = max(time, now)
        while let (at, timer) = timers.popFirst(dueBy: target) {
            traceRadio(through: at)
            traceOutages(through: at)
            now = at
            handle(timer)
        }
        traceRadio(through: target)
        traceOutages(through: target)
        now = target
    }

    private mutating func handle(_ timer: ShaperTimer) {
        switch timer {
        case let .transmitted(direction, id, bytes, started):
            transmitted(direction, id, bytes: bytes, started: started)
        case let .arrival(id, direction, bytes, started):
            arrived(id, direction, bytes: bytes, started: started)
        case let .stallEnded(id, direction):
            guard connections[id]?[direction].state == .stalled else { return }
            queueForTurn(id, direction)
            startNext(direction)
        case let .ready(direction):
            bottlenecks[direction.index].waitingUntil = nil
            startNext(direction)
        case let .acknowledgementsSent(direction):
            bottlenecks[direction.index].busy = false
            startNext(direction)
        case let .delayedAck(id, direction, arrivedAt):
            guard let flow = connections[id]?[direction], flow.unacknowledged > 0, flow.unacknowledgedSince == arrivedAt else { return }
            acknowledge(id, direction)
        case let .resetDue(id):
            if connections[id] != nil, !isHealed { reset(id) }
        }
    }

    /// Whether the profile's faults are over (``NetworkProfile/healedFrom``): no more resets.
    var isHealed: Bool {
        profile.healedFrom.map { now >= $0.nanosecondsClamped } ?? false
    }

    /// Starts sending the next piece in `direction` if the bottleneck is free, the link is up
    /// and the radio awake; otherwise arranges to try again when it can.
    mutating func startNext(_ direction: Direction) {
        let slot = direction.index
        guard !bottlenecks[slot].busy, bottlenecks[slot].waitingUntil == nil else { return }
        while let head = bottlenecks[slot].turns.first, connections[head]?[direction].state != .waiting {
            _ = bottlenecks[slot].turns.popFirst()
        }
        let head = bottlenecks[slot].turns.first
        guard head != nil || bottlenecks[slot].acknowledgementBytes > 0 else { return }
        guard let clear = outages.clear(from: max(now, radio.awakeFrom)) else { return }
        if clear > now {
            wait(direction, until: clear)
            return
        }
        // What waits on the direction (and one piece's headers) is what a state that carries
        // small transfers compares with its threshold.
        let waiting = bottlenecks[slot].occupancy + bottlenecks[slot].acknowledgementBytes + profile.overhead.headerBytes
        if let wake = radio.wakeIfIdle(at: now, bytes: waiting, direction: direction) {
            record(.wakeup, head, direction, delay: wake.delay, detail: profile.radio.map { "from \(wake.from) to \($0.states[0].name)" })
            wait(direction, until: now + wake.delay)
            return
        }
        radio.touch(now)
        bottlenecks[slot].busy = true
        // Acknowledgements owed go first: they are small and the sender waits on them.
        if bottlenecks[slot].acknowledgementBytes > 0 {
            let bytes = bottlenecks[slot].acknowledgementBytes
            bottlenecks[slot].acknowledgementBytes = 0
            acknowledgementsSent[slot] += bytes
            if let end = bottlenecks[slot].transmissionEnd(startingAt: now, bytes: bytes, outages: &outages) {
                timers.schedule(.acknowledgementsSent(direction), at: end)
            }
            return
        }
        guard let id = head else { return }
        _ = bottlenecks[slot].turns.popFirst()
        var flow = connections[id]![direction]
        let piece = min(bottlenecks[slot].pieceLimit, flow.queued)
        let onAir = piece + (bottlenecks[slot].pieceLimit == .max ? 0 : profile.overhead.headerBytes) + flow.tlsBytes
        flow.tlsBytes = 0
        flow.queued -= piece
        flow.inFlight = piece
        flow.state = .transmitting
        flow.lastPieceStart = now
        connections[id]![direction] = flow
        if let end = bottlenecks[slot].transmissionEnd(startingAt: now, bytes: onAir, outages: &outages) {
            timers.schedule(.transmitted(direction, id, bytes: piece, started: now), at: end)
        }
    }

    private mutating func wait(_ direction: Direction, until time: Int64) {
        bottlenecks[direction.index].waitingUntil = time
        timers.schedule(.ready(direction), at: time)
    }

    /// A piece has left the bottleneck: it is lost (stall, then again) or sent on its way.
    private mutating func transmitted(_ direction: Direction, _ id: ConnectionID, bytes: Int, started: Int64) {
        let slot = direction.index
        bottlenecks[slot].busy = false
        radio.touch(now)
        // A flow the NAT forgot (before, or just now) loses the piece: it leaves the queue and
        // goes nowhere. One reset just now is gone already.
        if expireIfIdle(id, direction) || connections[id]?.forgotten == true {
            if connections[id] != nil {
                bottlenecks[slot].occupancy -= bytes
                connections[id]![direction].inFlight = 0
                connections[id]![direction].state = .idle
                resumeIfRoom(direction)
            }
            startNext(direction)
            return
        }
        if var flow = connections[id]?[direction] {
            let link = bottlenecks[slot].timeline.phase(at: now).link
            flow.inFlight = 0
            if isLost(direction, link.loss, &flow) {
                let stall = flow.loss.stallForLoss(link.loss)
                flow.queued += bytes
                flow.state = .stalled
                connections[id]![direction] = flow
                timers.schedule(.stallEnded(id, direction), at: now + stall)
                record(.lossStall, id, direction, bytes: bytes, delay: stall)
            } else {
                connections[id]!.lastCrossed = now
                let delay = max(0, link.delay.nanosecondsClamped + flow.jitter.sample(link.jitter, using: &flow.generator))
                if link.loss.rate > 0 {
                    let back = bottlenecks[1 - slot].timeline.phase(at: now).link.delay.nanosecondsClamped
                    flow.loss.delivered(roundTrip: now - started + delay + back)
                }
                let arrival = outages.clear(from: max(now + delay, flow.lastArrival))
                flow.lastArrival = arrival ?? .max
                flow.state = .idle
                connections[id]![direction] = flow
                if let arrival {
                    timers.schedule(.arrival(id, direction, bytes: bytes, started: started), at: arrival)
                }
                bottlenecks[slot].occupancy -= bytes
                if flow.queued > 0 { queueForTurn(id, direction) } else { resumeIfStarved(id, direction) }
                resumeIfRoom(direction)
            }
        }
        startNext(direction)
    }

    /// Whether the NAT forgot `id`'s flow, idle since it last carried a piece, as this piece
    /// tries to cross: a silent expiry forgets it (this piece and all after it vanish); a reset
    /// one resets it now. Either way the piece is gone and true is returned. Not after the
    /// network healed.
    private mutating func expireIfIdle(_ id: ConnectionID, _ direction: Direction) -> Bool {
        guard let nat = profile.nat, let connection = connections[id], !connection.forgotten, !isHealed,
              now - connection.lastCrossed >= nat.idleTimeout.nanosecondsClamped else { return false }
        let idle = Units.formatDuration(now - connection.lastCrossed)
        record(.natExpired, id, direction, detail: "\(nat.onExpiry.rawValue): idle \(idle), the NAT's timeout is \(Units.formatDuration(nat.idleTimeout.nanosecondsClamped))")
        if nat.onExpiry == .reset {
            reset(id)
            return true
        }
        forget(id)
        return true
    }

    /// The network forgets `id`'s flow: what it has queued leaves the shared queue (the NAT
    /// drops it, as it will drop everything after), a piece on its way vanishes when it is
    /// through, and no more is taken (``submit(_:on:_:at:)`` refuses, so its source stops being
    /// read, as a TCP sender's window closes). The connection stays open until an end closes it.
    mutating func forget(_ id: ConnectionID) {
        guard var connection = connections[id], !connection.forgotten else { return }
        connection.forgotten = true
        for direction in Direction.allCases {
            let slot = direction.index
            bottlenecks[slot].occupancy -= connection[direction].queued
            connection[direction].queued = 0
            connection[direction].tlsBytes = 0
            connection[direction].unacknowledged = 0
            if connection[direction].state != .transmitting { connection[direction].state = .idle }
        }
        connections[id] = connection
        for direction in Direction.allCases {
            bottlenecks[direction.index].paused.removeAll { $0 == id }
            resumeIfRoom(direction)
        }
    }

    /// The device comes back from an outage with another address: every connection open now
    /// dies as `death` says.
    mutating func changeAddress(_ death: FlowDeath) {
        for id in connections.keys.sorted() {
            guard let connection = connections[id], !connection.forgotten else { continue }
            record(.natExpired, id, detail: "\(death.rawValue): the device's address changed")
            if death == .reset { reset(id) } else { forget(id) }
        }
    }

    /// Whether the piece leaving the bottleneck in `direction` now is lost: in a fade of the
    /// radio when the loss is bursty, by the flow's own draw when it is independent.
    private mutating func isLost(_ direction: Direction, _ loss: LossProfile, _ flow: inout Flow) -> Bool {
        guard loss.rate > 0 else { return false }
        guard loss.burst != nil else { return flow.loss.isLostIndependently(loss, using: &flow.generator) }
        let timeline = bottlenecks[direction.index].timeline
        return fades[direction.index].isFading(at: now) { timeline.phase(at: $0).link.loss }
    }

    private mutating func arrived(_ id: ConnectionID, _ direction: Direction, bytes: Int, started: Int64) {
        guard connections[id] != nil else { return }
        radio.touch(now)
        pending.append(.deliver(id, direction, bytes: bytes))
        record(.deliver, id, direction, bytes: bytes, delay: now - started)
        // Acknowledgements cost nothing on a direction that never holds a piece back (an
        // unlimited, lossless link), so none are counted or timed there.
        let reverse: Direction = direction == .upstream ? .downstream : .upstream
        if profile.overhead.acknowledgements, bottlenecks[reverse.index].pieceLimit != .max {
            connections[id]![direction].unacknowledged += 1
            if connections[id]![direction].unacknowledged >= 2 {
                acknowledge(id, direction)
            } else {
                connections[id]![direction].unacknowledgedSince = now
                timers.schedule(.delayedAck(id, direction, arrivedAt: now), at: now + profile.overhead.delayedAck.nanosecondsClamped)
            }
        }
        connections[id]!.delivered += bytes
        if let limit = connections[id]!.resetAfterBytes, connections[id]!.delivered >= limit, !isHealed {
            reset(id)
        }
    }

    /// The receiver of `direction`'s segments on `id` acknowledges them: a bare segment on the
    /// reverse direction's bottleneck, unless data of the same connection going back since the
    /// first of them (or waiting to) carries it.
    private mutating func acknowledge(_ id: ConnectionID, _ direction: Direction) {
        let since = connections[id]![direction].unacknowledgedSince
        connections[id]![direction].unacknowledged = 0
        let reverse: Direction = direction == .upstream ? .downstream : .upstream
        let back = connections[id]![reverse]
        if back.queued > 0 || back.state == .transmitting || back.lastPieceStart >= since { return }
        bottlenecks[reverse.index].acknowledgementBytes += profile.overhead.headerBytes
        startNext(reverse)
    }

    private mutating func queueForTurn(_ id: ConnectionID, _ direction: Direction) {
        connections[id]![direction].state = .waiting
        bottlenecks[direction.index].turns.append(id)
    }

    /// Tells the paused readers of `direction` to resume once the queue is down to half.
    mutating func resumeIfRoom(_ direction: Direction) {
        let slot = direction.index
        guard !bottlenecks[slot].paused.isEmpty, bottlenecks[slot].occupancy <= bottlenecks[slot].resumeThreshold else { return }
        let paused = bottlenecks[slot].paused
        bottlenecks[slot].paused = []
        for id in paused where connections[id] != nil {
            pending.append(.resumeReading(id, direction))
            record(.resume, id, direction, queued: bottlenecks[slot].occupancy)
        }
    }

    /// Lets a paused connection whose bytes have all left read again as soon as the queue is
    /// not full, so a connection never starves behind another's backlog.
    mutating func resumeIfStarved(_ id: ConnectionID, _ direction: Direction) {
        let slot = direction.index
        guard bottlenecks[slot].occupancy < bottlenecks[slot].queueLimit,
              let index = bottlenecks[slot].paused.firstIndex(of: id) else { return }
        bottlenecks[slot].paused.remove(at: index)
        pending.append(.resumeReading(id, direction))
        record(.resume, id, direction, queued: bottlenecks[slot].occupancy)
    }

    mutating func reset(_ id: ConnectionID) {
        remove(id)
        pending.append(.reset(id))
        record(.reset, id)
    }

    /// Forgets a connection: its queued bytes leave the queue; its timers find it gone.
    mutating func remove(_ id: ConnectionID) {
        guard let connection = connections.removeValue(forKey: id) else { return }
        for direction in Direction.allCases {
            let flow = connection[direction]
            let slot = direction.index
            bottlenecks[slot].occupancy -= flow.queued + (flow.state == .transmitting ? flow.inFlight : 0)
            bottlenecks[slot].paused.removeAll { $0 == id }
            resumeIfRoom(direction)
        }
    }

    // MARK: Trace

    /// Reports the radio's drops to a lower state up to `time` to the trace.
    private mutating func traceRadio(through time: Int64) {
        let demotions = radio.demotions(through: time)
        guard let trace, profile.radio != nil else { return }
        for demotion in demotions {
            trace.record(ShaperEvent(time: ShaperInstant(nanoseconds: demotion.time), kind: .radio, detail: "\(demotion.from) → \(demotion.to)"))
        }
    }

    /// Reports the outage boundaries up to `time` to the trace, and lets an outage that brings
    /// a new address kill the open connections as it starts.
    private mutating func traceOutages(through time: Int64) {
        for boundary in outages.boundaries(through: time) {
            if let trace {
                let length = boundary.window.end.map { $0 - boundary.window.start }
                trace.record(ShaperEvent(
                    time: ShaperInstant(nanoseconds: boundary.time),
                    kind: boundary.start ? .outageStart : .outageEnd,
                    delay: length.map { .nanoseconds($0) },
                    detail: boundary.window.kind.rawValue
                ))
            }
            if boundary.start, let death = boundary.window.newAddress, !isHealed {
                now = max(now, boundary.time)
                changeAddress(death)
            }
        }
    }

    /// Mutating only so that callers, all mutating, lend `self` instead of copying the whole
    /// shaper for the call (a copy retains every array and string it holds).
    mutating func record(
        _ kind: ShaperEvent.Kind, _ id: ConnectionID? = nil, _ direction: Direction? = nil,
        bytes: Int? = nil, delay: Int64? = nil, queued: Int? = nil, detail: String? = nil
    ) {
        guard let trace else { return }
        trace.record(ShaperEvent(
            time: ShaperInstant(nanoseconds: now), kind: kind, connection: id, direction: direction,
            bytes: bytes, delay: delay.map { .nanoseconds($0) }, queued: queued, detail: detail
        ))
    }
}
