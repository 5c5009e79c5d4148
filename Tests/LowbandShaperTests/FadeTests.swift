@testable import LowbandShaper
import LowbandDeterminism
import Testing

/// Bursty loss in time: fades of the profile's mean length that cover the profile's share of
/// the time, so a retransmission's fate depends on when it is sent.
@Suite struct FadeTests {
    /// Samples the fades of `loss` every `step` for `span`: the share of time in a fade and the
    /// fades' mean length.
    private func measure(_ loss: LossProfile, seed: UInt64, span: Duration, step: Duration) -> (share: Double, meanFade: Duration, fades: Int) {
        var fades = Fades(generator: SeededGenerator(seed: seed))
        let stepNs = step.nanosecondsClamped
        var faded = 0
        var samples = 0
        var runs: [Int] = []
        var run = 0
        var time: Int64 = 0
        while time < span.nanosecondsClamped {
            if fades.isFading(at: time, loss: { _ in loss }) {
                faded += 1
                run += 1
            } else if run > 0 {
                runs.append(run)
                run = 0
            }
            samples += 1
            time += stepNs
        }
        let mean = Double(runs.reduce(0, +)) / Double(max(1, runs.count)) * Double(stepNs)
        return (Double(faded) / Double(samples), .nanoseconds(Int64(mean)), runs.count)
    }

    /// The shipped bursty profiles' figures: edge (1 %, 300 ms) and gprs (0.5 %, 500 ms).
    @Test(arguments: [(0.01, 300), (0.005, 500)])
    func theLongRunShareAndTheMeanFadeAreTheProfiles(rate: Double, burstMilliseconds: Int64) {
        let loss = LossProfile(rate: rate, burst: .milliseconds(burstMilliseconds))
        let span = Duration.seconds(Double(burstMilliseconds) / 1000 / rate * 1500)
        let (share, meanFade, count) = measure(loss, seed: 7, span: span, step: .milliseconds(10))
        #expect(count > 1200, "\(count) fades")
        #expect(abs(share - rate) / rate < 0.1, "share of time in a fade \(share), profile \(rate)")
        let expected = Double(burstMilliseconds) / 1000
        #expect(abs(meanFade.inSeconds - expected) / expected < 0.1, "mean fade \(meanFade), profile \(burstMilliseconds) ms")
    }

    /// The fades are a function of the seed alone: sampled densely or sparsely, the same
    /// instants are in a fade.
    @Test func theFadesDoNotDependOnWhoSamplesThem() {
        let loss = LossProfile(rate: 0.05, burst: .milliseconds(200))
        var dense = Fades(generator: SeededGenerator(seed: 3))
        var sparse = Fades(generator: SeededGenerator(seed: 3))
        var denseAt: [Bool] = []
        for time in stride(from: Int64(0), to: 600_000_000_000, by: 1_000_000) {
            let fading = dense.isFading(at: time, loss: { _ in loss })
            if time % 997_000_000 == 0 { denseAt.append(fading) }
        }
        let sparseAt = stride(from: Int64(0), to: 600_000_000_000, by: 997_000_000).map { sparse.isFading(at: $0, loss: { _ in loss }) }
        #expect(denseAt == sparseAt)
        #expect(sparseAt.contains(true) && sparseAt.contains(false))
    }

    /// On a busy link the bottleneck samples the fades all the time: the share of pieces lost
    /// is the profile's rate and the lost pieces come in runs as long as a fade.
    @Test func aBusyLinkLosesTheRatesShareOfPiecesInRunsAsLongAsAFade() throws {
        let recorder = ShaperTraceRecorder()
        let loss = LossProfile(rate: 0.05, burst: .milliseconds(200), rto: .seconds(1))
        var link = VirtualLink(TestProfiles.symmetric(TestProfiles.link(rate: .bitsPerSecond(1_000_000), loss: loss, queue: 10_000_000)), seed: 5, trace: recorder)
        // Enough connections that the bottleneck still has one to send while a long fade
        // stalls every connection it caught.
        for _ in 0 ..< 200 {
            let id = link.open().id
            link.send(1_000_000, on: id)
        }
        link.run()
        #expect(link.delivered() == 200_000_000)
        let lost = recorder.events.filter { $0.kind == .lossStall }.map(\.time)
        let delivered = recorder.events.filter { $0.kind == .deliver }.count
        let share = Double(lost.count) / Double(lost.count + delivered)
        #expect(abs(share - 0.05) < 0.01, "lost \(lost.count) of \(lost.count + delivered)")
        // Losses 12 ms apart (one piece) belong to one fade; a fade's length is from its first
        // loss to its last plus one piece.
        var fades: [Duration] = []
        var start = lost[0]
        for (previous, time) in zip(lost, lost.dropFirst()) where time - previous > .milliseconds(13) {
            fades.append(previous - start + .milliseconds(12))
            start = time
        }
        let mean = fades.reduce(Duration.zero, +) / fades.count
        // Exponential fades: over 350 of them the mean is within 5.4 % (one σ) of 200 ms; fades
        // shorter than a piece are missed, which lengthens the mean seen a little.
        #expect(fades.count > 350, "\(fades.count) fades")
        #expect(mean > .milliseconds(160) && mean < .milliseconds(240), "mean fade seen by the pieces \(mean) over \(fades.count)")
    }

    /// The point of fades in time: a retransmission an RTO later finds a fade shorter than the
    /// RTO over, so losses rarely repeat; a fade longer than the RTO repeats them.
    @Test func aRetransmissionAfterAShortFadeGetsThrough() {
        func repeatedShare(_ burst: Duration) -> Double {
            let recorder = ShaperTraceRecorder()
            let loss = LossProfile(rate: 0.1, burst: burst, rto: .seconds(1))
            var link = VirtualLink(TestProfiles.symmetric(TestProfiles.link(rate: .bitsPerSecond(1_000_000), loss: loss)), seed: 3, trace: recorder)
            let id = link.open().id
            link.send(30_000_000, on: id)
            link.run()
            let stalls = recorder.events.filter { $0.kind == .lossStall }
            let repeats = zip(stalls, stalls.dropFirst()).filter { $1.delay! > $0.delay! }.count
            return Double(repeats) / Double(max(1, stalls.count))
        }
        let short = repeatedShare(.milliseconds(200))
        let long = repeatedShare(.seconds(5))
        // With 200 ms fades covering 10 % of the time, a retransmission 1 s later is lost about
        // as often as any piece (10.4 %); with 5 s fades most retransmissions are lost again.
        #expect(short < 0.2, "share of losses that repeat with 200 ms fades: \(short)")
        #expect(long > 0.5, "share of losses that repeat with 5 s fades: \(long)")
    }
}
