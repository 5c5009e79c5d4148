package import LowbandShaper

/// Faults a harness injects on purpose: resets and one-way partitions. Like toxics they act on
/// every connection of the device, open or new.
extension ProxyStateMachine {
    /// Resets one connection (both ends, like a TCP RST); what was on its way is lost.
    package mutating func reset(_ number: Int, reason: String, at now: ShaperInstant) -> [ProxyAction] {
        guard connections[number] != nil else { return takeActions() }
        statistics.resetConnections += 1
        emit(.reset, now, connection: number, detail: reason)
        remove(number, at: now, reset: true, reason: reason)
        step(now)
        return takeActions()
    }

    /// Resets every connection, as a dropped radio link or a crashed server would.
    package mutating func resetAll(reason: String, at now: ShaperInstant) -> [ProxyAction] {
        for number in order {
            statistics.resetConnections += 1
            emit(.reset, now, connection: number, detail: reason)
            remove(number, at: now, reset: true, reason: reason)
        }
        step(now)
        return takeActions()
    }

    /// Holds every byte of `direction` from now on, on every connection: nothing more is
    /// submitted to the link, and what the link delivers is kept back (in order, with any end or
    /// close behind it) until ``heal(at:)``. Nothing is dropped; reading stops once the link
    /// buffer limit is reached, as it would behind a full link.
    package mutating func partition(_ direction: Direction, at now: ShaperInstant) -> [ProxyAction] {
        guard !isPartitioned(direction) else { return takeActions() }
        partitioned.append(direction)
        emit(.partition, now, direction: direction)
        step(now)
        return takeActions()
    }

    /// Ends every partition: the held bytes are delivered at once, in order, then the bytes
    /// not yet submitted go to the link.
    package mutating func heal(at now: ShaperInstant) -> [ProxyAction] {
        guard !partitioned.isEmpty else { return takeActions() }
        let healed = partitioned
        partitioned.removeAll()
        for direction in healed {
            emit(.heal, now, direction: direction)
        }
        for number in order {
            for direction in healed {
                guard let index = connections.index(forKey: number) else { continue }
                let parked = connections.values[index][direction].parked
                connections.values[index][direction].parked = 0
                if parked > 0 { write(parked, of: number, direction, at: now) }
                submit(number, direction, at: now)
            }
            dirty.append(number)
        }
        step(now)
        return takeActions()
    }
}
