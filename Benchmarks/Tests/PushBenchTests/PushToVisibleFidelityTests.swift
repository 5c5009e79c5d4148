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

    @Test func noPushIsVisibleSoonerThanItsFloor() async throws {
        let harness = try await PushToVisibleHarness.start(PushHarnessConfiguration(profile: Self.steady))
        var samples: [PushSample] = []
        do {
            for _ in 0 ..< 3 { samples.append(try await harness.measure()) }
        } catch {
            try await harness.stop()
            throw error
        }
        for sample in samples {
            // A ~300-byte frame is ~37 ms at 64 kbit/s, on top of the 100 ms.
            #expect(sample.floor.oneWayDelay == .milliseconds(100))
            #expect(sample.floor.serialization == .nanoseconds((Int64(sample.frameBytes) * 8_000_000_000 + 63_999) / 64_000))
            #expect(sample.pushToVisible >= sample.floor.total, "\(sample.pushToVisible) under the floor \(sample.floor.total)")
        }
        let teardown = try await harness.stop()
        #expect(teardown.isClean, "\(teardown)")
    }
}
