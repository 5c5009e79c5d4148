import Foundation
import LowbandDeterminism

/// The jitter of one connection and direction: samples of the profile's distribution, each
/// correlated with the previous one, scaled by the amount in force.
///
/// The correlated value is kept normalised (within −1 … 1, or 0 … 1 for Pareto), so a timeline
/// that changes the amount keeps the correlation, and a convex mix never leaves the bounds:
/// every offset lies within ± amount (0 … amount for Pareto).
struct JitterState: Sendable {
    /// The Pareto (Lomax) shape.
    static let paretoShape = 1.5
    /// The amount over the Pareto scale (scale = amount / 10).
    static let paretoScaleDivisor = 10.0
    /// The amount over the normal distribution's σ (σ = amount / 3).
    static let normalSigmaDivisor = 3.0

    private var previous: Double = 0

    /// The offset in nanoseconds to add to the base delay of the next piece.
    mutating func sample(_ profile: JitterProfile, using generator: inout SeededGenerator) -> Int64 {
        let amount = profile.amount.nanosecondsClamped
        guard amount > 0 else { return 0 }
        let fresh: Double
        switch profile.distribution {
        case .uniform:
            fresh = generator.unitInterval() * 2 - 1
        case .normal:
            // Box–Muller; σ = amount / 3, cut at ± amount.
            let radius = (-2 * log(generator.positiveUnitInterval())).squareRoot()
            let normal = radius * cos(2 * Double.pi * generator.unitInterval())
            fresh = min(1, max(-1, normal / Self.normalSigmaDivisor))
        case .pareto:
            // Lomax (Pareto II), shape 1.5, scale amount / 10, cut at amount.
            let tail = pow(generator.positiveUnitInterval(), -1 / Self.paretoShape) - 1
            fresh = min(1, tail / Self.paretoScaleDivisor)
        }
        let correlation = profile.correlation
        previous = correlation * previous + (1 - correlation) * fresh
        return Int64((previous * Double(amount)).rounded())
    }
}
