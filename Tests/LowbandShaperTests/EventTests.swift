import LowbandShaper
import Testing

/// Outages, radio wake-up, connect delay, resets, close, and what idling costs.
@Suite struct EventTests {
    private let base = TestProfiles.link(rate: .bitsPerSecond(1_000_000), delay: .milliseconds(100))
    /// A 100-byte message at 1 Mbit/s plus the 100 ms delay.
    private let messageLatency: Duration = .microseconds(100_800)

    private func deliveryTime(_ profile: NetworkProfile, sendingAt time: ShaperInstant) throws -> ShaperInstant {
        var link = VirtualLink(profile)
        let id = link.open().id
        link.run(until: time)
        link.submit(100, on: id)
        link.run(until: time + .seconds(60))
        return try #require(link.deliveries.first).time
    }

    @Test func anOutageDelaysBytesByItsLengthAndResetsNothing() throws {
        var profile = TestProfiles.symmetric(base)
        let clean = try deliveryTime(profile, sendingAt: .seconds(10))
        #expect(clean == ShaperInstant.seconds(10) + messageLatency)
        profile.outages = [OutageProfile(start: .seconds(10) ... .seconds(10), duration: .seconds(5) ... .seconds(5))]
        #expect(try deliveryTime(profile, sendingAt: .seconds(10)) == clean + .seconds(5))
        #expect(try deliveryTime(profile, sendingAt: .seconds(12)) == ShaperInstant.seconds(15) + messageLatency)

        let recorder = ShaperTraceRecorder()
        var link = VirtualLink(profile, trace: recorder)
        let id = link.open().id
        link.send(2_500_000, on: id)  // 20 s at 1 Mbit/s, across the outage
        link.run()
        #expect(link.resets.isEmpty)
        #expect(link.shaper.openConnections == 1)
        #expect(link.delivered() == 2_500_000)
        #expect(link.deliveries.last!.time == .seconds(25.1), "20 s of sending + 5 s outage + 100 ms")
        #expect(link.deliveries.allSatisfy { $0.time < .seconds(10) || $0.time >= .seconds(15) }, "nothing arrives during the outage")
        let outageEvents = recorder.events.filter { $0.kind == .outageStart || $0.kind == .outageEnd }
        #expect(outageEvents.map(\.time) == [.seconds(10), .seconds(15)])
        #expect(outageEvents.allSatisfy { $0.delay == .seconds(5) && $0.detail == "blackout" })
    }

    @Test func periodicOutagesFollowTheirSchedule() {
        var profile = TestProfiles.symmetric(base)
        profile.outages = [OutageProfile(kind: .handover, start: .seconds(5) ... .seconds(5), duration: .seconds(2) ... .seconds(2), every: .seconds(10) ... .seconds(10))]
        let recorder = ShaperTraceRecorder()
        var link = VirtualLink(profile, trace: recorder)
        link.run(until: .seconds(40))
        let starts = recorder.events.filter { $0.kind == .outageStart }.map(\.time)
        #expect(starts == [.seconds(5), .seconds(15), .seconds(25), .seconds(35)])
        #expect(link.shaper.nextWakeup == nil, "outages alone never wake the proxy")
    }

    @Test func randomOutagesStayWithinTheirRanges() {
        var profile = TestProfiles.symmetric(base)
        profile.outages = [OutageProfile(start: .seconds(1) ... .seconds(3), duration: .seconds(1) ... .seconds(5), every: .seconds(10) ... .seconds(30))]
        let recorder = ShaperTraceRecorder()
        var link = VirtualLink(profile, seed: 11, trace: recorder)
        link.run(until: .seconds(1000))
        let starts = recorder.events.filter { $0.kind == .outageStart }
        let ends = recorder.events.filter { $0.kind == .outageEnd }
        #expect(starts.count > 30)
        #expect(starts[0].time >= .seconds(1) && starts[0].time <= .seconds(3))
        for (start, end) in zip(starts, ends) {
            #expect(end.time - start.time >= .seconds(1) && end.time - start.time <= .seconds(5))
        }
        for (a, b) in zip(starts, starts.dropFirst()) {
            #expect(b.time - a.time >= .seconds(10) && b.time - a.time <= .seconds(30))
        }
        #expect(Set(starts.map { $0.delay! }).count > 10, "durations vary")
    }

