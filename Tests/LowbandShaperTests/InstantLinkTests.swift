@testable import LowbandShaper
import Testing

/// A link that never holds a byte back (no rate limit, delay, jitter, loss, outage, radio, NAT
/// or reset) delivers each submit in the same call, without timers. What it decides and traces
/// must be exactly what the timers decide on the same link: the same lines, in the same order.
@Suite struct InstantLinkTests {
    /// The same link with a reset rule that never fires: the shaper then takes the timers.
    private static func timed(_ profile: NetworkProfile) -> NetworkProfile {
        var timed = profile
        timed.resets = ResetProfile(probability: 0, afterTime: .seconds(1) ... .seconds(2))
        return timed
    }

    /// Opens three connections, submits in both directions (several at one instant, more than
    /// the queue holds at once, after a close), and collects every action in order.
    private static func play(_ profile: NetworkProfile) -> (actions: [ShaperAction], trace: [ShaperEvent], instant: Bool) {
        let recorder = ShaperTraceRecorder()
        var shaper = NetworkShaper(profile: profile, seed: 11, trace: recorder)
        var actions: [ShaperAction] = []
        func settle(_ now: ShaperInstant) {
            while let wakeup = shaper.nextWakeup, wakeup <= now {
                actions += shaper.advance(to: now)
            }
        }
        let a = shaper.open(at: .zero).id
        let b = shaper.open(at: .seconds(0.001)).id
        for step in 0 ..< 40 {
            let now = ShaperInstant.seconds(0.002 + Double(step) * 0.0005)
            _ = shaper.submit(1 + step * 37, on: a, step.isMultiple(of: 2) ? .upstream : .downstream, at: now)
            _ = shaper.submit(1_500, on: b, .downstream, at: now)
            if step == 10 { _ = shaper.submit(90_000, on: b, .upstream, at: now) }
            settle(now)
        }
        shaper.close(a, at: .seconds(0.03))
        let c = shaper.open(at: .seconds(0.031)).id
        _ = shaper.submit(64, on: a, .upstream, at: .seconds(0.032))
        _ = shaper.submit(64, on: c, .upstream, at: .seconds(0.032))
        settle(.seconds(0.032))
        return (actions, recorder.events, shaper.instant)
    }

    @Test func anInstantLinkDecidesAndTracesWhatTheTimersDo() {
        let perfect = TestProfiles.symmetric(TestProfiles.link(rate: .unlimited, delay: .zero, queue: 50_000))
        let atOnce = Self.play(perfect)
        let timers = Self.play(Self.timed(perfect))
        #expect(atOnce.instant)
        #expect(!timers.instant)
        #expect(atOnce.actions == timers.actions)
        #expect(atOnce.trace == timers.trace)
        #expect(atOnce.trace.contains { $0.kind == .deliver && $0.bytes == 90_000 })
    }

    @Test func anyDelayRateJitterOrLossKeepsTheTimers() {
        let links = [
            TestProfiles.link(rate: .unlimited, delay: .microseconds(1)),
            TestProfiles.link(rate: .bitsPerSecond(1_000_000_000), delay: .zero),
            TestProfiles.link(rate: .unlimited, delay: .zero, jitter: JitterProfile(amount: .microseconds(1))),
            TestProfiles.link(rate: .unlimited, delay: .zero, loss: LossProfile(rate: 0.001)),
        ]
        for link in links {
            #expect(!NetworkShaper.passesAtOnce(TestProfiles.symmetric(link)))
        }
        #expect(NetworkShaper.passesAtOnce(TestProfiles.symmetric(TestProfiles.link(rate: .unlimited, delay: .zero))))
    }
}
