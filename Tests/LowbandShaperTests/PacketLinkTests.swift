import LowbandShaper
import Testing

/// The packet link (`lowband shell`'s): whole packets at the rate, drop-tail, real loss, delay.
@Suite struct PacketLinkTests {
    /// Runs `link` to its end: every action with the time it came out.
    private func drain(_ link: inout PacketLink) -> [(time: ShaperInstant, action: PacketAction)] {
        var result: [(ShaperInstant, PacketAction)] = []
        while let wakeup = link.nextWakeup {
            for action in link.advance(to: wakeup) { result.append((wakeup, action)) }
        }
        return result
    }

    @Test func packetsLeaveAtTheRateCountingTheirBytesThenTakeTheDelay() {
        // 80 kbit/s: a 1000-byte packet takes 100 ms on the bottleneck, then 100 ms of delay.
        let profile = TestProfiles.symmetric(TestProfiles.link(rate: .bitsPerSecond(80_000), delay: .milliseconds(100)))
        var link = PacketLink(profile: profile, seed: 1)
        for _ in 0 ..< 5 { _ = link.submit(1000, .downstream, at: .zero) }
        let delivered = drain(&link).filter { if case .deliver = $0.action { true } else { false } }
        #expect(delivered.map(\.time) == (1 ... 5).map { .milliseconds(Int64($0) * 100 + 100) })
    }

    @Test func aFullQueueDropsTheTailAndSaysSo() {
        let recorder = ShaperTraceRecorder()
        let profile = TestProfiles.symmetric(TestProfiles.link(rate: .bitsPerSecond(80_000), queue: 3000))
        var link = PacketLink(profile: profile, seed: 1, trace: recorder)
        let admissions = (0 ..< 5).map { _ in link.submit(1000, .upstream, at: .zero) }
        #expect(admissions == [.queued(0), .queued(1), .queued(2), .dropped(3, .queueFull), .dropped(4, .queueFull)])
        #expect(link.queuedBytes(.upstream) == 3000)
        #expect(drain(&link).count == 3)
        #expect(link.queuedBytes(.upstream) == 0)
        let drops = recorder.events.filter { $0.kind == .drop }
        #expect(drops.map(\.detail) == ["frame 4: queue-full", "frame 5: queue-full"])
    }

    @Test func aPacketOverTheMTUIsDropped() {
        var link = PacketLink(profile: TestProfiles.symmetric(TestProfiles.link()), seed: 1)
        #expect(link.submit(1501, .downstream, at: .zero) == .dropped(0, .overMTU))
        #expect(link.submit(1500, .downstream, at: .zero) == .queued(1))
    }

    @Test func independentLossDropsWithinBinomialBoundsAndTheSeedDecides() {
        let profile = TestProfiles.symmetric(TestProfiles.link(rate: .unlimited, loss: LossProfile(rate: 0.05)))
        func losses(seed: UInt64) -> [PacketID] {
            var link = PacketLink(profile: profile, seed: seed)
            for index in 0 ..< 10_000 { _ = link.submit(100, .downstream, at: .milliseconds(Int64(index))) }
            return drain(&link).compactMap { if case let .drop(id, _, .loss) = $0.action { id } else { nil } }
        }
        let first = losses(seed: 7)
        // n = 10 000, p = 0.05: mean 500, σ ≈ 21.8; ±5σ.
        #expect((391 ... 609).contains(first.count))
        #expect(losses(seed: 7) == first)
        #expect(losses(seed: 8) != first)
    }

    @Test func anOutageHoldsTheQueueUntilItEnds() {
        var profile = TestProfiles.symmetric(TestProfiles.link(rate: .unlimited, delay: .milliseconds(10)))
        profile.outages = [OutageProfile(start: .seconds(1) ... .seconds(1), duration: .seconds(2) ... .seconds(2))]
        var link = PacketLink(profile: profile, seed: 1)
        _ = link.drainTo(.milliseconds(1500))
        #expect(link.submit(100, .upstream, at: .milliseconds(1500)) == .queued(0))
        let actions = drain(&link)
        #expect(actions.map(\.time) == [.milliseconds(3010)])
    }

    @Test func aForcedOutageHoldsBothWaysAndIsTraced() {
        let recorder = ShaperTraceRecorder()
        let profile = TestProfiles.symmetric(TestProfiles.link(rate: .unlimited, delay: .milliseconds(100)))
        var link = PacketLink(profile: profile, seed: 1, trace: recorder)
        #expect(link.submit(100, .downstream, at: .milliseconds(0)) == .queued(0))
        link.forceOutage(.handover, for: .seconds(2), at: .milliseconds(50))
        #expect(link.submit(100, .upstream, at: .milliseconds(60)) == .queued(1))
        let actions = drain(&link)
        // The first was on its way: it arrives when the outage ends; the second leaves then.
        #expect(actions.map(\.time) == [.milliseconds(2050), .milliseconds(2150)])
        let outages = recorder.events.filter { $0.kind == .outageStart || $0.kind == .outageEnd }
        #expect(outages.map(\.time) == [.milliseconds(50), .milliseconds(2050)])
        #expect(outages.first?.detail == "handover, forced")
    }

    @Test func theNATForgetsAnIdleFlowAndDropsItsPacketsButNotANewOnes() {
        let recorder = ShaperTraceRecorder()
        var profile = TestProfiles.symmetric(TestProfiles.link(rate: .unlimited, delay: .milliseconds(10)))
        profile.nat = NATProfile(idleTimeout: .seconds(1))
        var link = PacketLink(profile: profile, seed: 1, trace: recorder)
        let old = PacketFlow(transport: 6, deviceAddress: 1, devicePort: 40_000, remoteAddress: 2, remotePort: 80)
        let new = PacketFlow(transport: 6, deviceAddress: 1, devicePort: 40_001, remoteAddress: 2, remotePort: 80)
        var actions: [PacketAction] = []
        for (time, flow, direction) in [(0, old, Direction.upstream), (900, old, .downstream), (2500, old, .upstream), (2600, old, .downstream), (2600, new, .upstream)] {
            _ = link.submit(100, direction, flow: flow, at: .milliseconds(Int64(time)))
            actions += link.advance(to: .milliseconds(Int64(time) + 50))
        }
        actions += drain(&link).map(\.action)
        #expect(actions == [
            .deliver(0, .upstream), .deliver(1, .downstream), .drop(2, .upstream, .natExpired), .drop(3, .downstream, .natExpired), .deliver(4, .upstream),
        ])
        let expiries = recorder.events.filter { $0.kind == .natExpired }
        #expect(expiries.map(\.detail) == ["silent: idle 1.6 s, the NAT's timeout is 1 s"])
    }

    @Test func jitterNeverReordersPackets() {
        let jitter = JitterProfile(amount: .milliseconds(80), distribution: .uniform)
        let profile = TestProfiles.symmetric(TestProfiles.link(rate: .bitsPerSecond(10_000_000), delay: .milliseconds(100), jitter: jitter))
        var link = PacketLink(profile: profile, seed: 3)
        for index in 0 ..< 200 { _ = link.submit(200, .downstream, at: .milliseconds(Int64(index))) }
        let order = drain(&link).compactMap { if case let .deliver(id, _) = $0.action { id } else { nil } }
        #expect(order == Array(0 ..< 200))
    }
}

extension PacketLink {
    /// Advances to `time`, returning what came out.
    fileprivate mutating func drainTo(_ time: ShaperInstant) -> [PacketAction] {
        advance(to: time)
    }
}
