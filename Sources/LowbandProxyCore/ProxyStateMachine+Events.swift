package import LowbandShaper
package import NIOCore

/// The events of a connection's sockets, and of the device: each changes the state, settles
/// everything due by its instant, and returns what the I/O side must do.
extension ProxyStateMachine {
    /// A client connected: registers it with the shaper, which decides when to connect upstream.
    /// `route` is where its bytes travel: the device's link (the default), no link, or the
    /// device's link and a path beyond it, whose handshake time adds to the link's.
    package mutating func accept(description: String, route: LinkRoute = .device, at now: ShaperInstant) -> (number: Int, output: ProxyOutput) {
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
        if connectTime <= now && forced == nil, let index = connections.index(forKey: number) {
            work(index) { $0.connect = true }
        }
        step(now)
        return (number, takeOutput())
    }

    package mutating func upstreamConnected(_ number: Int, at now: ShaperInstant) -> ProxyOutput {
        guard let index = connections.index(forKey: number), connections.values[index].phase == .connecting else {
            return takeOutput()
        }
        connections.values[index].phase = .open
        emit(.connect, now, connection: number)
        // What the client sent (and whether it ended) while the connect was under way goes
        // out now, in order.
        for direction in Direction.allCases { submit(number, direction, at: now) }
        dirty.append(number)
        step(now)
        return takeOutput()
    }

    package mutating func upstreamFailed(_ number: Int, reason: String, at now: ShaperInstant) -> ProxyOutput {
        guard connections[number] != nil else { return takeOutput() }
        statistics.refusedConnections += 1
        emit(.refused, now, connection: number, detail: reason)
        remove(number, at: now, reset: false, reason: "upstream unreachable")
        step(now)
        return takeOutput()
    }

    /// Bytes read from a side's socket. Before the upstream connection is up (a socket's end
    /// is read to its EOF even while reading is paused) they are kept and go out once it is.
    package mutating func received(_ buffer: ByteBuffer, on number: Int, from side: ProxySide, at now: ShaperInstant) -> ProxyOutput {
        guard let index = connections.index(forKey: number) else {
            return takeOutput()
        }
        let direction = side.outgoing
        let count = buffer.readableBytes
        guard count > 0 else { return takeOutput() }
        statistics.bufferedBytes += count
        switch direction {
        case .upstream: statistics.receivedUpstreamBytes += count
        case .downstream: statistics.receivedDownstreamBytes += count
        }
        connections.values[index][direction].bytesRead += count
        // Read in place: `connections.values[index]` as an rvalue copies the whole connection
        // (and retains its queues), per read burst.
        if inPlace(index, { $0[direction].toxics.isEmpty }) {
            connections.values[index][direction].link.append(buffer)
            connections.values[index][direction].unsubmitted += count
            submit(number, direction, at: now)
        } else {
            connections.values[index][direction].held.append(buffer)
            connections.values[index][direction].toxics.ingest(.pass(count), at: now, random: &random)
        }
        dirty.append(number)
        step(now)
        return takeOutput()
    }

    /// The side's peer ended its stream (TCP FIN). Before the upstream connection is up the
    /// end waits, behind the bytes before it, and is forwarded once it is.
    package mutating func inputClosed(_ number: Int, side: ProxySide, at now: ShaperInstant) -> ProxyOutput {
        guard let index = connections.index(forKey: number) else { return takeOutput() }
        let direction = side.outgoing
        guard !inPlace(index, { $0[direction].sourceEnded }) else { return takeOutput() }
        connections.values[index][direction].sourceEnded = true
        if inPlace(index, { $0[direction].toxics.isEmpty }) {
            connections.values[index][direction].endReleased = true
        } else {
            connections.values[index][direction].toxics.ingest(.end, at: now, random: &random)
        }
        dirty.append(number)
        step(now)
        return takeOutput()
    }

    /// The side's socket crossed a write-buffer watermark.
    package mutating func writabilityChanged(_ number: Int, side: ProxySide, writable: Bool, at now: ShaperInstant) -> ProxyOutput {
        guard let index = connections.index(forKey: number) else { return takeOutput() }
        let direction: Direction = side == .upstream ? .upstream : .downstream
        connections.values[index][direction].destinationBlocked = !writable
        dirty.append(number)
        step(now)
        return takeOutput()
    }

    /// A socket closed. After an error (a reset, a failed write), or before the upstream
    /// connection is up, the connection ends at once. A clean close (the peer's FIN after we
    /// had shut that socket's output) only ends what flows toward it: bytes it sent before are
    /// still delivered, then its end is forwarded.
    package mutating func socketClosed(_ number: Int, side: ProxySide, error: String?, at now: ShaperInstant) -> ProxyOutput {
        guard let index = connections.index(forKey: number) else { return takeOutput() }
        let who = side == .client ? "client" : "upstream"
        if let error {
            remove(number, at: now, reset: false, reason: "\(who): \(error)")
            step(now)
            return takeOutput()
        }
        if inPlace(index, { $0.phase != .open }) {
            // Gone before its upstream was: nothing can flow any more, as after a lost SYN.
            remove(number, at: now, reset: false, reason: "\(who) closed before the upstream connected")
            step(now)
            return takeOutput()
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
        return takeOutput()
    }

    /// Everything due by `now`: connects, toxic releases, link deliveries, resets.
    package mutating func advance(to now: ShaperInstant) -> ProxyOutput {
        step(now)
        return takeOutput()
    }

    /// Closes every connection (proxy stopping or disabled).
    package mutating func closeAll(reason: String, at now: ShaperInstant) -> ProxyOutput {
        for number in order {
            remove(number, at: now, reset: false, reason: reason)
        }
        return takeOutput()
    }

    /// Switches the device to a new link, like a handover: open connections continue on it,
    /// and bytes queued in the old link are queued again in the new one (none are lost).
    package mutating func replaceShaper(_ newShaper: any TrafficShaper, description: String, at now: ShaperInstant) -> ProxyOutput {
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
        return takeOutput()
    }
}
