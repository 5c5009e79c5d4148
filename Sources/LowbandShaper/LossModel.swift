import LowbandDeterminism

/// Loss as TCP feels it, for one connection and direction: whether each piece is lost
/// (independently, or in Gilbert–Elliott bursts), and the retransmission timeout it costs.
///
/// The burst model is the simple Gilbert chain: in the bad state every piece is lost, in the
/// good state none; from the profile's loss rate `L` and mean burst `B`, the chain leaves the
/// bad state with probability `r = 1/B` and enters it with `p = L·r/(1−L)`, so the long-run
/// loss is `p/(p+r) = L` and bursts last `B` pieces on average.
struct LossState: Sendable {
    private var bad = false
    /// The timeout the next loss costs; nil means the profile's base RTO.
    private var currentRTO: Int64?

    /// Decides the fate of the next piece under `profile`.
    mutating func isLost(_ profile: LossProfile, using generator: inout SeededGenerator) -> Bool {
        guard profile.rate > 0 else {
            bad = false
            return false
        }
        guard profile.meanBurst > 1 else { return generator.chance(profile.rate) }
        if profile.rate >= 1 { return true }
        let leave = 1 / profile.meanBurst
        let enter = min(1, profile.rate * leave / (1 - profile.rate))
        bad = bad ? !generator.chance(leave) : generator.chance(enter)
        return bad
    }

    /// The stall for a loss now: the current RTO, which then doubles up to the cap.
    mutating func stallForLoss(_ profile: LossProfile) -> Int64 {
        let stall = currentRTO ?? profile.rto.nanosecondsClamped
        let cap = profile.maximumRTO.nanosecondsClamped
        currentRTO = min(cap, stall.multipliedReportingOverflow(by: 2).overflow ? cap : stall * 2)
        return stall
    }

    /// A piece got through: the RTO falls back to the base.
    mutating func delivered() {
        currentRTO = nil
    }
}
