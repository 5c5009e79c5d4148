import LowbandShaper
import Testing

/// On a link with no rate limit and no loss there is no bottleneck to serialise pieces through,
/// so a submitted chunk crosses whole: one delivery per chunk, not one per MTU.
@Suite struct UnlimitedLinkTests {
    @Test func aChunkCrossesAnUnlimitedLosslessLinkInOneDelivery() {
        let profile = TestProfiles.symmetric(TestProfiles.link(rate: .unlimited, delay: .milliseconds(20)))
        var shaper = NetworkShaper(profile: profile, seed: 1)
        let (id, connectAt) = shaper.open(at: .zero)
        _ = shaper.submit(65_536, on: id, .downstream, at: connectAt)
        var actions: [ShaperAction] = []
        while let wakeup = shaper.nextWakeup {
            actions += shaper.advance(to: wakeup)
        }
        #expect(actions == [.deliver(id, .downstream, bytes: 65_536)])
    }

    @Test func aRateLimitedLinkStillCutsPiecesToTheMTU() {
        let profile = TestProfiles.symmetric(TestProfiles.link(rate: .bitsPerSecond(10_000_000), delay: .milliseconds(20)))
        var shaper = NetworkShaper(profile: profile, seed: 1)
        let (id, connectAt) = shaper.open(at: .zero)
        _ = shaper.submit(15_000, on: id, .downstream, at: connectAt)
        var delivered: [Int] = []
        while let wakeup = shaper.nextWakeup {
            for case let .deliver(_, _, bytes) in shaper.advance(to: wakeup) { delivered.append(bytes) }
        }
        #expect(delivered == Array(repeating: 1_500, count: 10))
    }

    @Test func lossStillCutsPiecesOnAnUnlimitedLink() {
        let profile = TestProfiles.symmetric(TestProfiles.link(rate: .unlimited, delay: .milliseconds(20), loss: LossProfile(rate: 0.01)))
        var shaper = NetworkShaper(profile: profile, seed: 1)
        let (id, connectAt) = shaper.open(at: .zero)
        _ = shaper.submit(15_000, on: id, .downstream, at: connectAt)
        var delivered: [Int] = []
        while let wakeup = shaper.nextWakeup {
            for case let .deliver(_, _, bytes) in shaper.advance(to: wakeup) { delivered.append(bytes) }
        }
        #expect(delivered.reduce(0, +) == 15_000)
        #expect(delivered.allSatisfy { $0 <= 1_500 }, "a lost piece must be an MTU, not the whole chunk")
    }
}
