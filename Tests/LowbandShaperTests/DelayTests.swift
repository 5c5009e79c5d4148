import LowbandShaper
import Testing

/// One-way delay: base plus bounded, correlated jitter, never reordering a connection's bytes.
@Suite struct DelayTests {
    /// 1 Mbit/s: a 100-byte message takes 0.8 ms to cross the bottleneck.
    private static let serialization: Duration = .microseconds(800)

    /// Sends `count` 100-byte messages `spacing` apart and returns each one's one-way delay
    /// minus serialization.
    private func messageDelays(_ jitter: JitterProfile, count: Int = 300, spacing: Duration = .seconds(1), seed: UInt64 = 7) -> [Duration] {
        let profile = TestProfiles.symmetric(TestProfiles.link(rate: .bitsPerSecond(1_000_000), delay: .milliseconds(200), jitter: jitter))
        var link = VirtualLink(profile, seed: seed)
        let id = link.open().id
        var sent: [ShaperInstant] = []
        for index in 0 ..< count {
            link.run(until: ShaperInstant.zero + spacing * index)
            sent.append(link.time)
            link.submit(100, on: id)
        }
        link.run()
        return zip(link.deliveries, sent).map { $0.time - $1 - Self.serialization }
    }

    @Test func withoutJitterEveryMessageTakesTheBaseDelay() {
        let delays = messageDelays(.none, count: 20)
        #expect(delays.allSatisfy { $0 == .milliseconds(200) }, "\(delays)")
    }

    @Test(arguments: [JitterDistribution.uniform, .normal])
    func symmetricJitterStaysWithinItsBounds(distribution: JitterDistribution) {
        let delays = messageDelays(JitterProfile(amount: .milliseconds(50), distribution: distribution))
        #expect(delays.allSatisfy { $0 >= .milliseconds(150) && $0 <= .milliseconds(250) }, "\(delays.min()!) … \(delays.max()!)")
        #expect(Set(delays).count > 250, "jitter varies")
        let mean = delays.map(\.inSeconds).reduce(0, +) / Double(delays.count)
        #expect(abs(mean - 0.2) < 0.01, "mean \(mean)")
        // Uniform over ±50 ms has σ = 50/√3 ≈ 28.9 ms; normal has σ = 50/3 ≈ 16.7 ms.
        let deviation = (delays.map { ($0.inSeconds - mean) * ($0.inSeconds - mean) }.reduce(0, +) / Double(delays.count)).squareRoot()
        let expected = distribution == .uniform ? 0.05 / 3.0.squareRoot() : 0.05 / 3
        #expect(abs(deviation / expected - 1) < 0.15, "σ \(deviation), expected \(expected)")
    }

    @Test func paretoJitterOnlyAddsWithALongTail() {
        let delays = messageDelays(JitterProfile(amount: .milliseconds(400), distribution: .pareto))
        #expect(delays.allSatisfy { $0 >= .milliseconds(200) && $0 <= .milliseconds(600) })
        let sorted = delays.sorted()
        let median = sorted[sorted.count / 2]
        #expect(median < .milliseconds(240), "most samples are small: median \(median)")
        #expect(sorted.last! > .milliseconds(400), "the tail is long: max \(sorted.last!)")
    }

    @Test func correlationMakesConsecutiveSamplesCloser() {
        func meanStep(_ correlation: Double) -> Double {
            let delays = messageDelays(JitterProfile(amount: .milliseconds(50), distribution: .uniform, correlation: correlation))
            return zip(delays, delays.dropFirst()).map { abs(($1 - $0).inSeconds) }.reduce(0, +) / Double(delays.count - 1)
        }
        let independent = meanStep(0)
        let correlated = meanStep(0.9)
        #expect(correlated < independent / 3, "mean step \(correlated) vs \(independent)")
    }

    @Test func jitterNeverReordersAConnection() throws {
        let recorder = ShaperTraceRecorder()
        let profile = TestProfiles.symmetric(TestProfiles.link(
            rate: .bitsPerSecond(10_000_000), delay: .milliseconds(100),
            jitter: JitterProfile(amount: .milliseconds(90), distribution: .uniform)
        ))
        var link = VirtualLink(profile, trace: recorder)
        let id = link.open().id
        for index in 0 ..< 500 {
            link.run(until: .milliseconds(Int64(index) * 2))
            link.submit(300, on: id)
        }
        link.run()
        let delivered = recorder.events.filter { $0.kind == .deliver }
        #expect(delivered.count == 500)
        // Each piece left the queue at (time − delay); they arrive in that order.
        let departures = delivered.map { $0.time.nanoseconds - $0.delay!.nanosecondsClamped }
        #expect(departures == departures.sorted())
        // And jitter did try to reorder: some pieces were held behind a slower predecessor.
        let held = zip(delivered, delivered.dropFirst()).filter { $0.time == $1.time }.count
        #expect(held > 10)
    }

    @Test func eachDirectionHasItsOwnDelay() throws {
        var profile = TestProfiles.symmetric(TestProfiles.link(rate: .unlimited, delay: .milliseconds(50)))
        profile.uplink.delay = .milliseconds(65)
        var link = VirtualLink(profile)
        let id = link.open().id
        link.submit(100, on: id, .downstream)
        link.submit(100, on: id, .upstream)
        link.run()
        #expect(link.deliveries.map(\.time) == [.milliseconds(50), .milliseconds(65)])
        #expect(link.deliveries.map(\.direction) == [.downstream, .upstream])
    }
}
