import LowbandShaper

/// The step: everything due by an instant (a forced outage's end, toxic releases, the link's
/// and the paths' deliveries and resets, due connects), then ends, closes and reading settled.
extension ProxyStateMachine {
    mutating func step(_ now: ShaperInstant) {
        if let forced, forced.until <= now { endForcedOutage(at: forced.until) }
        // Every connection carries every toxic, so chains are empty exactly when `toxics` is.
        if !toxics.isEmpty {
            for number in order {
                for direction in Self.directions { drainToxics(number, direction, at: now) }
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
                work(index) { $0.connect = true }
            }
            waiting = still
        }
        finishDirty(at: now)
    }

    /// Everything due on the paths beyond the device's link, and what the device's link then
    /// has due at the same instant (a path's downlink delivery goes on into it).
    mutating func stepPaths(_ now: ShaperInstant) {
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

    mutating func performOnPath(_ action: ShaperAction, of number: Int, at now: ShaperInstant) {
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

    mutating func perform(_ action: ShaperAction, at now: ShaperInstant) {
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
}
