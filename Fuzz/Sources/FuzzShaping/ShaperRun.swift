import FuzzSupport
public import LowbandShaper

/// Plays a profile the parser accepted through a `NetworkShaper`, so that "accepted" means
/// "usable": no figure the parser lets through may crash the link model or break its promises.
///
/// Two connections send both ways for up to an hour of virtual time (at most `maximumSteps`
/// wake-ups). Checked: time never goes back, and no connection gets more bytes delivered in a
/// direction than were submitted.
public enum ShaperRun {
    public static let maximumSteps = 2_000
    static let horizon: Int64 = 3_600 * 1_000_000_000

    public static func play(_ profile: NetworkProfile, seed: UInt64 = 1) {
        var shaper = NetworkShaper(profile: profile, seed: seed)
        var submitted: [Key: Int] = [:]
        var delivered: [Key: Int] = [:]
        var now = ShaperInstant.zero
        var unopened = 2
        var steps = 0
        func open() {
            unopened -= 1
            let (id, connectAt) = shaper.open(at: now)
            guard connectAt.nanoseconds <= horizon else { return }
            require(connectAt >= now, "connect at \(connectAt), before now \(now)")
            now = connectAt
            for (direction, bytes) in [(Direction.downstream, 20_000), (.upstream, 3_000)] {
                _ = shaper.submit(bytes, on: id, direction, at: now)
                submitted[Key(id: id, direction: direction), default: 0] += bytes
            }
        }
        open()
        while steps < maximumSteps {
            steps += 1
            if steps == maximumSteps / 2, unopened > 0 { open() }
            guard let wake = shaper.nextWakeup, wake.nanoseconds <= horizon else { break }
            require(wake >= now, "next wake-up \(wake) is before now \(now)")
            now = wake
            for action in shaper.advance(to: now) {
                guard case let .deliver(id, direction, bytes) = action else { continue }
                let key = Key(id: id, direction: direction)
                delivered[key, default: 0] += bytes
                require(bytes > 0, "a delivery of \(bytes) bytes")
                require(delivered[key, default: 0] <= submitted[key, default: 0], "\(key) delivered more than was submitted")
            }
        }
    }

    struct Key: Hashable, CustomStringConvertible {
        var id: ConnectionID
        var direction: Direction
        var description: String { "\(id) \(direction)" }
    }
}
