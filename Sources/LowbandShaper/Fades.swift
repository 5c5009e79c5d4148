import Foundation
import LowbandDeterminism

/// Bursty loss in time, for one direction of the device's radio: a Gilbert–Elliott chain over
/// time rather than over pieces.
///
/// The radio is in a fade (every piece that leaves the bottleneck then is lost) or clear (none
/// is). Fades last an exponentially distributed time of mean `B` (the profile's
/// ``LossProfile/burst``) and clear spells one of mean `B·(1−L)/L`, so the long-run share of
/// time in a fade, and so of pieces lost, is the loss rate `L`, and a retransmission sent an
/// RTO later finds the fade over unless it is longer than the RTO. The spells are drawn in
/// sequence from the direction's own stream, each with the figures in force where it starts,
/// so the fades are a fixed function of the seed, whatever traffic samples them.
struct Fades: Sendable {
    private var generator: SeededGenerator
    /// Whether the current spell is a fade.
    private var fading = false
    /// Where the current spell ends; `Int64.min` before the first draw.
    private var spellEnd: Int64 = .min

    init(generator: SeededGenerator) {
        self.generator = generator
    }

    /// Whether the radio is in a fade at `time` (never earlier than a previous call's), under
    /// the loss figures `loss(at:)` gives for each instant.
    mutating func isFading(at time: Int64, loss: (Int64) -> LossProfile) -> Bool {
        if spellEnd == .min {
            let start = loss(0)
            fading = generator.chance(start.rate)
            spellEnd = drawSpell(fading: fading, from: 0, start)
        }
        while time >= spellEnd {
            let boundary = spellEnd
            let figures = loss(boundary)
            fading.toggle()
            spellEnd = drawSpell(fading: fading, from: boundary, figures)
        }
        return fading
    }

    /// The end of a spell starting at `start`: exponential with the state's mean. A link with
    /// no loss (or no bursts) stays clear until its figures change, a link losing everything
    /// stays in a fade: both are checked again each second, so a timeline's change is seen.
    private mutating func drawSpell(fading: Bool, from start: Int64, _ loss: LossProfile) -> Int64 {
        let recheck: Int64 = 1_000_000_000
        guard let burst = loss.burst?.nanosecondsClamped, burst > 0, loss.rate > 0, loss.rate < 1 else {
            if fading, loss.rate < 1 { return start }
            return start + recheck
        }
        let mean = fading ? Double(burst) : Double(burst) * (1 - loss.rate) / loss.rate
        let length = -mean * log(generator.positiveUnitInterval())
        guard length.isFinite, length < Double(Int64.max / 4) else { return start + Int64.max / 4 }
        return start + max(1, Int64(length.rounded()))
    }
}
