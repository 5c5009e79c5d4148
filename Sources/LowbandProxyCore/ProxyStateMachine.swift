import LowbandDeterminism
package import LowbandShaper
package import NIOCore

/// What the state machine asks the I/O side to do, in order.
///
/// One enum for every event: each event first settles everything due by its instant (connects,
/// toxic releases, the shaper's deliveries and resets), so any event can produce any action.
package enum ProxyAction {
    /// Connect this connection's upstream end now.
    case connect(Int)
    /// Write the bytes to that side.
    case write(Int, ProxySide, ByteBuffer)
    /// Forward the end of the stream: shut that side's output once its writes are flushed.
    case shutdownOutput(Int, ProxySide)
    /// Start or stop reading from that side.
    case setReading(Int, ProxySide, Bool)
    /// Close both ends: gracefully after pending writes, or with a reset (TCP RST); `reason`
    /// says why, as in the close event.
    case close(Int, reset: Bool, reason: String)
    /// Both ends were forwarded; the ends close by themselves once their writes flush.
    case forget(Int)
    case event(ProxyEvent)
}

/// One simulated device: the shaper every connection shares, the connections' bytes and
/// toxics, partitions, and the reading/back-pressure decisions. No I/O and no clock: every call
/// gets the time, and the result is the list of things to do. The socket proxy
/// (`LowbandProxy`) and the in-memory network (`LowbandSimulation`) both drive it, so every
/// toxic and fault behaves the same in both.
///
/// Bytes of a direction flow source → toxics → link (shaper) → destination, never reordered.
/// Reading a source stops while the shaper's queue is full, while the destination's socket is
/// not writable, or while the toxics or the link hold more than their limits; so the bytes held
/// per direction stay under the limits plus one read burst.
package struct ProxyStateMachine {
    /// The link model; read it for inspection only.
    package internal(set) var shaper: any TrafficShaper
    /// The proxy-timeline instant at which the current shaper's own timeline starts.
    private var shaperOrigin: ShaperInstant
    var connections: [Int: ConnectionState] = [:]
    /// Open connection numbers in ascending order, so iteration never depends on hashing.
    var order: [Int] = []
    private var numberByShaperID: [ConnectionID: Int] = [:]
    /// The paths beyond the device's link that routes gave connections; empty without routes.
    private var paths = BeyondPaths()
    /// Connections waiting for the handshake time the link gave them, ascending by number (as
    /// `order`): the wake-up and the due connects look at these, not at every open connection
    /// (scanning all of them on every step was 60 % of a 10,000-client crowd's time).
    private var waiting: [(number: Int, until: ShaperInstant)] = []
    package internal(set) var toxics: [Toxic] = []
    /// Directions whose deliveries are held until ``heal(_:reason:at:)``, in the order partitioned.
    package internal(set) var partitioned: [Direction] = []
    /// The named holds of each partitioned direction (`fault 3`, `fault 5`): a direction two
    /// faults partition stays held until both have healed it.
    var partitionHolds: [Direction: [String]] = [:]
    /// An outage forced now (``forceOutage(for:kind:reason:at:)``): until when, and its kind.
    package internal(set) var forced: (until: ShaperInstant, kind: String)?
    var random: SeededGenerator
    private var nextNumber = 1
    private let toxicBufferLimit: Int
    private let linkBufferLimit: Int
    var dirty: [Int] = []
    private var actions: [ProxyAction] = []
    package internal(set) var statistics = ProxyStatistics()

    /// A device whose connections share `shaper`; toxics draw from `seed`. Reading a direction
    /// stops while its toxics hold `toxicBufferLimit` bytes or its link `linkBufferLimit`.
    package init(shaper: any TrafficShaper, seed: UInt64, toxicBufferLimit: Int, linkBufferLimit: Int, at now: ShaperInstant) {
        self.shaper = shaper
        self.shaperOrigin = now
        self.random = SeededGenerator(seed: seed).derived(0x746F_7869_6373)  // "toxics"
        self.toxicBufferLimit = max(toxicBufferLimit, 1)
        self.linkBufferLimit = max(linkBufferLimit, 1)
    }

    /// When ``advance(to:)`` next has something to do, on the proxy's timeline; nil while idle.
    package var nextWakeup: ShaperInstant? {
        // A closure, not `.map(global)`: a method reference would copy the whole machine.
        var next = shaper.nextWakeup.map { global($0) }
        func consider(_ instant: ShaperInstant?) {
            guard let instant else { return }
            next = next.map { min($0, instant) } ?? instant
        }
        if !paths.isEmpty { consider(paths.nextWakeup) }
        consider(forced?.until)
        // A forced outage holds handshakes until it ends (its end is considered below).
        if forced == nil { for entry in waiting { consider(entry.until) } }
        if !toxics.isEmpty {
            for number in order {
                consider(connections[number]?.upstream.toxics.nextWakeup)
                consider(connections[number]?.downstream.toxics.nextWakeup)
            }
        }
        return next
    }

    package var openConnections: [Int] { order }

    /// What the device's radio did from the link's start until `now` (on the proxy's
    /// timeline); nil when the link has no radio model.
    package func radioStatistics(at now: ShaperInstant) -> RadioStatistics? {
        shaper.radioStatistics(at: local(now))
    }

    /// Whether a new client's handshake would cross the link at `now` (on the proxy's
    /// timeline), and until when: the socket proxy completes no handshake while it is down.
    package mutating func reachability(at now: ShaperInstant) -> ShaperReachability {
        if let forced, forced.until > now { return .down(until: forced.until) }
        return switch shaper.reachability(at: local(now)) {
        case .up(let until): .up(until: until.map { global($0) })
        case .down(let until): .down(until: global(until))
        }
    }

    /// Whether `number` is an open connection a `direct` route took off the link.
    package func isDirect(_ number: Int) -> Bool {
        connections[number].map { $0.shaperID == nil } ?? false
    }

    /// Whether `number` is a connection not yet closed.
    package func hasConnection(_ number: Int) -> Bool {
        connections[number] != nil
    }

    /// Where a shaper started at `now` to replace the current one (``replaceShaper(_:description:at:)``)
    /// sits on the proxy's timeline and numbering: it opens the open connections again, in
    /// order, then numbers new ones on from the next number.
    package func traceFrame(startingAt now: ShaperInstant) -> ShaperTraceFrame {
        ShaperTraceFrame(origin: now, carried: order, firstNew: nextNumber)
    }

    // MARK: Connection events

    /// A client connected: registers it with the shaper, which decides when to connect upstream.
    /// `route` is where its bytes travel: the device's link (the default), no link, or the
    /// device's link and a path beyond it, whose handshake time adds to the link's.
    package mutating func accept(description: String, route: LinkRoute = .device, at now: ShaperInstant) -> (number: Int, actions: [ProxyAction]) {
        let number = nextNumber
        nextNumber += 1
        var id: ConnectionID?
        var connectTime = now
        if case .direct = route {} else {
            let opened = shaper.open(at: local(now))
            id = opened.id
            connectTime = global(opened.connectAt)
        }
        var connection = ConnectionState(number: number, shaperID: id, phase: .connecting, openedAt: now)
        if case .beyond(let key, let makeShaper) = route {
            let (hop, pathConnect) = paths.open(key, number: number, makeShaper: makeShaper, at: now)
            connection.beyond = hop
            if connectTime != .never { connectTime = connectTime + (pathConnect - now) }
        }
        for toxic in toxics {
            connection[toxic.stream].toxics.append(makeStage(toxic, at: now))
        }
        if connectTime > now || forced != nil {
            connection.phase = .waiting(until: connectTime)
            waiting.append((number, connectTime))
        }
        connections[number] = connection
        order.append(number)
        if let id { numberByShaperID[id] = number }
        statistics.acceptedConnections += 1
        statistics.openConnections += 1
        emit(.open, now, connection: number, detail: description)
        if connectTime <= now && forced == nil {
            actions.append(.connect(number))
        }
        step(now)
        return (number, takeActions())
    }

    package mutating func upstreamConnected(_ number: Int, at now: ShaperInstant) -> [ProxyAction] {
        guard let index = connections.index(forKey: number), connections.values[index].phase == .connecting else {
            return takeActions()
        }
        connections.values[index].phase = .open
        emit(.connect, now, connection: number)
        // What the client sent (and whether it ended) while the connect was under way goes
        // out now, in order.
        for direction in Direction.allCases { submit(number, direction, at: now) }
        dirty.append(number)
        step(now)
        return takeActions()
    }

    package mutating func upstreamFailed(_ number: Int, reason: String, at now: ShaperInstant) -> [ProxyAction] {
        guard connections[number] != nil else { return takeActions() }
        statistics.refusedConnections += 1
        emit(.refused, now, connection: number, detail: reason)
        remove(number, at: now, reset: false, reason: "upstream unreachable")
        step(now)
        return takeActions()
    }

    /// Bytes read from a side's socket. Before the upstream connection is up (a socket's end
    /// is read to its EOF even while reading is paused) they are kept and go out once it is.
    package mutating func received(_ buffer: ByteBuffer, on number: Int, from side: ProxySide, at now: ShaperInstant) -> [ProxyAction] {
        guard let index = connections.index(forKey: number) else {
            return takeActions()
        }
        let direction = side.outgoing
        let count = buffer.readableBytes
        guard count > 0 else { return takeActions() }
        statistics.bufferedBytes += count
        switch direction {
        case .upstream: statistics.receivedUpstreamBytes += count
        case .downstream: statistics.receivedDownstreamBytes += count
        }
        connections.values[index][direction].bytesRead += count
        if connections.values[index][direction].toxics.isEmpty {
            connections.values[index][direction].link.append(buffer)
            connections.values[index][direction].unsubmitted += count
            submit(number, direction, at: now)
        } else {
            connections.values[index][direction].held.append(buffer)
            connections.values[index][direction].toxics.ingest(.pass(count), at: now, random: &random)
        }
        dirty.append(number)
        step(now)
        return takeActions()
    }

    /// The side's peer ended its stream (TCP FIN). Before the upstream connection is up the
    /// end waits, behind the bytes before it, and is forwarded once it is.
    package mutating func inputClosed(_ number: Int, side: ProxySide, at now: ShaperInstant) -> [ProxyAction] {
        guard let index = connections.index(forKey: number) else { return takeActions() }
        let direction = side.outgoing
        guard !connections.values[index][direction].sourceEnded else { return takeActions() }
        connections.values[index][direction].sourceEnded = true
        if connections.values[index][direction].toxics.isEmpty {
            connections.values[index][direction].endReleased = true
        } else {
            connections.values[index][direction].toxics.ingest(.end, at: now, random: &random)
        }
        dirty.append(number)
        step(now)
        return takeActions()
    }

    /// The side's socket crossed a write-buffer watermark.
    package mutating func writabilityChanged(_ number: Int, side: ProxySide, writable: Bool, at now: ShaperInstant) -> [ProxyAction] {
        guard let index = connections.index(forKey: number) else { return takeActions() }
        let direction: Direction = side == .upstream ? .upstream : .downstream
        connections.values[index][direction].destinationBlocked = !writable
        dirty.append(number)
        step(now)
        return takeActions()
    }

    /// A socket closed. After an error (a reset, a failed write), or before the upstream
    /// connection is up, the connection ends at once. A clean close (the peer's FIN after we
    /// had shut that socket's output) only ends what flows toward it: bytes it sent before are
    /// still delivered, then its end is forwarded.
    package mutating func socketClosed(_ number: Int, side: ProxySide, error: String?, at now: ShaperInstant) -> [ProxyAction] {
        guard let index = connections.index(forKey: number) else { return takeActions() }
        let who = side == .client ? "client" : "upstream"
        if let error {
            remove(number, at: now, reset: false, reason: "\(who): \(error)")
            step(now)
            return takeActions()
        }
        if inPlace(index, { $0.phase != .open }) {
            // Gone before its upstream was: nothing can flow any more, as after a lost SYN.
            remove(number, at: now, reset: false, reason: "\(who) closed before the upstream connected")
            step(now)
            return takeActions()
        }
        let toward: Direction = side == .upstream ? .upstream : .downstream
        let discarded = connections.values[index][toward].bufferedBytes
        connections.values[index][toward].held.removeAll()
        connections.values[index][toward].link.removeAll()
        connections.values[index][toward].unsubmitted = 0
        connections.values[index][toward].outputShut = true
        statistics.bufferedBytes -= discarded
        let from = side.outgoing
        if !connections.values[index][from].sourceEnded {
            connections.values[index][from].sourceEnded = true
            if connections.values[index][from].toxics.isEmpty {
                connections.values[index][from].endReleased = true
            } else {
                connections.values[index][from].toxics.ingest(.end, at: now, random: &random)
            }
        }
        dirty.append(number)
        step(now)
        return takeActions()
    }

    /// Everything due by `now`: connects, toxic releases, link deliveries, resets.
    package mutating func advance(to now: ShaperInstant) -> [ProxyAction] {
        step(now)
        return takeActions()
    }

    /// Closes every connection (proxy stopping or disabled).
    package mutating func closeAll(reason: String, at now: ShaperInstant) -> [ProxyAction] {
        for number in order {
            remove(number, at: now, reset: false, reason: reason)
        }
        return takeActions()
    }

    /// Switches the device to a new link, like a handover: open connections continue on it,
    /// and bytes queued in the old link are queued again in the new one (none are lost).
    package mutating func replaceShaper(_ newShaper: any TrafficShaper, description: String, at now: ShaperInstant) -> [ProxyAction] {
        shaper = newShaper
        shaperOrigin = now
        numberByShaperID.removeAll()
        for number in order {
            guard let index = connections.index(forKey: number), inPlace(index, { $0.shaperID != nil }) else { continue }
            let (id, _) = shaper.open(at: .zero)
            connections.values[index].shaperID = id
            numberByShaperID[id] = number
            // A path beyond carries its connection again from the start too, so every byte not
            // yet delivered crosses both once more, in order.
            if let hop = inPlace(index, { $0.beyond }) {
                connections.values[index].beyond = paths.reopen(hop, number: number, at: now)
            }
            for direction in Direction.allCases {
                // Parked bytes left the old link already; the rest is submitted again.
                connections.values[index][direction].unsubmitted = inPlace(index) { $0[direction].link.count - $0[direction].parked }
                connections.values[index][direction].shaperFull = false
                connections.values[index][direction].pathFull = false
            }
            for direction in Direction.allCases { submit(number, direction, at: now) }
            dirty.append(number)
        }
        emit(.link, now, detail: description)
        step(now)
        return takeActions()
    }

    // MARK: The step

    mutating func step(_ now: ShaperInstant) {
        if let forced, forced.until <= now { endForcedOutage(at: forced.until) }
        // Every connection carries every toxic, so chains are empty exactly when `toxics` is.
        if !toxics.isEmpty {
            for number in order {
                for direction in Direction.allCases { drainToxics(number, direction, at: now) }
            }
        }
        // Only when something is due: the shaper is not asked between its own wake-ups. A
        // delivery or a resume can make more due at the same instant; a few rounds settle it.
        var rounds = 0
        while rounds < 8, let next = shaper.nextWakeup, global(next) <= now {
            rounds += 1
            for action in shaper.advance(to: local(now)) {
                perform(action, at: now)
            }
        }
        if !paths.isEmpty { stepPaths(now) }
        // Connects due now come after the link's deliveries at the same instant: the order the
        // in-memory network has always had, which its virtual-time runs replay.
        // A forced outage holds handshakes too: they complete once it is over.
        if forced == nil, waiting.contains(where: { $0.until <= now }) {
            var still: [(number: Int, until: ShaperInstant)] = []
            for entry in waiting {
                guard entry.until <= now else {
                    still.append(entry)
                    continue
                }
                guard let index = connections.index(forKey: entry.number) else { continue }
                connections.values[index].phase = .connecting
                actions.append(.connect(entry.number))
            }
            waiting = still
        }
        finishDirty(at: now)
    }

    /// Everything due on the paths beyond the device's link, and what the device's link then
    /// has due at the same instant (a path's downlink delivery goes on into it).
    private mutating func stepPaths(_ now: ShaperInstant) {
        var rounds = 0
        while rounds < 8 {
            rounds += 1
            var moved = false
            if let next = paths.nextWakeup, next <= now {
                moved = true
                for (number, action) in paths.advance(to: now) { performOnPath(action, of: number, at: now) }
            }
            if let next = shaper.nextWakeup, global(next) <= now {
                moved = true
                for action in shaper.advance(to: local(now)) { perform(action, at: now) }
            }
            if !moved { break }
        }
    }

    private mutating func performOnPath(_ action: ShaperAction, of number: Int, at now: ShaperInstant) {
        guard let index = connections.index(forKey: number) else { return }
        switch action {
        case .deliver(_, let direction, let bytes):
            let count = min(bytes, inPlace(index) { $0[direction].inShaper })
            guard count > 0 else { return }
            if direction == .downstream, let id = inPlace(index, { $0.shaperID }) {
                // Across the path: on to the device's link.
                if !shaper.submit(count, on: id, direction, at: local(now)) { connections.values[index][direction].shaperFull = true }
                return
            }
            if isPartitioned(direction) {
                connections.values[index][direction].parked += count
                return
            }
            write(count, of: number, direction, at: now)
        case .resumeReading(_, let direction):
            connections.values[index][direction].pathFull = false
            if !inPlace(index, { $0.deviceFirst(direction) }) { submit(number, direction, at: now) }
            dirty.append(number)
        case .reset:
            let key = inPlace(index) { $0.beyond?.key } ?? "?"
            statistics.resetConnections += 1
            emit(.reset, now, connection: number, detail: "the path to \(key) dropped")
            remove(number, at: now, reset: true, reason: "reset by the path to \(key)")
        }
    }

    private mutating func perform(_ action: ShaperAction, at now: ShaperInstant) {
        switch action {
        case .deliver(let id, let direction, let bytes):
            guard let number = numberByShaperID[id], let index = connections.index(forKey: number) else { return }
            let count = min(bytes, inPlace(index) { $0[direction].inShaper })
            guard count > 0 else { return }
            if direction == .upstream, inPlace(index, { $0.beyond != nil }), let hop = inPlace(index, { $0.beyond }) {
                // Across the device's link: on to the path beyond it.
                if !paths.submit(count, on: hop, direction, at: now) { connections.values[index][direction].pathFull = true }
                return
            }
            if isPartitioned(direction) {
                connections.values[index][direction].parked += count
                return
            }
            write(count, of: number, direction, at: now)

        case .resumeReading(let id, let direction):
            guard let number = numberByShaperID[id], let index = connections.index(forKey: number) else { return }
            connections.values[index][direction].shaperFull = false
            if inPlace(index, { $0.deviceFirst(direction) }) { submit(number, direction, at: now) }
            dirty.append(number)

        case .reset(let id):
            guard let number = numberByShaperID[id] else { return }
            statistics.resetConnections += 1
            emit(.reset, now, connection: number, detail: "the link dropped")
            remove(number, at: now, reset: true, reason: "reset by the link")
        }
    }

    /// Writes the first `count` bytes of the direction's link to its destination.
    mutating func write(_ count: Int, of number: Int, _ direction: Direction, at now: ShaperInstant) {
        guard let index = connections.index(forKey: number) else { return }
        // The pieces go straight into the actions, moved out of `self` meanwhile (no copy).
        var written = actions
        actions = []
        let destination = direction.destination
        connections.values[index][direction].link.take(count) { written.append(.write(number, destination, $0)) }
        actions = written
        connections.values[index][direction].bytesDelivered += count
        statistics.bufferedBytes -= count
        if direction == .upstream { statistics.upstreamBytes += count } else { statistics.downstreamBytes += count }
        emit(.deliver, now, connection: number, direction: direction, bytes: count)
        dirty.append(number)
    }

    /// Hands the direction's released, unsubmitted bytes to the shaper unless its queue is full,
    /// the direction is partitioned or the upstream connection is not up yet.
    mutating func submit(_ number: Int, _ direction: Direction, at now: ShaperInstant) {
        guard !isPartitioned(direction), let index = connections.index(forKey: number), inPlace(index, { $0.phase == .open }) else { return }
        // The hop (and its key) is read only for a routed connection: this runs per read burst.
        let (unsubmitted, deviceFirst, id) = inPlace(index) { ($0[direction].unsubmitted, $0.deviceFirst(direction), $0.shaperID) }
        guard unsubmitted > 0 else { return }
        if deviceFirst, let id {
            guard !inPlace(index, { $0[direction].shaperFull }) else { return }
            // Only what the queue has room for: the rest stays here (a read burst is up to
            // `readsPerWakeup` × `readSize`, far more than a 2G queue), so the link's queue
            // never holds more than its profile's limit and a piece.
            var left = unsubmitted
            var accepted = true
            while left > 0, accepted {
                let count = shaper.admissible(left, direction)
                accepted = shaper.submit(count, on: id, direction, at: local(now))
                left -= count
            }
            connections.values[index][direction].unsubmitted = left
            if !accepted { connections.values[index][direction].shaperFull = true }
        } else if let hop = inPlace(index, { $0.beyond }) {
            // Downlink bytes cross the path beyond the device's link first.
            guard !inPlace(index, { $0[direction].pathFull }) else { return }
            let accepted = paths.submit(unsubmitted, on: hop, direction, at: now)
            connections.values[index][direction].unsubmitted = 0
            if !accepted { connections.values[index][direction].pathFull = true }
        } else {
            // A direct route: no link to cross.
            connections.values[index][direction].unsubmitted = 0
            write(unsubmitted, of: number, direction, at: now)
        }
    }

    /// Moves what the direction's toxics release by `now` into the link.
    mutating func drainToxics(_ number: Int, _ direction: Direction, at now: ShaperInstant) {
        guard let index = connections.index(forKey: number) else { return }
        let outputs = connections.values[index][direction].toxics.advance(to: now, random: &random)
        guard !outputs.isEmpty else { return }
        var released = 0
        for output in outputs {
            guard let index = connections.index(forKey: number) else { return }
            switch output {
            case .item(.pass(let count)):
                var pieces: [ByteBuffer] = []
                connections.values[index][direction].held.take(count) { pieces.append($0) }
                for piece in pieces { connections.values[index][direction].link.append(piece) }
                connections.values[index][direction].unsubmitted += count
                released += count
            case .item(.drop(let count)):
                let before = connections.values[index][direction].held.count
                connections.values[index][direction].held.discard(count)
                let discarded = before - connections.values[index][direction].held.count
                statistics.bufferedBytes -= discarded
                if discarded > 0 {
                    countDropped(discarded, direction)
                    emit(.drop, now, connection: number, direction: direction, bytes: discarded, detail: "a toxic")
                }
            case .item(.end):
                connections.values[index][direction].endReleased = true
            case .item(.close):
                connections.values[index][direction].closeReleased = true
            case .reset:
                statistics.resetConnections += 1
                emit(.reset, now, connection: number, direction: direction, detail: "reset_peer toxic")
                remove(number, at: now, reset: true, reason: "reset by a toxic")
                return
            }
        }
        if released > 0 { submit(number, direction, at: now) }
        dirty.append(number)
    }

    /// Forwards ends and closes whose bytes are all delivered, and updates reading.
    private mutating func finishDirty(at now: ShaperInstant) {
        guard !dirty.isEmpty else { return }
        // Moved out, not copied: `dirty` gets its buffer back at the end, so no call allocates.
        var touched: [Int] = []
        swap(&touched, &dirty)
        defer {
            if dirty.isEmpty {
                touched.removeAll(keepingCapacity: true)
                swap(&touched, &dirty)
            }
        }
        // Each number once, in the order first touched; a set only when many were touched.
        if touched.count > 16 {
            var seen = Set<Int>()
            touched.removeAll { !seen.insert($0).inserted }
        } else if touched.count > 1 {
            var kept = 0
            for position in touched.indices where !touched[..<kept].contains(touched[position]) {
                touched[kept] = touched[position]
                kept += 1
            }
            touched.removeLast(touched.count - kept)
        }
        for number in touched {
            guard let index = connections.index(forKey: number) else { continue }
            var closeNow = false
            // Ends wait for the upstream socket: forwarded before it exists, they would be lost.
            let isOpen = inPlace(index) { $0.phase == .open }
            // A partition holds ends and closes too: they travel behind the held bytes.
            for direction in Direction.allCases where !isPartitioned(direction) {
                let (empty, closeReleased, endReleased, outputShut) = inPlace(index) {
                    ($0[direction].link.isEmpty, $0[direction].closeReleased, $0[direction].endReleased, $0[direction].outputShut)
                }
                guard empty else { continue }
                if closeReleased {
                    closeNow = true
                } else if endReleased && !outputShut && isOpen {
                    connections.values[index][direction].outputShut = true
                    actions.append(.shutdownOutput(number, direction.destination))
                    emit(.end, now, connection: number, direction: direction)
                }
            }
            if closeNow {
                remove(number, at: now, reset: false, reason: "closed by a toxic")
                continue
            }
            if inPlace(index, { $0.upstream.outputShut && $0.downstream.outputShut }) {
                remove(number, at: now, reset: nil, reason: nil)
                continue
            }
            reconcileReading(number, at: now)
        }
    }

    private mutating func reconcileReading(_ number: Int, at now: ShaperInstant) {
        guard let index = connections.index(forKey: number) else { return }
        let isOpen = inPlace(index) { $0.phase == .open }
        for direction in Direction.allCases {
            let flow = inPlace(index) { ReadingInputs($0[direction]) }
            var reason: String?
            if flow.destinationBlocked {
                reason = "\(direction.destination == .client ? "client" : "upstream") not reading"
            } else if flow.shaperFull {
                reason = "link queue full"
            } else if flow.pathFull {
                reason = "path queue full"
            } else if flow.toxicHeld >= toxicBufferLimit {
                reason = "toxic buffer full"
            } else if flow.linkHeld >= linkBufferLimit {
                reason = "link buffer full"
            }
            let wanted = isOpen && !flow.sourceEnded && !flow.outputShut && !flow.closeReleased && reason == nil
            if wanted != flow.reading {
                connections.values[index][direction].reading = wanted
                actions.append(.setReading(number, direction.source, wanted))
                if wanted {
                    connections.values[index][direction].pauseReason = nil
                    emit(.resume, now, connection: number, direction: direction)
                }
            }
            // A pause is reported when it starts and whenever its reason changes.
            if !wanted, isOpen, let reason, reason != flow.pauseReason, !flow.sourceEnded {
                connections.values[index][direction].pauseReason = reason
                emit(.pause, now, connection: number, direction: direction, detail: reason)
            }
        }
    }

    /// Ends a connection. `reset` nil means it finished on its own (both ends forwarded).
    mutating func remove(_ number: Int, at now: ShaperInstant, reset: Bool?, reason: String?) {
        guard let connection = connections.removeValue(forKey: number) else { return }
        if let position = order.firstIndex(of: number) { order.remove(at: position) }
        if case .waiting = connection.phase { waiting.removeAll { $0.number == number } }
        if let id = connection.shaperID {
            numberByShaperID[id] = nil
            shaper.close(id, at: local(now), reason: reason)
        }
        if let hop = connection.beyond { paths.close(hop, at: now, reason: reason) }
        statistics.bufferedBytes -= connection.bufferedBytes
        // What the connection still held is lost with it.
        for direction in Direction.allCases where connection[direction].bufferedBytes > 0 {
            countDropped(connection[direction].bufferedBytes, direction)
            emit(.drop, now, connection: number, direction: direction, bytes: connection[direction].bufferedBytes, detail: reason ?? "closed")
        }
        statistics.openConnections -= 1
        if let reset {
            actions.append(.close(number, reset: reset, reason: reason ?? (reset ? "reset" : "closed")))
        } else {
            actions.append(.forget(number))
        }
        actions.append(
            .event(
                ProxyEvent(
                    time: now - .zero,
                    kind: .close,
                    connection: number,
                    upstreamBytes: connection.upstream.bytesDelivered,
                    downstreamBytes: connection.downstream.bytesDelivered,
                    duration: now - connection.openedAt,
                    detail: reason
                )
            )
        )
    }

    // MARK: Helpers

    private mutating func countDropped(_ bytes: Int, _ direction: Direction) {
        if direction == .upstream {
            statistics.droppedUpstreamBytes += bytes
        } else {
            statistics.droppedDownstreamBytes += bytes
        }
    }

    /// Reads a connection where it is stored. The dictionary's getter would copy the whole
    /// `ConnectionState` (retaining every queue it holds) just to read a field; the hot paths
    /// read through here instead.
    private mutating func inPlace<Result>(_ index: [Int: ConnectionState].Index, _ body: (inout ConnectionState) -> Result) -> Result {
        body(&connections.values[index])
    }

    mutating func makeStage(_ toxic: Toxic, at now: ShaperInstant) -> ToxicStage {
        // Validated when added, so the effect always parses.
        let effect = (try? ToxicEffect(toxic)) ?? .latency(latency: .zero, jitter: .zero)
        return ToxicStage(name: toxic.name, effect: effect, active: roll(toxic.toxicity), at: now)
    }

    mutating func roll(_ toxicity: Double) -> Bool {
        if toxicity >= 1 { return true }
        if toxicity <= 0 { return false }
        return Double(random.next() >> 11) * 0x1p-53 < toxicity
    }

    mutating func emit(
        _ kind: ProxyEvent.Kind, _ now: ShaperInstant, connection: Int? = nil, direction: Direction? = nil,
        bytes: Int? = nil, detail: String? = nil
    ) {
        actions.append(
            .event(ProxyEvent(time: now - .zero, kind: kind, connection: connection, direction: direction, bytes: bytes, detail: detail))
        )
    }

    func local(_ instant: ShaperInstant) -> ShaperInstant {
        ShaperInstant(nanoseconds: instant.nanoseconds - shaperOrigin.nanoseconds)
    }

    /// Saturates: a shaper says "never" with the largest instant (an outage without end).
    private func global(_ instant: ShaperInstant) -> ShaperInstant {
        let (sum, overflow) = instant.nanoseconds.addingReportingOverflow(shaperOrigin.nanoseconds)
        return ShaperInstant(nanoseconds: overflow ? .max : sum)
    }

    func isPartitioned(_ direction: Direction) -> Bool {
        forced != nil || (!partitioned.isEmpty && partitioned.contains(direction))
    }

    mutating func takeActions() -> [ProxyAction] {
        // Most events settle with nothing to do: hand back the shared empty array then, instead
        // of copying the buffer out and allocating a new one behind it.
        guard !actions.isEmpty else { return [] }
        defer { actions.removeAll(keepingCapacity: true) }
        return actions
    }
}

/// What ``ProxyStateMachine`` looks at to decide whether a direction's source is read.
private struct ReadingInputs {
    var destinationBlocked: Bool
    var shaperFull: Bool
    var pathFull: Bool
    var toxicHeld: Int
    var linkHeld: Int
    var sourceEnded: Bool
    var outputShut: Bool
    var closeReleased: Bool
    var reading: Bool
    var pauseReason: String?

    init(_ flow: FlowState) {
        destinationBlocked = flow.destinationBlocked
        shaperFull = flow.shaperFull
        pathFull = flow.pathFull
        toxicHeld = flow.held.count + flow.unsubmitted
        linkHeld = flow.link.count
        sourceEnded = flow.sourceEnded
        outputShut = flow.outputShut
        closeReleased = flow.closeReleased
        reading = flow.reading
        pauseReason = flow.pauseReason
    }
}
