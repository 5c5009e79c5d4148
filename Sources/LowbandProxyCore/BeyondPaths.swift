package import LowbandShaper

/// Where a connection's bytes travel, as a route picked it (``ProxyRoute``).
package enum LinkRoute {
    /// Across the device's link alone (no rule matched).
    case device
    /// Across no link: written as soon as the toxics release them (`direct`).
    case direct
    /// Across the device's link, then the path to `key` (its destination host): uplink bytes
    /// cross the device's link first, downlink bytes the path first. `makeShaper` makes the
    /// path's shaper when its first connection opens.
    case beyond(key: String, makeShaper: () -> any TrafficShaper)
}

/// A connection's place on a path beyond the device's link.
struct BeyondHop {
    /// The path: its destination host.
    let key: String
    /// The connection within the path's shaper.
    var id: ConnectionID
}

/// The paths beyond a device's link (``LinkRoute/beyond(key:makeShaper:)``): one shaper per
/// destination host, shared by every connection to it, on the proxy's timeline. A path lives
/// while a connection uses it; the next connection to that host starts a new one (the same
/// seed gives it the same decisions), so the paths kept are bounded by the open connections.
struct BeyondPaths {
    private struct Path {
        var shaper: any TrafficShaper
        /// The proxy-timeline instant the path's own timeline starts at.
        let origin: ShaperInstant
        var numbers: [ConnectionID: Int] = [:]

        func local(_ instant: ShaperInstant) -> ShaperInstant {
            ShaperInstant(nanoseconds: instant.nanoseconds - origin.nanoseconds)
        }

        /// Saturates: "never" stays never.
        func global(_ instant: ShaperInstant) -> ShaperInstant {
            let (sum, overflow) = instant.nanoseconds.addingReportingOverflow(origin.nanoseconds)
            return ShaperInstant(nanoseconds: overflow ? .max : sum)
        }
    }

    private var paths: [String: Path] = [:]
    /// The paths' keys in the order opened, so stepping them never depends on hashing.
    private var keys: [String] = []

    var isEmpty: Bool { paths.isEmpty }

    /// Opens connection `number` on the path to `key`, starting the path if none is open; the
    /// instant its handshake has crossed the path, on the proxy's timeline.
    mutating func open(_ key: String, number: Int, makeShaper: () -> any TrafficShaper, at now: ShaperInstant) -> (hop: BeyondHop, connectAt: ShaperInstant) {
        if paths[key] == nil {
            paths[key] = Path(shaper: makeShaper(), origin: now)
            keys.append(key)
        }
        let (id, connectAt) = paths[key]!.shaper.open(at: paths[key]!.local(now))
        paths[key]!.numbers[id] = number
        return (BeyondHop(key: key, id: id), paths[key]!.global(connectAt))
    }

    /// Hands `bytes` to the path; false when its queue is full (the source should pause until
    /// the path resumes it).
    mutating func submit(_ bytes: Int, on hop: BeyondHop, _ direction: Direction, at now: ShaperInstant) -> Bool {
        guard let local = paths[hop.key]?.local(now) else { return true }
        return paths[hop.key]!.shaper.submit(bytes, on: hop.id, direction, at: local)
    }

    /// Opens connection `number` on its path again from the start (the device's link was
    /// switched): the old connection closes, the path stays.
    mutating func reopen(_ hop: BeyondHop, number: Int, at now: ShaperInstant) -> BeyondHop {
        guard let local = paths[hop.key]?.local(now) else { return hop }
        paths[hop.key]!.shaper.close(hop.id, at: local, reason: "the device's link was switched")
        paths[hop.key]!.numbers[hop.id] = nil
        let (id, _) = paths[hop.key]!.shaper.open(at: local)
        paths[hop.key]!.numbers[id] = number
        return BeyondHop(key: hop.key, id: id)
    }

    /// Closes the connection on its path, and the path once no connection uses it.
    mutating func close(_ hop: BeyondHop, at now: ShaperInstant, reason: String?) {
        guard let local = paths[hop.key]?.local(now) else { return }
        paths[hop.key]!.shaper.close(hop.id, at: local, reason: reason)
        paths[hop.key]!.numbers[hop.id] = nil
        if paths[hop.key]!.numbers.isEmpty {
            paths[hop.key] = nil
            keys.removeAll { $0 == hop.key }
        }
    }

    /// The earliest instant a path has something to do, on the proxy's timeline.
    var nextWakeup: ShaperInstant? {
        var next: ShaperInstant?
        for key in keys {
            guard let wakeup = paths[key]?.shaper.nextWakeup, let instant = paths[key]?.global(wakeup) else { continue }
            next = next.map { min($0, instant) } ?? instant
        }
        return next
    }

    /// Everything due by `now` on every path, with the connection number each action is for.
    mutating func advance(to now: ShaperInstant) -> [(number: Int, action: ShaperAction)] {
        var due: [(number: Int, action: ShaperAction)] = []
        for key in keys {
            guard let wakeup = paths[key]?.shaper.nextWakeup, let local = paths[key]?.local(now), local >= wakeup else { continue }
            for action in paths[key]!.shaper.advance(to: local) {
                let id: ConnectionID
                switch action {
                case .deliver(let connection, _, _), .resumeReading(let connection, _), .reset(let connection): id = connection
                }
                guard let number = paths[key]?.numbers[id] else { continue }
                due.append((number, action))
            }
        }
        return due
    }
}
