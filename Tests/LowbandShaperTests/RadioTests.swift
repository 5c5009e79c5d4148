import LowbandShaper
import Testing

/// The radio as a ladder of power states: inactivity timers drop it a state at a time, a
/// transfer in a lower state waits for the promotion back to the top, and the time in each
/// state, times its power, is the energy.
@Suite struct RadioTests {
    /// Qian et al.'s 3G: DCH (800 mW) → 5 s → FACH (460 mW) → 12 s → IDLE (0), promotions 1.5 s
    /// from FACH and 2 s from IDLE.
    static let umts = RadioProfile(states: [
        .init(name: "CELL_DCH", milliwatts: 800, demoteAfter: .seconds(5)),
        .init(name: "CELL_FACH", milliwatts: 460, demoteAfter: .seconds(12), promotion: .milliseconds(1500) ... .milliseconds(1500)),
        .init(name: "IDLE", milliwatts: 0, demoteAfter: nil, promotion: .seconds(2) ... .seconds(2)),
    ])

    private func profile(_ radio: RadioProfile = Self.umts) -> NetworkProfile {
        var profile = TestProfiles.symmetric(TestProfiles.link(rate: .bitsPerSecond(1_000_000), delay: .milliseconds(50)))
        profile.radio = radio
        return profile
    }

    @Test func aTransferWaitsForThePromotionFromTheStateTheRadioIsIn() throws {
        let recorder = ShaperTraceRecorder()
        var link = VirtualLink(profile(), trace: recorder)
        let id = link.open().id
        // At the top: 0.8 ms on the bottleneck, 50 ms on the way.
        link.submit(100, on: id, .upstream)
        link.run(until: .seconds(10))
        // 10 s later the radio is in FACH (since 5.0508 s): 1.5 s to promote first.
        link.submit(100, on: id, .upstream)
        link.run(until: .seconds(40))
        // Then idle for more than 5 + 12 s: in IDLE, 2 s to promote.
        link.submit(100, on: id, .upstream)
        link.run(until: .seconds(60))
        let arrivals = link.deliveries.map { $0.time.seconds }
        #expect(arrivals.count == 3)
        #expect(abs(arrivals[0] - 0.0508) < 1e-9)
        #expect(abs(arrivals[1] - 11.5508) < 1e-9, "\(arrivals)")
        #expect(abs(arrivals[2] - 42.0508) < 1e-9, "\(arrivals)")
        let wakeups = recorder.events.filter { $0.kind == .wakeup }
        #expect(wakeups.map(\.detail) == ["from CELL_FACH to CELL_DCH", "from IDLE to CELL_DCH"])
        #expect(wakeups.map(\.delay) == [.milliseconds(1500), .seconds(2)])
        let drops = recorder.events.filter { $0.kind == .radio }
        #expect(drops.map(\.detail) == ["CELL_DCH → CELL_FACH", "CELL_DCH → CELL_FACH", "CELL_FACH → IDLE", "CELL_DCH → CELL_FACH", "CELL_FACH → IDLE"])
        #expect(abs(drops[0].time.seconds - 5.0508) < 1e-9 && abs(drops[2].time.seconds - 28.5508) < 1e-9, "\(drops.map(\.time))")
        let statistics = try #require(link.shaper.radioStatistics(at: .seconds(60)))
        #expect(statistics.promotions == 2)
        #expect(abs(statistics.promotingSeconds - 3.5) < 1e-9)
    }

    /// Qian et al.'s FACH sends small transfers on its shared channel itself: at most 543 B
    /// waiting to go up or 475 B to come down, no promotion, and its 12 s timer starts again;
    /// more, and the radio is promoted to DCH first. From IDLE every transfer is promoted.
    @Test func fachCarriesSmallTransfersWithoutAPromotion() throws {
        var states = Self.umts.states
        states[1].carries = RadioProfile.Carried(uplink: 543, downlink: 475)
        let recorder = ShaperTraceRecorder()
        var link = VirtualLink(profile(RadioProfile(states: states)), trace: recorder)
        let id = link.open().id
        link.submit(100, on: id, .upstream)
        link.run(until: .seconds(10))
        // In FACH since 5.0508 s: 100 B go at once, and FACH lasts 12 s from their arrival.
        link.submit(100, on: id, .upstream)
        link.run(until: .seconds(15))
        // Still in FACH: 1,000 B are over the threshold, 1.5 s to DCH first.
        link.submit(1_000, on: id, .upstream)
        link.run(until: .seconds(40))
        // In IDLE since 33.558 s: even 100 B wait 2 s.
        link.submit(100, on: id, .upstream)
        link.run(until: .seconds(50))
        // In FACH again (since 47.0508 s): 400 B come down at once, 500 B are over 475.
        link.submit(400, on: id, .downstream)
        link.run(until: .seconds(52))
        link.submit(500, on: id, .downstream)
        link.run(until: .seconds(60))
        let arrivals = link.deliveries.map { $0.time.seconds }
        let expected = [0.0508, 10.0508, 16.558, 42.0508, 50.0532, 53.554]
        #expect(arrivals.count == expected.count && zip(arrivals, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(arrivals)")
        let wakeups = recorder.events.filter { $0.kind == .wakeup }
        #expect(wakeups.map(\.detail) == ["from CELL_FACH to CELL_DCH", "from IDLE to CELL_DCH", "from CELL_FACH to CELL_DCH"])
        // The carried transfer restarted FACH's timer: IDLE 12 s after it, not 17 s after DCH.
        let drops = recorder.events.filter { $0.kind == .radio }.map { "\($0.detail ?? "") at \(String(format: "%.4f", $0.time.seconds))" }
        #expect(drops.prefix(3) == ["CELL_DCH → CELL_FACH at 5.0508", "CELL_DCH → CELL_FACH at 21.5580", "CELL_FACH → IDLE at 33.5580"], "\(drops)")
        let statistics = try #require(link.shaper.radioStatistics(at: .seconds(60)))
        let seconds = Dictionary(uniqueKeysWithValues: statistics.secondsInState.map { ($0.name, $0.seconds) })
        #expect(statistics.promotions == 3 && abs(statistics.promotingSeconds - 5) < 1e-9)
        #expect(abs(seconds["CELL_DCH"]! - 20.2136) < 1e-9, "\(seconds)")
        #expect(abs(seconds["CELL_FACH"]! - 28.3444) < 1e-9, "\(seconds)")
        #expect(abs(seconds["IDLE"]! - 6.442) < 1e-9, "\(seconds)")
        let joules = try #require(statistics.joules)
        let expectedJoules: Double = 25.2136 * 0.8 + 28.3444 * 0.46
        #expect(abs(joules - expectedJoules) < 1e-9)
    }

