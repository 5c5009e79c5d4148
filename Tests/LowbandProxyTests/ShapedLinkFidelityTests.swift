import LowbandProxy
import LowbandShaper
import LowbandTestSupport
import NIOCore
import Testing

/// An echo service behind a one-call ``ShapedLink`` on `edge` answers no sooner than the
/// profile's figures allow: the link adds a round trip of at least both directions' delay less
/// their jitter bound. Wall-clock figures, so this runs in scripts/test.sh's serial pass (its
/// `.wallClock` tag); every figure is printed for the report.
@Suite(.serialized, .timeLimit(.minutes(1)), .tags(.wallClock)) struct ShapedLinkFidelityTests {
    /// Milliseconds between two monotonic instants.
    private func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    @Test func anEchoBehindEdgeShowsTheProfilesAddedDelay() async throws {
        let echo = try await TestPeers.echoServer()
        let exchanges = 7
        let size = 32
        let (profile, times) = try await echo.serving {
            try await withShapedLink(to: ProxyEndpoint(host: "127.0.0.1", port: echo.port), profile: .named("edge"), seed: 7) { link in
                let client = try await TestPeers.connect(port: link.port)
                let times = try await client.executeThenClose { inbound, outbound in
                    var iterator = inbound.makeAsyncIterator()
                    var times: [Duration] = []
                    for _ in 0..<exchanges {
                        let start = ContinuousClock.now
                        try await outbound.write(TestPeers.pattern(size))
                        let reply = try await TestPeers.read(size, from: &iterator)
                        times.append(ContinuousClock.now - start)
                        #expect(reply == TestPeers.pattern(size))
                    }
                    return times
                }
                return (link.profile, times)
            }
        }
        // The physical floor of one round trip: each direction's base delay less its jitter
        // bound (normal jitter is cut off at ± amount). The first exchange also waits for the
        // proxy's upstream connect, delayed by the profile's connect delay.
        let floor = profile.uplink.delay - profile.uplink.jitter.amount + profile.downlink.delay - profile.downlink.jitter.amount
        let ceiling = profile.uplink.delay + profile.uplink.jitter.amount + profile.downlink.delay + profile.downlink.jitter.amount
        let later = times.dropFirst().sorted()
        let median = later[later.count / 2]
        print(
            "shaped link: edge echo of \(size) B: first \(Int(milliseconds(times[0]))) ms, then median \(Int(milliseconds(median))) ms "
                + "(floor \(Int(milliseconds(floor))) ms, ceiling without loss \(Int(milliseconds(ceiling))) ms); all: \(times.map { Int(milliseconds($0)) })"
        )
        #expect(floor == .milliseconds(300))
        #expect(times[0] >= floor + profile.connectDelay.lowerBound)
        for time in times {
            #expect(time >= floor, "an echo came back in \(time), under the physical floor \(floor)")
        }
        // A loss stall (1 % of pieces) can delay one exchange by its retransmission timeout; the
        // median is the link's delay, with 200 ms for a loaded test machine and the serialisation
        // of 32 bytes at 60 kbit/s (4 ms).
        #expect(median <= ceiling + .milliseconds(200))
    }
}
