import LowbandShaper
import PushBench
import Testing

/// The floor formula on profiles whose figures are known exactly.
@Suite struct PushFloorTests {
    private static func link(rate: LinkRate, delay: Duration = .milliseconds(100)) -> LinkProfile {
        LinkProfile(rate: rate, delay: delay, queueBytes: 64_000)
    }

    private static func profile(down: LinkProfile, timeline: ProfileTimeline? = nil) -> NetworkProfile {
        NetworkProfile(name: "synthetic", downlink: down, uplink: link(rate: .bitsPerSecond(8_000), delay: .seconds(3)), timeline: timeline)
    }

    @Test func isTheDownlinkDelayPlusTheFrameAtTheDownlinkRate() throws {
        // 400 bytes = 3200 bits at 64 kbit/s = 50 ms; the uplink's 3 s play no part.
        let floor = try PushFloor(profile: Self.profile(down: Self.link(rate: .bitsPerSecond(64_000))), frameBytes: 400)
        #expect(floor.oneWayDelay == .milliseconds(100))
        #expect(floor.serialization == .milliseconds(50))
        #expect(floor.total == .milliseconds(150))
        #expect(floor.totalMicroseconds == 150_000)
        #expect(floor.frameBytes == 400)
    }

    @Test func roundsTheCrossingUpToTheNanosecondAsTheShaperDoes() throws {
        // 1 byte at 3 bit/s: 8/3 s = 2.666…666 s, rounded up.
        let floor = try PushFloor(downlink: Self.link(rate: .bitsPerSecond(3), delay: .zero), frameBytes: 1)
        #expect(floor.serialization == .nanoseconds(2_666_666_667))
    }

    @Test func anUnlimitedLinkAddsOnlyItsDelay() throws {
        let floor = try PushFloor(downlink: Self.link(rate: .unlimited, delay: .milliseconds(20)), frameBytes: 1_000_000)
        #expect(floor.total == .milliseconds(20))
        let perfect = try PushFloor(downlink: Self.link(rate: .unlimited, delay: .zero), frameBytes: 300)
        #expect(perfect.total == .zero)
        #expect(perfect.ratio(of: .microseconds(250)) == nil, "no ratio to a zero floor")
    }

    @Test func theRatioIsTheMeasurementOverTheFloor() throws {
        let floor = try PushFloor(downlink: Self.link(rate: .bitsPerSecond(64_000)), frameBytes: 400)
        let ratio = try #require(floor.ratio(of: .milliseconds(165)))
        #expect(abs(ratio - 1.1) < 1e-12)
    }

    @Test func aFrameLongerThanTheMTUCostsItsWholeSizeOnce() throws {
        // Pieces cross back to back: 3000 bytes at 1.2 Mbit/s = 20 ms whatever the MTU.
        let floor = try PushFloor(downlink: Self.link(rate: .bitsPerSecond(1_200_000), delay: .zero), frameBytes: 3_000)
        #expect(floor.total == .milliseconds(20))
    }

    @Test func timeVaryingLinksHaveNoSingleFloor() throws {
        let segment = ProfileSegment(duration: .seconds(1), downlink: Self.link(rate: .unlimited), uplink: Self.link(rate: .unlimited))
        let timeline = Self.profile(down: Self.link(rate: .bitsPerSecond(64_000)), timeline: ProfileTimeline(loops: true, segments: [segment]))
        let error = #expect(throws: PushBenchError.self) { try PushFloor(profile: timeline, frameBytes: 100) }
        #expect(error?.code == .unsupportedProfile)
        #expect(error?.message.contains("timeline") == true)
    }

    @Test func theRepositoryProfilesAreFoundAndReadThroughTheLoader() throws {
        #expect(PushBenchProfiles.repositoryRoot != nil)
        let edge = try PushBenchProfiles.load("edge")
        #expect(edge.name == "edge")
        #expect(edge.downlink.delay == .milliseconds(200))
        #expect(edge.downlink.rate == .bitsPerSecond(150_000))
        // 300 bytes = 2400 bits at 150 kbit/s = 16 ms.
        #expect(try PushFloor(profile: edge, frameBytes: 300).total == .milliseconds(216))
    }

    @Test func anUnknownProfileSaysWhereItLookedAndWhatExists() throws {
        let error = #expect(throws: PushBenchError.self) { try PushBenchProfiles.load("no-such-network") }
        #expect(error?.code == .profileNotFound)
        #expect(error?.message.contains("no-such-network") == true)
        #expect(error?.message.contains("gprs") == true, "lists the profiles that exist: \(error?.message ?? "")")
    }
}
