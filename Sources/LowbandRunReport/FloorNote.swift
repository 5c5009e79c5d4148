/// Why a scenario's latency has a physical floor in the report, or why it has none: shown
/// under the runs table so an empty floor column is never a puzzle.
enum FloorNote {
    /// The explanation for `scenario`; `hasFloor` says whether its records carry a floor.
    static func text(scenario: String, hasFloor: Bool) -> String {
        if hasFloor {
            return "Floor (\(scenario)): the least one-way delay the profile allows plus the smallest push's bytes at the downlink's bottleneck rate — no push can be visible sooner. Median: the delay plus the median of the profile's jitter plus the median push's bytes at that rate, so p50 / median says how much the client and the queues added."
        }
        let reason = switch scenario {
        case "subway": "delivery_delay mixes acknowledgements (a round trip) with pushes (one way), and the blackouts, not the link's figures, decide its tail — a one-way floor would bound only half of the samples"
        case "crowd": "delivery_delay crosses the uplink and the downlink through one shared queue; the sum of both one-way delays would be a floor but is not computed yet, so no ratio is claimed"
        case "offline-burst": "outbox_drain is counted from the network coming back and holds a burst of round trips; the link's figures give no single bound worth comparing with"
        case "launch-by-push": "a cold start's time includes connecting, logging in and the engine's start-up, which the profile's figures do not bound"
        case "scroll-history": "a stall is zero when the cache or the prefetch wins and one history round trip when it loses; there is no single push to bound"
        case "push-to-visible": "no push was sent before the run ended, so there is no push size to compute the floor from"
        default: "this scenario reports no single push size to compute a floor from"
        }
        return "No floor (\(scenario)): \(reason)."
    }

    /// One note per scenario of `records`, in first-seen order.
    static func notes(_ records: [RunRecord]) -> String {
        var seen: Set<String> = []
        return records.filter { seen.insert($0.scenario).inserted }.map { first in
            let hasFloor = records.contains { $0.scenario == first.scenario && ($0.floorMilliseconds.map { $0.isFinite && $0 > 0 } ?? false) }
            return "<p class=\"note floor-note\">\(HTMLEscaping.escape(text(scenario: first.scenario, hasFloor: hasFloor)))</p>"
        }.joined()
    }
}