    /// One transfer, then a minute of silence: DCH until 5 s after its arrival, FACH for 12 s,
    /// then IDLE: 5.0508 s × 800 mW + 12 s × 460 mW = 9.56064 J.
    @Test func energyIsTheTimeInEachStateTimesItsPower() throws {
        var link = VirtualLink(profile())
        let id = link.open().id
        link.submit(100, on: id, .upstream)
        link.run(until: .seconds(60))
        let statistics = try #require(link.shaper.radioStatistics(at: .seconds(60)))
        let seconds = Dictionary(uniqueKeysWithValues: statistics.secondsInState.map { ($0.name, $0.seconds) })
        #expect(abs(seconds["CELL_DCH"]! - 5.0508) < 1e-9)
        #expect(abs(seconds["CELL_FACH"]! - 12) < 1e-9)
        #expect(abs(seconds["IDLE"]! - 42.9492) < 1e-9)
        #expect(abs(statistics.onSeconds - 17.0508) < 1e-9)
        #expect(abs(try #require(statistics.joules) - 9.56064) < 1e-9)
    }

    /// Huang et al.'s LTE: leaving DRX takes 20 ms, leaving RRC_IDLE 260 ms at 1210 mW.
    @Test func lteWakesFromDRXQuicklyAndFromIdleSlowly() throws {
        let lte = RadioProfile(states: [
            .init(name: "RRC_CONNECTED", milliwatts: 1288, demoteAfter: .milliseconds(100)),
            .init(name: "RRC_CONNECTED_DRX", milliwatts: 1060, demoteAfter: .milliseconds(11_476), promotion: .milliseconds(20) ... .milliseconds(20)),
            .init(name: "RRC_IDLE", milliwatts: 20, demoteAfter: nil, promotion: .milliseconds(260) ... .milliseconds(260)),
        ], promotionMilliwatts: 1210)
        var link = VirtualLink(profile(lte))
        let id = link.open().id
        link.submit(100, on: id, .upstream)
        link.run(until: .seconds(1))
        link.submit(100, on: id, .upstream)
        link.run(until: .seconds(30))
        link.submit(100, on: id, .upstream)
        link.run(until: .seconds(31))
        let arrivals = link.deliveries.map { $0.time.seconds }
        #expect(abs(arrivals[1] - 1.0708) < 1e-9, "from DRX: \(arrivals)")
        #expect(abs(arrivals[2] - 30.3108) < 1e-9, "from idle: \(arrivals)")
        let statistics = try #require(link.shaper.radioStatistics(at: .seconds(31)))
        #expect(statistics.promotions == 2)
        #expect(abs(statistics.promotingSeconds - 0.28) < 1e-9)
    }

    /// A profile's `wakeup` is the two-state ladder: same delays as before, no energy.
    @Test func aWakeUpIsTheTwoStateLadderWithoutPower() throws {
        var profile = TestProfiles.symmetric(TestProfiles.link(rate: .bitsPerSecond(1_000_000), delay: .milliseconds(50)))
        profile.wakeUp = WakeUpProfile(idle: .seconds(10), delay: .milliseconds(400) ... .milliseconds(400))
        var link = VirtualLink(profile)
        let id = link.open().id
        link.run(until: .seconds(20))
        link.submit(100, on: id, .upstream)
        link.run(until: .seconds(30))
        #expect(abs(try #require(link.deliveries.first).time.seconds - 20.4508) < 1e-9)
        let statistics = try #require(link.shaper.radioStatistics(at: .seconds(30)))
        #expect(statistics.promotions == 1 && statistics.joules == nil)
    }
}
