import LowbandShaper
import Testing

/// The bottleneck moves exactly the configured rate, shared fairly, and Mahimahi traces and
/// timelines set it. Virtual time is exact, so the tolerances only absorb jitter and edges.
@Suite struct ThroughputTests {
    /// Bits per second between the first and the last delivery (the first piece not counted).
    private func throughput(_ link: VirtualLink) throws -> Double {
        let first = try #require(link.deliveries.first)
        let last = try #require(link.deliveries.last)
        let bits = Double(link.delivered() - first.bytes) * 8
        return bits / (last.time - first.time).inSeconds
    }

    @Test(arguments: [40_000, 150_000, 1_500_000, 10_000_000] as [Int64])
    func bulkTransferRunsAtTheConfiguredRate(bitsPerSecond: Int64) throws {
        let profile = TestProfiles.symmetric(TestProfiles.link(
            rate: .bitsPerSecond(bitsPerSecond), delay: .milliseconds(200),
            jitter: JitterProfile(amount: .milliseconds(50), distribution: .uniform), queue: 30_000
        ))
        var link = VirtualLink(profile)
        let bytes = Int(bitsPerSecond * 30 / 8)  // thirty seconds' worth
        let id = link.open().id
        link.send(bytes, on: id)
        link.run()
        #expect(link.delivered() == bytes)
        let measured = try throughput(link)
        #expect(abs(measured / Double(bitsPerSecond) - 1) < 0.01, "measured \(measured) bit/s")
    }

    @Test func steadyStateWindowCarriesRateTimesTime() {
        let profile = TestProfiles.symmetric(TestProfiles.link(rate: .bitsPerSecond(150_000), delay: .milliseconds(200)))
        var link = VirtualLink(profile)
        let id = link.open().id
        link.send(1_000_000, on: id)
        link.run()
        let window = link.delivered(from: .seconds(10), to: .seconds(40))
        #expect(abs(Double(window) / (150_000.0 * 30 / 8) - 1) < 0.01, "\(window) bytes in 30 s")
    }

    @Test func twoConnectionsOfOneDeviceShareTheRate() throws {
        let profile = TestProfiles.symmetric(TestProfiles.link(rate: .bitsPerSecond(1_000_000), delay: .milliseconds(100)))
        var link = VirtualLink(profile)
        let first = link.open().id
        let second = link.open().id
        link.send(4_000_000, on: first)
        link.send(4_000_000, on: second)
        link.run()
        let (start, end) = (ShaperInstant.seconds(2), ShaperInstant.seconds(30))
        let expected = 1_000_000.0 * 28 / 8
        let a = Double(link.delivered(on: first, from: start, to: end))
        let b = Double(link.delivered(on: second, from: start, to: end))
        #expect(abs((a + b) / expected - 1) < 0.01, "combined \(a + b) bytes, expected \(expected)")
        #expect(abs(a / (expected / 2) - 1) < 0.02, "first got \(a)")
        #expect(abs(b / (expected / 2) - 1) < 0.02, "second got \(b)")
        #expect(link.delivered(on: first) == 4_000_000 && link.delivered(on: second) == 4_000_000)
    }

    @Test func aLateConnectionIsNotStuckBehindABulkOne() throws {
        let profile = TestProfiles.symmetric(TestProfiles.link(rate: .bitsPerSecond(150_000), delay: .milliseconds(200), queue: 60_000))
        var link = VirtualLink(profile)
        let bulk = link.open().id
        link.send(500_000, on: bulk)
        link.run(until: .seconds(5))
        let chat = link.open().id
        link.submit(200, on: chat)
        link.run(until: .seconds(10))
        // Round-robin by piece: the message waits for at most one bulk piece (80 ms), not the 60 KB queue (3.2 s).
        let message = try #require(link.deliveries.first { $0.id == chat })
        let latency = message.time - .seconds(5)
        #expect(latency <= .milliseconds(200 + 80 + 11), "took \(latency)")
    }

