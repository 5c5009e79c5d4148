/// The shaper on a link that never holds a byte back: what `submit` queues arrives at once.
///
/// On such a link (the `perfect` profile) every submit scheduled a `transmitted` timer at the
/// same instant, ran it, scheduled an `arrival` at the same instant and ran that: two heap
/// operations, a timeline lookup and an array built per read. Here the same steps are taken in
/// one call, with the same state changes and the same trace lines in the same order (`enqueue`,
/// then any `resume` the emptied queue allows, then `deliver` with no delay).
extension NetworkShaper {
    /// Whether `profile` passes every byte on the instant it is queued: no phase has a rate
    /// limit, delay, jitter or loss, and there are no outages, radio, NAT, resets or
    /// acknowledgements to time.
    static func passesAtOnce(_ profile: NetworkProfile) -> Bool {
        profile.outages.isEmpty && profile.radio == nil && profile.wakeUp == nil && profile.nat == nil && profile.resets == nil
            && LinkTimeline(profile: profile, direction: .upstream).isInstant
            && LinkTimeline(profile: profile, direction: .downstream).isInstant
    }

    /// Whether the piece just queued in `slot`'s direction can cross now without the timers:
    /// nothing is scheduled, the bottleneck is free and that piece's connection is the only
    /// one waiting. Otherwise the general path runs.
    func canDeliverAtOnce(_ slot: Int) -> Bool {
        holdsNothingBack(slot) && bottlenecks[slot].turns.count == 1
    }

    /// The link is instant, nothing is scheduled, and `slot`'s bottleneck is neither sending,
    /// waiting nor owed acknowledgements: what both `canDeliverAtOnce` (after a submit queued
    /// its piece) and `passesAtOnce` (before one) need first.
    private func holdsNothingBack(_ slot: Int) -> Bool {
        instant && timers.isEmpty && !bottlenecks[slot].busy && bottlenecks[slot].waitingUntil == nil
            && bottlenecks[slot].acknowledgementBytes == 0
    }

    /// What `startNext`, `transmitted` and `arrived` do to the piece at the head of the
    /// direction's turns when it starts, leaves the bottleneck and arrives all at `now`.
    mutating func deliverAtOnce(_ id: ConnectionID, _ index: [ConnectionID: Connection].Index, _ direction: Direction) {
        let slot = direction.index
        _ = bottlenecks[slot].turns.popFirst()
        radio.touch(now)
        let piece = connections.values[index][direction].queued
        // Started (startNext), through the bottleneck (transmitted) and arrived at once: no
        // jitter to draw, no loss to roll (the caller saw the previous piece had arrived).
        connections.values[index][direction].tlsBytes = 0
        connections.values[index][direction].queued = 0
        connections.values[index][direction].inFlight = 0
        connections.values[index][direction].state = .idle
        connections.values[index][direction].lastPieceStart = now
        connections.values[index][direction].lastArrival = now
        connections.values[index].lastCrossed = now
        bottlenecks[slot].occupancy -= piece
        resumeIfStarved(id, direction)
        resumeIfRoom(direction)
        // Arrived: handed out by the next `advance`, as a timer's delivery would be.
        pending.append(.deliver(id, direction, bytes: piece))
        record(.deliver, id, direction, bytes: piece, delay: 0)
        connections.values[index].delivered += piece
    }
}

extension NetworkShaper {
    /// True when a submit on `id`'s `direction` now would take `deliverAtOnce` and
    /// leave the link as it found it but for the flow's times (read only by NAT, resets, radio
    /// and acknowledgements, which such a link has none of) and its trace lines: the link is
    /// instant, nothing is scheduled, the direction's bottleneck is free and empty with no
    /// connection paused or waiting, and the flow holds nothing.
    public func passesAtOnce(_ id: ConnectionID, _ direction: Direction) -> Bool {
        let slot = direction.index
        guard holdsNothingBack(slot), bottlenecks[slot].turns.isEmpty, bottlenecks[slot].occupancy == 0,
            bottlenecks[slot].paused.isEmpty,
            let index = connections.index(forKey: id)
        else { return false }
        let connection = connections.values[index]
        let flow = connection[direction]
        return !connection.forgotten && flow.state == .idle && flow.queued == 0 && flow.lastArrival <= now
    }
}
