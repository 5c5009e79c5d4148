package import LowbandShaper

/// Faults a harness injects on purpose: resets and one-way partitions. Like toxics they act on
/// every connection of the device, open or new.
extension ProxyStateMachine {
    /// Resets one connection (both ends, like a TCP RST); what was on its way is lost.
    package mutating func reset(_ number: Int, reason: String, at now: ShaperInstant) -> ProxyOutput {
        guard connections[number] != nil else { return takeOutput() }
        statistics.resetConnections += 1
        emit(.reset, now, connection: number, detail: reason)
        remove(number, at: now, reset: true, reason: reason)
        step(now)
        return takeOutput()
    }

    /// The network forgets one connection's flow, as a NAT that lost its binding does: its
    /// bytes vanish from now on, with no reset either way (the shaper loses every piece).
    package mutating func forget(_ number: Int, at now: ShaperInstant) -> ProxyOutput {
        guard let id = connections[number]?.shaperID else { return takeOutput() }
        shaper.forget(id, at: local(now))
        step(now)
        return takeOutput()
    }

    /// Resets every connection, as a dropped radio link or a crashed server would.
    package mutating func resetAll(reason: String, at now: ShaperInstant) -> ProxyOutput {
        for number in order {
            statistics.resetConnections += 1
            emit(.reset, now, connection: number, detail: reason)
            remove(number, at: now, reset: true, reason: reason)
        }
        step(now)
        return takeOutput()
    }

    /// Holds every byte of `direction` from now on, on every connection: nothing more is
    /// submitted to the link, and what the link delivers is kept back (in order, with any end or
    /// close behind it) until ``heal(_:reason:at:)``. Nothing is dropped; reading stops once the
    /// link buffer limit is reached, as it would behind a full link. `reason` (e.g. `fault 3`)
    /// is the `partition` event's detail, so a record can say which fault it was; a partition
    /// with another reason of a direction already held is a second hold on it (its own event),
    /// released by its own heal.
    package mutating func partition(_ direction: Direction, reason: String? = nil, at now: ShaperInstant) -> ProxyOutput {
        if partitioned.contains(direction) {
            guard let reason, !partitionHolds[direction, default: []].contains(reason) else { return takeOutput() }
            partitionHolds[direction, default: []].append(reason)
            emit(.partition, now, direction: direction, detail: reason)
            return takeOutput()
        }
        partitioned.append(direction)
        partitionHolds[direction] = reason.map { [$0] } ?? []
        emit(.partition, now, direction: direction, detail: reason)
        step(now)
        return takeOutput()
    }

    /// Ends the partition of `direction` (nil: every partition): the held bytes are delivered at
    /// once, in order, then the bytes not yet submitted go to the link. `reason` is the `heal`
    /// event's detail; with a direction it releases only that reason's hold, and the direction
    /// stays held while another reason holds it.
    package mutating func heal(_ direction: Direction? = nil, reason: String? = nil, at now: ShaperInstant) -> ProxyOutput {
        if let direction, let reason, partitioned.contains(direction) {
            partitionHolds[direction, default: []].removeAll { $0 == reason }
            if !partitionHolds[direction, default: []].isEmpty {
                emit(.heal, now, direction: direction, detail: reason)
                return takeOutput()
            }
        }
        let healed = partitioned.filter { direction == nil || $0 == direction }
        guard !healed.isEmpty else { return takeOutput() }
        partitioned.removeAll { healed.contains($0) }
        for direction in healed {
            partitionHolds[direction] = nil
            emit(.heal, now, direction: direction, detail: reason)
        }
        for number in order {
            // A forced outage still holds everything; its end releases it.
            for direction in healed where !isPartitioned(direction) {
                guard let index = connections.index(forKey: number) else { continue }
                let parked = connections.values[index][direction].parked
                connections.values[index][direction].parked = 0
                if parked > 0 { write(parked, of: number, direction, at: now) }
                submit(number, direction, at: now)
            }
            dirty.append(number)
        }
        step(now)
        return takeOutput()
    }

    /// Forces an outage now, for `length`: as the profile's own outages do, nothing moves either
    /// way (bytes are held in order, not dropped), no handshake completes (the socket proxy's
    /// listener stops completing them too), and it is an `outage-start` event (`kind`: `outage`
    /// or `handover`, with "forced" in its words, then `(reason)` when one is given) and at its
    /// end an `outage-end`. One already in force is lengthened to end at the later time (no new
    /// `outage-start`: its `outage-end` comes at the later time). Connections stay open.
    package mutating func forceOutage(for length: Duration, kind: String, reason: String? = nil, at now: ShaperInstant) -> ProxyOutput {
        let until = now + length
        let because = reason.map { " (\($0))" } ?? ""
        if let forced {
            self.forced = (max(forced.until, until), forced.kind)
        } else {
            forced = (until, kind)
            emit(.outageStart, now, detail: "\(kind) forced for \(Self.seconds(length))\(because)")
        }
        step(now)
        return takeOutput()
    }

    /// Ends the forced outage at `end`: what it held goes on, in order.
    mutating func endForcedOutage(at end: ShaperInstant) {
        guard let held = forced else { return }
        forced = nil
        emit(.outageEnd, end, detail: "\(held.kind) forced")
        for number in order {
            for direction in Direction.allCases where !isPartitioned(direction) {
                guard let index = connections.index(forKey: number) else { continue }
                let parked = connections.values[index][direction].parked
                connections.values[index][direction].parked = 0
                if parked > 0 { write(parked, of: number, direction, at: end) }
                submit(number, direction, at: end)
            }
            dirty.append(number)
        }
    }

    private static func seconds(_ length: Duration) -> String {
        let milliseconds = length.nanosecondsClamped / 1_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }
}

/// An open connection as the control API lists it (`GET /proxies/{proxy}/connections`).
package struct ConnectionSummary: Sendable, Hashable {
    /// The connection's number.
    package var number: Int
    /// `waiting` (its handshake crossing the link), `connecting` (upstream connect under way) or `open`.
    package var state: String
    /// When it was accepted, on the proxy's timeline.
    package var openedAt: ShaperInstant
    /// Bytes delivered toward the server and toward the client so far.
    package var upstreamBytes: Int
    package var downstreamBytes: Int
    /// Bytes the proxy holds for it (toxics, link, parked).
    package var bufferedBytes: Int
}

extension ProxyStateMachine {
    /// Every open connection, in accept order.
    package var connectionSummaries: [ConnectionSummary] {
        order.compactMap { number in
            guard let connection = connections[number] else { return nil }
            let state = switch connection.phase {
            case .waiting: "waiting"
            case .connecting: "connecting"
            case .open: "open"
            }
            return ConnectionSummary(
                number: number, state: state, openedAt: connection.openedAt, upstreamBytes: connection.upstream.bytesDelivered,
                downstreamBytes: connection.downstream.bytesDelivered, bufferedBytes: connection.bufferedBytes)
        }
    }
}