    @Test(arguments: [("1\n", 12_000_000.0), ("5\n", 2_400_000.0), ("1\n1\n2\n", 18_000_000.0)])
    func mahimahiTraceSetsTheRate(text: String, bitsPerSecond: Double) throws {
        let trace = try MahimahiTrace(text: text, file: "test.trace")
        #expect(trace.averageBitsPerSecond == bitsPerSecond)
        let profile = TestProfiles.symmetric(TestProfiles.link(rate: .trace(trace), delay: .milliseconds(20)))
        var link = VirtualLink(profile)
        let id = link.open().id
        let bytes = Int(bitsPerSecond * 5 / 8)
        link.send(bytes, on: id)
        link.run()
        #expect(link.delivered() == bytes)
        let measured = try throughput(link)
        #expect(abs(measured / bitsPerSecond - 1) < 0.01, "measured \(measured) bit/s")
    }

    @Test func mahimahiOpportunitiesAreOnTheMillisecond() throws {
        let trace = try MahimahiTrace(text: "1\n", file: "test.trace")
        var link = VirtualLink(TestProfiles.symmetric(TestProfiles.link(rate: .trace(trace), delay: .zero)))
        let id = link.open().id
        link.advance(to: ShaperInstant(nanoseconds: 2_300_000))
        link.submit(100, on: id)
        link.run()
        // Submitted at 2.3 ms, the next opportunity is at 3 ms; the one at 2 ms has passed unused.
        #expect(link.deliveries.map(\.time) == [.milliseconds(3)])
    }

    @Test func timelineChangesTheRateAtTheSegmentBoundary() {
        let fast = TestProfiles.link(rate: .bitsPerSecond(1_000_000), delay: .zero)
        var slow = fast
        slow.rate = .bitsPerSecond(250_000)
        var profile = TestProfiles.symmetric(fast)
        profile.timeline = ProfileTimeline(loops: false, segments: [
            ProfileSegment(name: "fast", duration: .seconds(10), downlink: fast, uplink: fast),
            ProfileSegment(name: "slow", duration: .seconds(10), downlink: slow, uplink: slow),
        ])
        var link = VirtualLink(profile)
        let id = link.open().id
        link.send(4_000_000, on: id)
        link.run(until: .seconds(25))
        let rate = { (from: Double, to: Double) in Double(link.delivered(from: .seconds(from), to: .seconds(to))) * 8 / (to - from) }
        #expect(abs(rate(1, 10) / 1_000_000 - 1) < 0.01, "first segment \(rate(1, 10))")
        #expect(abs(rate(10, 20) / 250_000 - 1) < 0.01, "second segment \(rate(10, 20))")
        #expect(abs(rate(20, 25) / 1_000_000 - 1) < 0.01, "after the timeline, the base again: \(rate(20, 25))")
        // Exact at the edge: what crosses the boundary by 10 s is 1 Mbit/s × 10 s, to the piece.
        #expect(abs(link.delivered(to: .seconds(10)) - 1_250_000) <= 1500)
    }

    @Test func loopingTimelineRepeats() {
        let fast = TestProfiles.link(rate: .bitsPerSecond(1_000_000), delay: .zero)
        var slow = fast
        slow.rate = .bitsPerSecond(250_000)
        var profile = TestProfiles.symmetric(fast)
        profile.timeline = ProfileTimeline(loops: true, segments: [
            ProfileSegment(duration: .seconds(5), downlink: fast, uplink: fast),
            ProfileSegment(duration: .seconds(5), downlink: slow, uplink: slow),
        ])
        var link = VirtualLink(profile)
        let id = link.open().id
        link.send(4_000_000, on: id)
        link.run(until: .seconds(20))
        let rate = { (from: Double, to: Double) in Double(link.delivered(from: .seconds(from), to: .seconds(to))) * 8 / (to - from) }
        #expect(abs(rate(10.5, 15) / 1_000_000 - 1) < 0.01)
        #expect(abs(rate(15.5, 20) / 250_000 - 1) < 0.01)
    }

    @Test func unlimitedLinkDeliversAtOnce() {
        let profile = TestProfiles.symmetric(TestProfiles.link(rate: .unlimited, delay: .zero, queue: 100_000))
        var link = VirtualLink(profile)
        let id = link.open().id
        link.advance(to: .seconds(1))
        let accepting = link.submit(50_000, on: id)
        #expect(accepting)
        #expect(link.shaper.nextWakeup == .seconds(1))
        link.run()
        #expect(link.delivered() == 50_000)
        #expect(link.deliveries.allSatisfy { $0.time == .seconds(1) })
    }
}
