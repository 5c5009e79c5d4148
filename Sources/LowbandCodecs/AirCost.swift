package import LowbandShaper

/// What one payload costs on a profile's air, played out by the shaper itself
/// (``NetworkShaper``, the code every proxied and simulated run goes through), not a formula
/// beside it.
///
/// The exchange: a connection already open, the radio idle (every inactivity timer run out),
/// the app sends a request of ``requestBytes`` and the server answers with the payload. The
/// time runs from the request to the answer's last byte: the radio's promotion, the round
/// trip, each segment's TCP/IP headers at the MSS and the acknowledgements, at the profile's
/// rates. The energy is the radio's from the request until it is back in its bottom state
/// (promotion, transfer and tail). Loss, jitter, outages, resets, NAT expiry and timelines
/// are left out: they move one delivery by chance, not one format against another.
package struct AirCost: Sendable, Hashable {
    /// The request's bytes (a small frame up).
    package static let requestBytes = 40
    /// The seed of the shaper's draws (the promotion, drawn from its range).
    package static let seed: UInt64 = 1

    /// Request to the payload's last byte.
    package var time: Duration
    /// The radio's energy for the exchange, joules; nil when the profile gives no power figures.
    package var joules: Double?

    /// The cost of a payload of `bytes` on `profile`; nil when the link never delivers it.
    package init?(bytes: Int, profile: NetworkProfile) {
        guard bytes > 0 else { return nil }
        let calm = Self.calm(profile)
        var shaper = NetworkShaper(profile: calm, seed: Self.seed)
        let (id, connectAt) = shaper.open(at: ShaperInstant(nanoseconds: 0))
        guard connectAt.nanoseconds < Int64.max / 4 else { return nil }
        _ = shaper.advance(to: connectAt)
        let idle = calm.radio?.states.compactMap(\.demoteAfter).reduce(Duration.zero, +) ?? calm.wakeUp?.idle ?? .zero
        let start = connectAt + idle + .seconds(1)
        let before = shaper.radioStatistics(at: start)?.joules
        _ = shaper.submit(Self.requestBytes, on: id, .upstream, at: start)
        var up = 0
        var down = 0
        let limit = start + .seconds(3600)
        while down < bytes, let next = shaper.nextWakeup, next < limit {
            for action in shaper.advance(to: next) {
                guard case let .deliver(_, direction, delivered) = action else { continue }
                if direction == .downstream {
                    down += delivered
                    continue
                }
                up += delivered
                // The server answers once the whole request is in.
                if up == Self.requestBytes { _ = shaper.submit(bytes, on: id, .downstream, at: next) }
            }
            if down >= bytes {
                time = next - start
                let rest = calm.radio?.states.compactMap(\.demoteAfter).reduce(Duration.zero, +) ?? .zero
                let after = shaper.radioStatistics(at: next + rest + .seconds(1))?.joules
                joules = before.flatMap { before in after.map { $0 - before } }
                return
            }
        }
        return nil
    }

    /// `profile` without what happens by chance: no loss, jitter, outages, resets, NAT
    /// expiry, DNS or timeline; rates, delays, MTU, overhead and radio as they are.
    static func calm(_ profile: NetworkProfile) -> NetworkProfile {
        var calm = profile
        for keyPath in [\NetworkProfile.downlink, \NetworkProfile.uplink] {
            calm[keyPath: keyPath].loss.rate = 0
            calm[keyPath: keyPath].jitter.amount = .zero
        }
        calm.outages = []
        calm.resets = nil
        calm.nat = nil
        calm.dns = nil
        calm.timeline = nil
        return calm
    }
}
