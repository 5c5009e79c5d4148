import LowbandShaper
import Testing

/// The packet link's resets: the NAT's `on-expiry: reset` and the profile's `resets`, each told
/// to the owner once (who makes up the RSTs), the flow's packets dropped from then on.
@Suite struct PacketLinkResetTests {
    private let flow = PacketFlow(transport: 6, deviceAddress: 0x0A00_0264, devicePort: 40_000, remoteAddress: 0x0A00_0202, remotePort: 80)
    private let other = PacketFlow(transport: 6, deviceAddress: 0x0A00_0264, devicePort: 40_001, remoteAddress: 0x0A00_0202, remotePort: 80)

    private func play(_ link: inout PacketLink, _ packets: [(Int64, PacketFlow, Direction)], bytes: Int = 100) -> [PacketAction] {
        var actions: [PacketAction] = []
        for (time, flow, direction) in packets {
            _ = link.submit(bytes, direction, flow: flow, at: .milliseconds(time))
            actions += link.advance(to: .milliseconds(time + 50))
        }
        while let wakeup = link.nextWakeup { actions += link.advance(to: wakeup) }
        return actions
    }

    @Test func aNATThatResetsTellsTheOwnerOnceAndDropsTheFlow() {
        let recorder = ShaperTraceRecorder()
        var profile = TestProfiles.symmetric(TestProfiles.link(rate: .unlimited, delay: .milliseconds(10)))
        profile.nat = NATProfile(idleTimeout: .seconds(1), onExpiry: .reset)
        var link = PacketLink(profile: profile, seed: 1, trace: recorder)
        let actions = play(&link, [(0, flow, .upstream), (2_000, flow, .upstream), (2_100, flow, .downstream), (2_100, other, .upstream)])
        let reason = "the NAT forgot it (idle 2 s, the NAT's timeout is 1 s)"
        #expect(actions == [.deliver(0, .upstream), .reset(flow, reason), .drop(1, .upstream, .reset), .drop(2, .downstream, .reset), .deliver(3, .upstream)])
        #expect(recorder.events.filter { $0.kind == .natExpired }.map(\.detail) == ["reset: idle 2 s, the NAT's timeout is 1 s"])
        #expect(recorder.events.filter { $0.kind == .reset }.map(\.detail) == ["10.0.2.100:40000 → 10.0.2.2:80: \(reason)"])
    }

    @Test func theProfilesResetsEndAFlowAfterItsLifetime() {
        var profile = TestProfiles.symmetric(TestProfiles.link(rate: .unlimited, delay: .milliseconds(10)))
        profile.resets = ResetProfile(probability: 1, afterTime: .seconds(1) ... .seconds(1))
        var link = PacketLink(profile: profile, seed: 7)
        _ = link.submit(100, .upstream, flow: flow, at: .zero)
        #expect(link.advance(to: .milliseconds(999)) == [.deliver(0, .upstream)])
        // Its lifetime runs from its first packet, whether or not more come.
        #expect(link.nextWakeup == .seconds(1))
        #expect(link.advance(to: .seconds(1)) == [.reset(flow, "the profile's resets: its lifetime is up")])
        _ = link.submit(100, .downstream, flow: flow, at: .milliseconds(1_100))
        #expect(link.advance(to: .seconds(2)) == [.drop(1, .downstream, .reset)])
    }

    @Test func theProfilesResetsEndAFlowAfterItsBytes() {
        var profile = TestProfiles.symmetric(TestProfiles.link(rate: .unlimited, delay: .milliseconds(10)))
        profile.resets = ResetProfile(probability: 1, afterBytes: 250 ... 250)
        var link = PacketLink(profile: profile, seed: 7)
        let actions = play(&link, [(0, flow, .upstream), (100, flow, .downstream), (200, flow, .upstream), (300, flow, .downstream)])
        // 100 B each: the third packet brings both ways to 300 B, past 250.
        #expect(actions == [
            .deliver(0, .upstream), .deliver(1, .downstream), .reset(flow, "the profile's resets: 300 B crossed, its limit is 250 B"), .deliver(2, .upstream),
            .drop(3, .downstream, .reset),
        ])
    }

    @Test func aResetChanceIsDrawnPerFlowFromTheSeed() {
        var profile = TestProfiles.symmetric(TestProfiles.link(rate: .unlimited, delay: .milliseconds(10)))
        profile.resets = ResetProfile(probability: 0.5, afterTime: .milliseconds(100) ... .milliseconds(900))
        func resets(seed: UInt64) -> [Int] {
            var link = PacketLink(profile: profile, seed: seed)
            let flows = (0 ..< 40).map { PacketFlow(transport: 6, deviceAddress: 1, devicePort: UInt16(40_000 + $0), remoteAddress: 2, remotePort: 80) }
            let actions = play(&link, flows.map { (0, $0, .upstream) })
            return actions.compactMap { if case let .reset(flow, _) = $0 { Int(flow.devicePort) - 40_000 } else { nil } }.sorted()
        }
        let first = resets(seed: 3)
        #expect(first == resets(seed: 3))
        #expect(first != resets(seed: 4))
        // Half of 40, within a wide binomial bound (p < 1e-4 outside).
        #expect((8 ... 32).contains(first.count), "\(first.count) of 40 flows reset")
    }
}
