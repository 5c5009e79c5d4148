@testable import LowbandCodecs
import LowbandProfiles
import LowbandShaper
import Testing

/// What a payload costs on the air, played out by the shaper: more bytes never arrive sooner,
/// the idle radio's promotion and a round trip are always paid, and energy comes with power figures.
@Suite struct AirCostTests {
    @Test(arguments: ["gprs", "edge", "3g"])
    func moreBytesNeverArriveSoonerAndTheRadioIsPaid(name: String) throws {
        let profile = try NetworkProfile.load(named: name)
        let small = try #require(AirCost(bytes: 200, profile: profile))
        let large = try #require(AirCost(bytes: 20_000, profile: profile))
        #expect(small.time < large.time)
        let roundTrip = profile.uplink.delay + profile.downlink.delay
        let promotion = profile.radio?.states.last?.promotion.lowerBound ?? .zero
        #expect(small.time >= roundTrip + promotion, "\(small.time)")
        if profile.radio?.knowsPower == true {
            let joules = try #require(small.joules)
            let more = try #require(large.joules)
            #expect(joules > 0 && joules <= more)
        }
    }

    @Test func theLinkRateDecidesTheDifference() throws {
        // On EDGE's downlink, 10,000 more bytes (and their segments' headers) take their time at
        // the rate: at least 10,000 × 8 / rate.
        let profile = try NetworkProfile.load(named: "edge")
        let small = try #require(AirCost(bytes: 1_000, profile: profile))
        let large = try #require(AirCost(bytes: 11_000, profile: profile))
        guard case let .bitsPerSecond(rate) = profile.downlink.rate else { return }
        let least = Double(10_000 * 8) / Double(rate)
        #expect(Double((large.time - small.time).nanosecondsClamped) / 1e9 >= least)
    }
}

extension Duration {
    fileprivate var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
