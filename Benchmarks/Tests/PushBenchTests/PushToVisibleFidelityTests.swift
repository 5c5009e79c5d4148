import LowbandShaper
import PushBench
import Testing

/// Pushes through a shaped link on the wall clock (run alone by scripts/test.sh): no push can
/// beat physics, and the harness leaves nothing behind.
@Suite struct PushToVisibleFidelityTests {
    /// 100 ms one way and 64 kbit/s, no jitter, loss or wake-up: every figure exact.
    private static let steady = NetworkProfile(
        name: "steady-100ms",
        downlink: LinkProfile(rate: .bitsPerSecond(64_000), delay: .milliseconds(100), queueBytes: 64_000),
        uplink: LinkProfile(rate: .bitsPerSecond(64_000), delay: .milliseconds(100), queueBytes: 64_000)
    )

    /// 100 ms ± 40 ms of correlated normal jitter: the floor is 40 ms below the delay.
    private static let jittery = NetworkProfile(
        name: "jittery-100ms",
        downlink: LinkProfile(
            rate: .bitsPerSecond(64_000), delay: .milliseconds(100), jitter: JitterProfile(amount: .milliseconds(40), distribution: .normal, correlation: 0.25),
            queueBytes: 64_000),
        uplink: LinkProfile(rate: .bitsPerSecond(64_000), delay: .milliseconds(100), queueBytes: 64_000)
    )

    private func samples(on profile: NetworkProfile, count: Int) async throws -> [PushSample] {
        let harness = try await PushToVisibleHarness.start(PushHarnessConfiguration(profile: profile))
        var samples: [PushSample] = []
        do {
            for _ in 0 ..< count { samples.append(try await harness.measure()) }
        } catch {
            try await harness.stop()
            throw error
        }
        let teardown = try await harness.stop()
        #expect(teardown.isClean, "\(teardown)")
        return samples
    }

    @Test func noPushIsVisibleSoonerThanItsFloor() async throws {
        for sample in try await samples(on: Self.steady, count: 3) {
            // A ~300-byte frame is ~37 ms at 64 kbit/s, on top of the 100 ms; no jitter, so the
            // floor and the median are the same.
            let serialization = Duration.nanoseconds((Int64(sample.frameBytes) * 8_000_000_000 + 63_999) / 64_000)
            #expect(sample.floor.least == .milliseconds(100) + serialization)
            #expect(sample.floor.median == sample.floor.least)
            #expect(sample.pushToVisible >= sample.floor.least, "\(sample.pushToVisible) under the floor \(sample.floor.least)")
        }
    }

    @Test func withJitterNoPushBeatsTheFloorAndTheMedianIsTheDelayPlusTheBytes() async throws {
        let samples = try await samples(on: Self.jittery, count: 8)
        for sample in samples {
            let serialization = Duration.nanoseconds((Int64(sample.frameBytes) * 8_000_000_000 + 63_999) / 64_000)
            #expect(sample.floor.least == .milliseconds(60) + serialization)
            #expect(sample.floor.median == .milliseconds(100) + serialization, "normal jitter is symmetric")
            #expect(sample.pushToVisible >= sample.floor.least, "\(sample.pushToVisible) under the floor \(sample.floor.least)")
        }
    }
}