    @Test func wakeUpDelayAppliesOnlyAfterIdle() throws {
        var profile = TestProfiles.symmetric(base)
        profile.wakeUp = WakeUpProfile(idle: .seconds(5), delay: .seconds(1) ... .seconds(1))
        let recorder = ShaperTraceRecorder()
        var link = VirtualLink(profile, trace: recorder)
        let id = link.open().id
        link.submit(100, on: id)  // the radio starts awake
        link.run(until: .seconds(3))
        link.submit(100, on: id)  // idle 2.9 s: still awake
        link.run(until: .seconds(20))
        link.submit(100, on: id)  // idle ~17 s: wakes first
        link.run(until: .seconds(21.2))
        link.submit(100, on: id, .upstream)  // the reply right after: awake
        link.run()
        #expect(link.deliveries.map(\.time) == [
            ShaperInstant.zero + messageLatency,
            ShaperInstant.seconds(3) + messageLatency,
            ShaperInstant.seconds(21) + messageLatency,
            ShaperInstant.seconds(21.2) + messageLatency,
        ])
        #expect(recorder.events.filter { $0.kind == .wakeup }.map(\.time) == [.seconds(20)])
    }

    @Test func connectDelayIsReturnedByOpen() {
        var profile = TestProfiles.symmetric(base)
        profile.connectDelay = .milliseconds(400) ... .milliseconds(400)
        var link = VirtualLink(profile)
        link.advance(to: .seconds(2))
        let opened = link.open()
        #expect(opened.connectAt == .seconds(2.4))

        profile.connectDelay = .milliseconds(300) ... .milliseconds(500)
        var ranged = VirtualLink(profile)
        let delays = (0 ..< 20).map { _ in ranged.open().connectAt - .zero }
        #expect(delays.allSatisfy { $0 >= .milliseconds(300) && $0 <= .milliseconds(500) })
        #expect(Set(delays).count > 10)
    }

    @Test func connectWaitsForTheRadioAndOutages() {
        var profile = TestProfiles.symmetric(base)
        profile.connectDelay = .milliseconds(400) ... .milliseconds(400)
        profile.wakeUp = WakeUpProfile(idle: .seconds(5), delay: .seconds(1) ... .seconds(1))
        var link = VirtualLink(profile)
        let first = link.open()
        #expect(first.connectAt == .seconds(0.4), "awake at the start")
        link.advance(to: .seconds(30))
        let later = link.open()
        #expect(later.connectAt == .seconds(31.4), "after idling the radio wakes first")

        profile.wakeUp = nil
        profile.outages = [OutageProfile(start: .seconds(10) ... .seconds(10), duration: .seconds(5) ... .seconds(5))]
        var outage = VirtualLink(profile)
        outage.advance(to: .seconds(11))
        let during = outage.open()
        #expect(during.connectAt == .seconds(15.4))
    }

    @Test func offlineNeverMovesAndNeverResets() throws {
        var profile = TestProfiles.symmetric(base)
        profile.outages = [OutageProfile(start: .zero ... .zero, duration: nil)]
        var link = VirtualLink(profile)
        let opened = link.open()
        #expect(opened.connectAt == ShaperInstant(nanoseconds: .max))
        link.send(100_000, on: opened.id)
        #expect(link.shaper.nextWakeup == nil)
        link.run(until: .seconds(3600))
        #expect(link.deliveries.isEmpty && link.resets.isEmpty)
        #expect(link.shaper.queuedBytes(.downstream) == 4 * 16_384, "read until the 64 KB queue was full")
    }

    @Test func connectionsAreResetAfterTheirLifetime() {
        var profile = TestProfiles.symmetric(base)
        profile.resets = ResetProfile(probability: 1, afterTime: .seconds(10) ... .seconds(10))
        var link = VirtualLink(profile)
        let id = link.open().id
        link.send(10_000_000, on: id)
        link.run()
        #expect(link.resets.map(\.time) == [.seconds(10)])
        #expect(link.resets.map(\.id) == [id])
        #expect(link.deliveries.allSatisfy { $0.time <= .seconds(10) })
        #expect(link.shaper.openConnections == 0)
        #expect(link.shaper.queuedBytes(.downstream) == 0, "a reset connection's bytes leave the queue")
        #expect(link.shaper.nextWakeup == nil)
    }

    @Test func connectionsAreResetAfterTheirBytes() {
        var profile = TestProfiles.symmetric(base)
        profile.resets = ResetProfile(afterBytes: 10_000 ... 10_000)
        var link = VirtualLink(profile)
        let id = link.open().id
        link.send(100_000, on: id)
        link.run()
        #expect(link.delivered() == 10_500, "seven pieces: the one crossing 10,000 bytes is the last")
        #expect(link.resets.map(\.id) == [id])
    }

    @Test func aHealedProfileEndsItsOutagesAndResets() {
        var profile = TestProfiles.symmetric(base)
        profile.outages = [OutageProfile(start: .seconds(10) ... .seconds(10), duration: .seconds(8) ... .seconds(8), every: .seconds(20) ... .seconds(20))]
        profile.resets = ResetProfile(probability: 1, afterTime: .seconds(50) ... .seconds(50), afterBytes: 200_000 ... 200_000)
        var unhealed = VirtualLink(profile)
        profile.healedFrom = .seconds(34)
        var healed = VirtualLink(profile)
        unhealed.advance(to: .seconds(35))
        healed.advance(to: .seconds(35))
        // Before the healing both play the same outages: 10–18 s and one from 30 s; the healed
        // one's ends at 34 s instead of 38 s, and none begins after.
        #expect(unhealed.open().connectAt == .seconds(38))
        #expect(healed.open().connectAt == .seconds(35))
        healed.advance(to: .seconds(55))
        #expect(healed.open().connectAt == .seconds(55), "no outage from 50 s")
        // Resets by time and by bytes stop too.
        let id = healed.open().id
        healed.send(1_000_000, on: id)
        healed.run(until: .seconds(200))
        #expect(healed.resets.isEmpty)
        #expect(healed.delivered() >= 1_000_000)
        unhealed.advance(to: .seconds(55))
        let other = unhealed.open().id
        unhealed.send(1_000_000, on: other)
        unhealed.run(until: .seconds(200))
        #expect(!unhealed.resets.isEmpty)
    }

    @Test func resetProbabilityPicksConnections() {
        var profile = TestProfiles.symmetric(base)
        profile.resets = ResetProfile(probability: 0.5, afterTime: .seconds(1) ... .seconds(1))
        var link = VirtualLink(profile)
        for _ in 0 ..< 100 { _ = link.open() }
        link.run()
        #expect(link.resets.count > 30 && link.resets.count < 70, "\(link.resets.count) of 100")
    }

    @Test func closeDiscardsQueuedBytes() {
        var link = VirtualLink(TestProfiles.symmetric(base))
        let id = link.open().id
        link.submit(50_000, on: id)
        link.run(until: .seconds(0.1))
        link.close(id)
        #expect(link.shaper.queuedBytes(.downstream) == 0)
        #expect(link.shaper.queuedBytes(on: id, .downstream) == nil)
        link.run()
        #expect(link.delivered() < 50_000)
        #expect(link.shaper.nextWakeup == nil)
    }

    @Test func idleConnectionsCostNothing() {
        var profile = TestProfiles.symmetric(base)
        profile.outages = [OutageProfile(start: .seconds(1) ... .seconds(1), duration: .seconds(1) ... .seconds(1), every: .seconds(3) ... .seconds(3))]
        var link = VirtualLink(profile)
        for _ in 0 ..< 1000 { _ = link.open() }
        #expect(link.shaper.nextWakeup == nil)
        let id = link.open().id
        link.submit(3000, on: id)
        link.run()
        #expect(link.delivered() == 3000)
        #expect(link.shaper.nextWakeup == nil, "nothing to do once everything is delivered")
    }
}
