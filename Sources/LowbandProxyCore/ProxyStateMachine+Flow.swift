import LowbandShaper
import NIOCore

/// Bytes along a direction (toxics → link → destination), ends forwarded, reading decided,
/// connections removed.
extension ProxyStateMachine {
    /// Writes the first `count` bytes of the direction's link to its destination.
    mutating func write(_ count: Int, of number: Int, _ direction: Direction, at now: ShaperInstant) {
        guard let index = connections.index(forKey: number) else { return }
        // The pieces go straight into the connection's work, moved out of `self` meanwhile
        // (no copy).
        let slot = workSlot(index)
        var writes = output.work[slot].writes
        output.work[slot].writes = []
        let destination = direction.destination
        connections.values[index][direction].link.take(count) { writes.append((destination, $0)) }
        output.work[slot].writes = writes
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
    mutating func finishDirty(at now: ShaperInstant) {
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
            for direction in Self.directions where !isPartitioned(direction) {
                let (empty, closeReleased, endReleased, outputShut) = inPlace(index) {
                    ($0[direction].link.isEmpty, $0[direction].closeReleased, $0[direction].endReleased, $0[direction].outputShut)
                }
                guard empty else { continue }
                if closeReleased {
                    closeNow = true
                } else if endReleased && !outputShut && isOpen {
                    connections.values[index][direction].outputShut = true
                    work(index) { $0.shutdowns.append(direction.destination) }
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

    mutating func reconcileReading(_ number: Int, at now: ShaperInstant) {
        guard let index = connections.index(forKey: number) else { return }
        let isOpen = inPlace(index) { $0.phase == .open }
        for direction in Self.directions {
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
                work(index) { $0.setReading(direction.source, wanted) }
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
        let ending: SocketWork.Ending = reset.map { .close(reset: $0, reason: reason ?? ($0 ? "reset" : "closed")) } ?? .release
        if connection.workGeneration == outputGeneration {
            output.work[connection.workSlot].ending = ending
        } else {
            var work = SocketWork(number: number)
            work.ending = ending
            output.work.append(work)
        }
        output.events.append(
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
