import LowbandShaper

/// Bytes that skip the machine: on a link that holds nothing back, with no toxic, partition or
/// pause in the way, a read crosses toxics, link and destination in the call that reads it, so
/// the I/O side may write it straight to the destination and report only its size.
extension ProxyStateMachine {
    /// Whether the bytes `side` sends next on `number` may go straight to the other side, told
    /// afterwards with ``passed(_:on:from:)``: the connection is open and both its sockets read
    /// and writable as far as the machine knows, the direction has no toxics, holds no byte and
    /// no end, is not partitioned, crosses no path beyond the device, and the shaper would
    /// deliver at once. What the machine then records is what ``received(_:on:from:at:)``
    /// would have (counts, no event but a `deliver` with nobody to read it); the shaper's own
    /// trace lines are the I/O side's to care about (it asks only when nobody reads them).
    /// Anything that changes one of these conditions comes through another call, after which
    /// the I/O side asks again.
    package mutating func passesThrough(_ number: Int, from side: ProxySide) -> Bool {
        let direction = side.outgoing
        guard !isPartitioned(direction), let index = connections.index(forKey: number) else { return false }
        let (open, beyond, id) = inPlace(index) { ($0.phase == .open, $0.beyond, $0.shaperID) }
        guard open, beyond == nil else { return false }
        let clear = inPlace(index) { connection in
            let flow = connection[direction]
            return flow.toxics.isEmpty && flow.held.isEmpty && flow.link.isEmpty && flow.unsubmitted == 0
                && !flow.shaperFull && !flow.pathFull && !flow.destinationBlocked && flow.reading
                && !flow.sourceEnded && !flow.endReleased && !flow.closeReleased && !flow.outputShut
        }
        guard clear else { return false }
        // A direct route skips the shaper; otherwise it must hand the bytes on in the same call.
        guard let id else { return true }
        return shaper.passesAtOnce(id, direction)
    }

    /// `count` bytes `side` sent on `number` went straight to the other side (see
    /// ``passesThrough(_:from:)``): counted as read and delivered, as the full path counts them.
    package mutating func passed(_ count: Int, on number: Int, from side: ProxySide) {
        guard count > 0, let index = connections.index(forKey: number) else { return }
        let direction = side.outgoing
        connections.values[index][direction].bytesRead += count
        connections.values[index][direction].bytesDelivered += count
        switch direction {
        case .upstream:
            statistics.receivedUpstreamBytes += count
            statistics.upstreamBytes += count
        case .downstream:
            statistics.receivedDownstreamBytes += count
            statistics.downstreamBytes += count
        }
    }
}

extension ProxyOutput {
    /// Whether this output only moves bytes: writes and their `deliver` events, with no
    /// connect, end, close or change of reading. Such an output of a read leaves every other
    /// direction's leave to pass straight through as it was (the link's queues are as empty
    /// after it as before), so the I/O side need not take those leaves back.
    package var movesBytesOnly: Bool {
        for work in work where work.connect || !work.shutdowns.isEmpty || work.readClient != nil || work.readUpstream != nil || work.ending != nil {
            return false
        }
        for event in events where event.kind != .deliver {
            return false
        }
        return true
    }
}
