import LowbandDeterminism

/// What TCP does about loss, for one connection and direction: the retransmission timeout a
/// loss costs (RFC 6298), and, for a profile whose losses are independent, whether each piece
/// is lost. Bursty losses are a property of the radio, not of the connection: ``Fades``.
///
/// The timeout follows RFC 6298: each piece that gets through on its first attempt is an RTT
/// sample (Karn's algorithm: a retransmitted piece is none), `SRTT` and `RTTVAR` are smoothed
/// with α = 1/8 and β = 1/4 (§2.2, §2.3), `RTO = SRTT + max(G, 4·RTTVAR)` with the profile's
/// `rto` as the floor (§2.4: 1 s), each timeout doubles it up to `rto-max` (§5.5, §2.5), and
/// the doubled value is kept until a new sample (§5.7's "back off … until new data is
/// acknowledged", read with Karn's rule as TCP implementations do).
struct LossState: Sendable {
    /// The smoothed RTT and its variation, ns; nil before the first sample.
    private var smoothed: (rtt: Int64, variation: Int64)?
    /// The timeout the next loss costs, backed off by the losses since the last sample; nil
    /// means the one computed from the estimator.
    private var backedOff: Int64?
    /// The piece at the head of the queue was lost at least once: its success is no sample.
    private(set) var retransmitting = false

    /// Whether the next piece is lost when losses are independent (``LossProfile/burst`` nil).
    mutating func isLostIndependently(_ profile: LossProfile, using generator: inout SeededGenerator) -> Bool {
        generator.chance(profile.rate)
    }

    /// The timeout RFC 6298 gives from the samples so far, at least the profile's `rto`.
    func computedRTO(_ profile: LossProfile) -> Int64 {
        let floor = profile.rto.nanosecondsClamped
        guard let smoothed else { return floor }
        let clockGranularity: Int64 = 1_000_000
        let rto = smoothed.rtt.addingReportingOverflow(max(clockGranularity, 4 * smoothed.variation))
        return min(profile.maximumRTO.nanosecondsClamped, max(floor, rto.overflow ? .max : rto.partialValue))
    }

    /// The stall for a loss now; the next loss before a new sample costs twice as much, up to
    /// the cap.
    mutating func stallForLoss(_ profile: LossProfile) -> Int64 {
        let stall = backedOff ?? computedRTO(profile)
        let cap = profile.maximumRTO.nanosecondsClamped
        backedOff = min(cap, stall.multipliedReportingOverflow(by: 2).overflow ? cap : stall * 2)
        retransmitting = true
        return stall
    }

    /// A piece got through after `roundTrip` ns (its time on the bottleneck, its way there and
    /// an acknowledgement's way back). A first attempt is a sample and ends any backoff.
    mutating func delivered(roundTrip: Int64) {
        guard !retransmitting else {
            retransmitting = false
            return
        }
        backedOff = nil
        if let previous = smoothed {
            // RFC 6298 §2.3: RTTVAR first, with the old SRTT.
            let variation = (3 * previous.variation + abs(previous.rtt - roundTrip)) / 4
            smoothed = ((7 * previous.rtt + roundTrip) / 8, variation)
        } else {
            smoothed = (roundTrip, roundTrip / 2)
        }
    }
}
