import LowbandShaper

/// The physical floor of one push on a profile: the least one-way delay the profile allows (its
/// base delay less the most its jitter can take away) plus the push's bytes crossing the
/// downlink's bottleneck. No push can be visible sooner, so every sample is at or above it.
enum PhysicalFloor {
    static func milliseconds(pushBytes: Int, profile: NetworkProfile) -> Double {
        var links = [profile.downlink]
        if let timeline = profile.timeline { links += timeline.segments.map(\.downlink) }
        let floors = links.map { link -> Double in
            let jitterBelow = link.jitter.distribution == .pareto ? Duration.zero : link.jitter.amount
            let delay = max(.zero, link.delay - jitterBelow).milliseconds
            let crossing: Double
            switch link.rate {
            case .bitsPerSecond(let rate) where rate > 0:
                crossing = Double(pushBytes * 8) / Double(rate) * 1000
            default:
                crossing = 0
            }
            return delay + crossing
        }
        return floors.min() ?? 0
    }
}
