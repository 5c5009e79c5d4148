import LowbandProfiles
import LowbandShaper
import Testing

/// The floor and the median a profile implies for one frame, against figures worked out by hand
/// and against the jitter the shaper itself draws.
@Suite struct PhysicalFloorTests {
    // MARK: The shipped profiles, by hand (a 300-byte frame)

    @Test func perfectHasNothingToWaitFor() throws {
        let floor = PhysicalFloor(profile: try NetworkProfile.load(named: "perfect"), frameBytes: 300)
        #expect(floor.least == .zero)
        #expect(floor.median == .zero)
        #expect(floor.ratioToMedian(of: .microseconds(300)) == nil, "no ratio to a zero median")
    }

    @Test func threeGIsTheDelayLessItsNormalJitterPlusTheBytes() throws {
        // 100 ms ± 25 ms (normal, bounded); 300 bytes + 52 of TCP/IP headers = 2816 bit at
        // 1.5 Mbit/s = 1.877334 ms (rounded up to the nanosecond, as the shaper does).
        let floor = PhysicalFloor(profile: try NetworkProfile.load(named: "3g"), frameBytes: 300)
        #expect(floor.least == .nanoseconds(76_877_334))
        #expect(floor.median == .nanoseconds(101_877_334), "normal jitter is symmetric: the median adds nothing")
    }

    @Test func edgeIsTheDelayLessItsNormalJitterPlusTheBytes() throws {
        // 200 ms ± 50 ms (normal); (300 + 52) × 8 = 2816 bit at 150 kbit/s = 18.773334 ms.
        let floor = PhysicalFloor(profile: try NetworkProfile.load(named: "edge"), frameBytes: 300)
        #expect(floor.least == .nanoseconds(168_773_334))
        #expect(floor.median == .nanoseconds(218_773_334))
        let ratio = try #require(floor.ratioToMedian(of: .nanoseconds(229_712_000)))
        #expect(abs(ratio - 1.05) < 1e-5)
    }

    @Test func gprsParetoJitterOnlyAddsSoTheFloorKeepsTheWholeDelay() throws {
        // 350 ms + 0 … 200 ms Pareto at 25 % correlation; (300 + 52) × 8 = 2816 bit at 40 kbit/s
        // = 70.4 ms.
        let floor = PhysicalFloor(profile: try NetworkProfile.load(named: "gprs"), frameBytes: 300)
        #expect(floor.least == .microseconds(420_400))
        // Median of the correlated mix: 0.0808 × 200 ms (a two-million-draw simulation of the
        // shaper's formula gives 0.08087; uncorrelated it would be 0.1 × (2^⅔ − 1) = 0.05874).
        let median = try #require(floor.median)
        #expect(abs((median - .microseconds(420_400)) / .milliseconds(1) - 16.17) < 0.05, "\(median)")
    }

    @Test func uncorrelatedParetoHasTheLomaxMedianInClosedForm() {
        let jitter = JitterProfile(amount: .milliseconds(1000), distribution: .pareto)
        // scale × (2^(1/shape) − 1) = 100 ms × (2^(2/3) − 1) = 58.7401 ms.
        #expect(abs(PhysicalFloor.medianJitter(jitter) / .milliseconds(1) - 58.7401) < 0.001)
    }

    // MARK: Edges of the formula

    @Test func roundsTheCrossingUpToTheNanosecondAsTheShaperDoes() {
        // 1 byte at 3 bit/s: 8/3 s = 2.666…666 s, rounded up.
        let floor = PhysicalFloor(link: LinkProfile(rate: .bitsPerSecond(3)), frameBytes: 1)
        #expect(floor.least == .nanoseconds(2_666_666_667))
    }

    @Test func aFrameLongerThanTheMTUCostsItsWholeSizeOnce() {
        // Pieces cross back to back: 3000 bytes at 1.2 Mbit/s = 20 ms whatever the MTU.
        let floor = PhysicalFloor(link: LinkProfile(rate: .bitsPerSecond(1_200_000)), frameBytes: 3_000)
        #expect(floor.least == .milliseconds(20))
        #expect(floor.median == .milliseconds(20))
    }

    @Test func jitterLargerThanTheDelayStopsAtZero() {
        let link = LinkProfile(rate: .unlimited, delay: .milliseconds(10), jitter: JitterProfile(amount: .milliseconds(30)))
        #expect(PhysicalFloor(link: link, frameBytes: 100).least == .zero)
    }

    @Test func aTimelineTakesTheLeastFloorOfItsSegmentsAndHasNoSingleMedian() {
        let slow = LinkProfile(rate: .bitsPerSecond(64_000), delay: .milliseconds(100))
        let fast = LinkProfile(rate: .unlimited, delay: .milliseconds(30))
        let segment = ProfileSegment(duration: .seconds(1), downlink: fast, uplink: fast)
        let profile = NetworkProfile(name: "varying", downlink: slow, uplink: slow, timeline: ProfileTimeline(loops: true, segments: [segment]))
        let floor = PhysicalFloor(profile: profile, frameBytes: 400)
        #expect(floor.least == .milliseconds(30))
        #expect(floor.median == nil)
    }

    // MARK: Against the shaper's own draws

    /// One-way times of `count` 100-byte frames a second apart on a link of `jitter` around
    /// 350 ms at 1 Mbit/s (0.8 ms crossing), and the floor of such a frame.
    private func sampled(_ jitter: JitterProfile, count: Int = 3_000) -> (times: [Duration], floor: PhysicalFloor) {
        let link = TestProfiles.link(rate: .bitsPerSecond(1_000_000), delay: .milliseconds(350), jitter: jitter)
        var virtual = VirtualLink(TestProfiles.symmetric(link), seed: 11)
        let id = virtual.open().id
        var sent: [ShaperInstant] = []
        for index in 0 ..< count {
            virtual.run(until: ShaperInstant.zero + .seconds(1) * index)
            sent.append(virtual.time)
            virtual.submit(100, on: id)
        }
        virtual.run()
        return (zip(virtual.deliveries, sent).map { $0.time - $1 }, PhysicalFloor(link: link, frameBytes: 100))
    }

    @Test(arguments: [
        JitterProfile(amount: .milliseconds(200), distribution: .pareto, correlation: 0.25),
        JitterProfile(amount: .milliseconds(200), distribution: .pareto),
        JitterProfile(amount: .milliseconds(200), distribution: .pareto, correlation: 0.6),
        JitterProfile(amount: .milliseconds(50), distribution: .normal, correlation: 0.25),
        JitterProfile(amount: .milliseconds(50), distribution: .uniform),
    ])
    func theMedianIsWhatTheShaperDrawsAndNothingBeatsTheFloor(jitter: JitterProfile) throws {
        let (times, floor) = sampled(jitter)
        #expect(times.count == 3_000)
        #expect(times.allSatisfy { $0 >= floor.least }, "fastest \(times.min() ?? .zero), floor \(floor.least)")
        let sorted = times.sorted()
        let sampledMedian = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        let median = try #require(floor.median)
        // About four standard errors of a 3000-sample median; the uncorrelated formula would be
        // 4.4 ms off at 25 % Pareto correlation, 9 ms at 60 %.
        let tolerance: Duration = jitter.distribution == .pareto ? .milliseconds(2) : .milliseconds(3)
        #expect(abs((sampledMedian - median) / .milliseconds(1)) < tolerance / .milliseconds(1), "sampled \(sampledMedian), formula \(median)")
    }
}
