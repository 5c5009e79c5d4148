import LowbandProxy
import LowbandProxyCore
import LowbandShaper
import LowbandTestSupport
import NIOCore
import Testing

/// The real proxy on loopback reproduces the link's physical figures: rate, delay, outages,
/// and one shared radio. Time is measured with the monotonic clock; tolerances apply only to
/// these physical figures (house rule), and every figure is printed for the report.
// Every test awaits real events; the limit only stops one that would wait for ever.
/// Wall clock (scripts/test.sh runs it alone): measures configured rates and delays through the real proxy on the wall clock.
@Suite(.serialized, .timeLimit(.minutes(1)), .tags(.wallClock)) struct FidelityTests {
    static let rate: Int64 = 4_000_000  // bit/s
    static let bulk = 1_000_000  // bytes: 2 s at 4 Mbit/s

    /// Relative error of `measured` against `expected`.
    private func error(_ measured: Double, _ expected: Double) -> Double { (measured - expected) / expected }

    /// Bytes per second from arrivals: everything after the first read, over first → last read.
    private func throughput(_ arrivals: [TestPeers.Arrival]) -> Double {
        guard let first = arrivals.first, let last = arrivals.last, last.uptimeNanoseconds > first.uptimeNanoseconds else { return 0 }
        let bytes = arrivals.dropFirst().reduce(0) { $0 + $1.bytes }
        return Double(bytes) / (Double(last.uptimeNanoseconds - first.uptimeNanoseconds) / 1e9)
    }

    /// The middle sample: a test machine busy with other tests delays a few samples, never all.
    private func median(_ samples: [Double]) -> Double {
        samples.sorted()[samples.count / 2]
    }

    private func collect(_ total: Int, from arrivals: AsyncStream<TestPeers.Arrival>) async -> [TestPeers.Arrival] {
        var collected: [TestPeers.Arrival] = []
        var bytes = 0
        for await arrival in arrivals {
            collected.append(arrival)
            bytes += arrival.bytes
            if bytes >= total { break }
        }
        return collected
    }

    @Test func uplinkBulkThroughputMatchesTheRate() async throws {
        let (sink, arrivals) = try await TestPeers.sinkServer()
        let link = ProxyLink.network(ProxyHarness.steadyProfile(downRate: Self.rate, upRate: Self.rate, downDelay: .milliseconds(20), upDelay: .milliseconds(20)))
        let received = try await sink.serving {
            try await ProxyHarness.withProxy(upstreamPort: sink.port, link: link) { _, port in
                let client = try await TestPeers.connect(port: port)
                return try await client.executeThenClose { _, outbound in
                    try await outbound.write(TestPeers.pattern(Self.bulk))
                    return await collect(Self.bulk, from: arrivals)
                }
            }
        }
        let measured = throughput(received) * 8
        print("fidelity: uplink bulk \(Self.bulk) B at \(Self.rate) bit/s measured \(Int(measured)) bit/s (\(String(format: "%+.2f", error(measured, Double(Self.rate)) * 100)) %)")
        #expect(received.reduce(0) { $0 + $1.bytes } == Self.bulk)
        #expect(abs(error(measured, Double(Self.rate))) <= 0.05)
    }

    @Test func downlinkBulkThroughputMatchesTheRate() async throws {
        let source = try await TestPeers.sourceServer(count: Self.bulk)
        let link = ProxyLink.network(ProxyHarness.steadyProfile(downRate: Self.rate, upRate: Self.rate / 4, downDelay: .milliseconds(20), upDelay: .milliseconds(20)))
        let (bytes, first, last) = try await source.serving {
            try await ProxyHarness.withProxy(upstreamPort: source.port, link: link) { _, port in
                let client = try await TestPeers.connect(port: port)
                return try await client.executeThenClose { inbound, _ in
                    var bytes = 0
                    var first: (bytes: Int, at: ContinuousClock.Instant)?
                    var last = ContinuousClock.now
                    for try await buffer in inbound {
                        last = .now
                        if first == nil { first = (buffer.readableBytes, last) }
                        bytes += buffer.readableBytes
                    }
                    return (bytes, first, last)
                }
            }
        }
        let start = try #require(first)
        let seconds = Double((last - start.at).components.attoseconds) / 1e18 + Double((last - start.at).components.seconds)
        let measured = Double(bytes - start.bytes) * 8 / seconds
        print("fidelity: downlink bulk \(bytes) B at \(Self.rate) bit/s measured \(Int(measured)) bit/s (\(String(format: "%+.2f", error(measured, Double(Self.rate)) * 100)) %)")
        #expect(bytes == Self.bulk)
        #expect(abs(error(measured, Double(Self.rate))) <= 0.05)
    }

    @Test func smallMessageRoundTripMatchesTheDelays() async throws {
        let echo = try await TestPeers.echoServer()
        // EDGE-like one-way delays (NETWORK-PROFILES.md: 400 ms RTT class).
        let upDelay = Duration.milliseconds(150)
        let downDelay = Duration.milliseconds(200)
        let rate: Int64 = 2_000_000
        let size = 200
        let link = ProxyLink.network(ProxyHarness.steadyProfile(downRate: rate, upRate: rate, downDelay: downDelay, upDelay: upDelay))
        // Each way: the delay plus the piece's transmission time at the rate.
        let expected = 0.350 + 2 * Double(size * 8) / Double(rate)
        let samples = try await echo.serving {
            try await ProxyHarness.withProxy(upstreamPort: echo.port, link: link) { _, port in
                try await roundTrips(6, size: size, port: port)
            }
        }
        let worst = samples.map { abs($0 - expected) }.max() ?? 0
        let typical = median(samples)
        print("fidelity: RTT expected \(String(format: "%.2f", expected * 1000)) ms, median \(String(format: "%.2f", typical * 1000)) ms, worst error \(String(format: "%.2f", worst * 1000)) ms over \(samples.count) round trips")
        let tolerance = 0.002 + 0.02 * expected
        #expect(abs(typical - expected) <= tolerance, "median RTT \(typical * 1000) ms vs \(expected * 1000) ms")
        for sample in samples {
            // No round trip beats the link, however busy the machine running the test is.
            #expect(sample >= expected - tolerance, "RTT \(sample * 1000) ms is faster than the link's \(expected * 1000) ms")
        }
    }

    @Test func anOutageDelaysBytesByItsLengthAndClosesNothing() async throws {
        let (sink, arrivals) = try await TestPeers.sinkServer()
        let rate: Int64 = 1_000_000
        let outage = 1.0
        let count = 250_000  // 2 s at 1 Mbit/s
        let trace = ShaperTraceRecorder()
        let steady = ProxyHarness.steadyProfile(downRate: rate, upRate: rate)
        // The same link, but its first second is an outage. Switching to it once bytes flow
        // starts the outage mid-transfer, whatever the test machine's load did to the start.
        var cut = steady
        cut.outages = [OutageProfile(kind: .handover, start: .zero ... .zero, duration: .seconds(1) ... .seconds(1))]
        let (elapsed, gap, statistics) = try await sink.serving {
            try await ProxyHarness.withProxy(upstreamPort: sink.port, link: .network(steady)) { proxy, port in
                let events = proxy.events()
                let client = try await TestPeers.connect(port: port)
                let result = try await client.executeThenClose { _, outbound in
                    let start = ContinuousClock.now
                    try await outbound.write(TestPeers.pattern(count))
                    var received: [TestPeers.Arrival] = []
                    var bytes = 0
                    for await arrival in arrivals {
                        if received.isEmpty { try await proxy.setLink(.network(cut, trace: trace)) }
                        received.append(arrival)
                        bytes += arrival.bytes
                        if bytes >= count { break }
                    }
                    let elapsed = ContinuousClock.now - start
                    let gaps = zip(received, received.dropFirst()).map { Double($1.uptimeNanoseconds - $0.uptimeNanoseconds) / 1e9 }
                    return (
                        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                        gaps.max() ?? 0,
                        await proxy.statistics
                    )
                }
                // The live event stream shows the outage too, a second long.
                var outageEvents: [ProxyEvent] = []
                for await event in events where event.kind == .outageStart || event.kind == .outageEnd {
                    outageEvents.append(event)
                    if event.kind == .outageEnd { break }
                }
                #expect(outageEvents.map(\.kind) == [.outageStart, .outageEnd])
                #expect(outageEvents.first?.duration == .seconds(1))
                return result
            }
        }
        // The transfer's time at the rate, plus the outage, plus at most the piece that was
        // being sent when the link switched (it is sent again on the new link).
        let piece = Double(1500 * 8) / Double(rate)
        let expected = Double(count * 8) / Double(rate) + outage
        print("fidelity: outage \(outage) s, transfer took \(String(format: "%.3f", elapsed)) s (expected \(String(format: "%.3f", expected)) s), longest silence \(String(format: "%.3f", gap)) s")
        #expect(abs(elapsed - expected) <= 0.002 + 0.02 * expected + piece)
        #expect(abs(gap - outage) <= 0.002 + 0.02 * outage + 2 * piece)
        #expect(statistics.openConnections == 1, "the outage closed nothing")
        #expect(statistics.resetConnections == 0)
        #expect(trace.events.contains { $0.kind == .outageStart })
        #expect(trace.events.contains { $0.kind == .outageEnd })
    }

    @Test func bytesWaitingBehindOthersAreReportedAsQueueStretches() async throws {
        let (sink, arrivals) = try await TestPeers.sinkServer()
        let rate: Int64 = 1_000_000
        let count = 125_000  // 1 s at 1 Mbit/s
        let link = ProxyLink.network(ProxyHarness.steadyProfile(downRate: rate, upRate: rate, downDelay: .milliseconds(20), upDelay: .milliseconds(20)))
        let stretches = try await sink.serving {
            try await ProxyHarness.withProxy(upstreamPort: sink.port, link: link) { proxy, port in
                let events = proxy.events()
                let client = try await TestPeers.connect(port: port)
                try await client.executeThenClose { _, outbound in
                    // One small write onto an idle link waits for nothing.
                    try await outbound.write(TestPeers.pattern(100))
                    _ = await collect(100, from: arrivals)
                    try await outbound.write(TestPeers.pattern(count))
                    _ = await collect(count, from: arrivals)
                }
                var queued: [ProxyEvent] = []
                for await event in events {
                    if event.kind == .queue { queued.append(event) }
                    if event.kind == .close { break }
                }
                return queued
            }
        }
        // The burst's bytes waited from its first piece until its last went onto the link: the
        // transfer's time at the rate less that last piece's.
        func seconds(_ duration: Duration) -> Double { Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18 }
        let spans = stretches.map { (seconds($0.time - ($0.duration ?? .zero)), seconds($0.time)) }.sorted { $0.0 < $1.0 }
        var union = 0.0
        var reach = -Double.infinity
        for (start, end) in spans where end > reach {
            union += end - max(start, reach)
            reach = end
        }
        let piece = Double(1500 * 8) / Double(rate)
        let expected = Double(count * 8) / Double(rate) - piece
        print("fidelity: a \(count) B burst at \(rate) bit/s waited \(String(format: "%.3f", union)) s in the link's queue (expected \(String(format: "%.3f", expected)) s), \(stretches.count) queue events")
        #expect(stretches.allSatisfy { $0.direction == .upstream && $0.connection == 1 })
        #expect(stretches.allSatisfy { ($0.duration ?? .zero) <= .seconds(1) + .milliseconds(20) }, "stretches are cut at a second")
        #expect(abs(union - expected) <= 0.002 + 0.02 * expected + piece)
    }

    @Test func twoConnectionsShareTheDevicesRate() async throws {
        let (sink, arrivals) = try await TestPeers.sinkServer()
        let link = ProxyLink.network(ProxyHarness.steadyProfile(downRate: Self.rate, upRate: Self.rate, downDelay: .milliseconds(10), upDelay: .milliseconds(10)))
        let each = Self.bulk / 2
        let received = try await sink.serving {
            try await ProxyHarness.withProxy(upstreamPort: sink.port, link: link) { _, port in
                let first = try await TestPeers.connect(port: port)
                let second = try await TestPeers.connect(port: port)
                return try await first.executeThenClose { _, firstOutbound in
                    try await second.executeThenClose { _, secondOutbound in
                        async let a: Void = firstOutbound.write(TestPeers.pattern(each))
                        async let b: Void = secondOutbound.write(TestPeers.pattern(each, seed: 7))
                        _ = try await (a, b)
                        return await collect(2 * each, from: arrivals)
                    }
                }
            }
        }
        let measured = throughput(received) * 8
        let finish = Dictionary(grouping: received, by: \.connection).mapValues { $0.last?.uptimeNanoseconds ?? 0 }
        let spread = Double((finish.values.max() ?? 0) - (finish.values.min() ?? 0)) / 1e9
        print("fidelity: two connections, combined \(Int(measured)) bit/s of \(Self.rate) (\(String(format: "%+.2f", error(measured, Double(Self.rate)) * 100)) %), finished \(String(format: "%.3f", spread)) s apart")
        #expect(finish.count == 2)
        #expect(abs(error(measured, Double(Self.rate))) <= 0.05)
    }

    /// The toxic's own share is read against the same link without it, measured in the same
    /// run: what a loaded machine adds to every round trip (both lanes of CI's wall-clock pass,
    /// other work) is in both medians and cancels; the floor the link sets is absolute.
    @Test func aLatencyToxicAddsToTheLinksDelay() async throws {
        let echo = try await TestPeers.echoServer()
        let rate: Int64 = 2_000_000
        let link = ProxyLink.network(ProxyHarness.steadyProfile(downRate: rate, upRate: rate, downDelay: .milliseconds(20), upDelay: .milliseconds(20)))
        let size = 100
        let toxic = 0.150
        let floor = 0.040 + 2 * Double(size * 8) / Double(rate)
        let (without, with) = try await echo.serving {
            try await ProxyHarness.withProxy(upstreamPort: echo.port, link: link) { proxy, port in
                let without = try await roundTrips(5, size: size, port: port)
                try await proxy.addToxic(Toxic(type: .latency, stream: .downstream, attributes: ["latency": 150]))
                return (without, try await roundTrips(5, size: size, port: port))
            }
        }
        let added = median(with) - median(without)
        print("fidelity: 150 ms latency toxic on a 20+20 ms link, median RTT \(String(format: "%.2f", median(without) * 1000)) ms without, \(String(format: "%.2f", median(with) * 1000)) ms with it: \(String(format: "%.2f", added * 1000)) ms added (link floor \(String(format: "%.2f", floor * 1000)) ms)")
        let tolerance = 0.002 + 0.02 * toxic
        #expect(abs(added - toxic) <= tolerance, "without \(without), with \(with)")
        #expect(without.allSatisfy { $0 >= floor - 0.002 }, "\(without)")
        #expect(with.allSatisfy { $0 >= floor + toxic - tolerance }, "\(with)")
    }

    /// `count` round trips of `size` bytes on a new connection, in seconds; each echo must be
    /// the bytes sent.
    private func roundTrips(_ count: Int, size: Int, port: Int) async throws -> [Double] {
        let client = try await TestPeers.connect(port: port)
        return try await client.executeThenClose { inbound, outbound in
            var iterator = inbound.makeAsyncIterator()
            var samples: [Double] = []
            for round in 0..<count {
                let message = TestPeers.pattern(size, seed: UInt8(round))
                let start = ContinuousClock.now
                try await outbound.write(message)
                let echoed = try await TestPeers.read(size, from: &iterator)
                let elapsed = ContinuousClock.now - start
                #expect(echoed == message)
                samples.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
            return samples
        }
    }

    @Test func theEdgeProfileFileIsPlayedOutAsItsShaperDecides() async throws {
        let echo = try await TestPeers.echoServer()
        let trace = ShaperTraceRecorder()
        let profile = try ProxyHarness.profile("edge")
        let link = ProxyLink.network(profile, seed: 7, trace: trace)
        let (samples, connectDelay) = try await echo.serving {
            try await ProxyHarness.withProxy(upstreamPort: echo.port, link: link) { proxy, port in
                let events = proxy.events()
                let client = try await TestPeers.connect(port: port)
                // Wait until the proxy has connected upstream, so no round trip includes it.
                var open: ProxyEvent?
                var connect: ProxyEvent?
                for await event in events {
                    if event.kind == .open { open = event }
                    if event.kind == .connect { connect = event; break }
                }
                return try await client.executeThenClose { inbound, outbound in
                    var iterator = inbound.makeAsyncIterator()
                    var samples: [Double] = []
                    for round in 0..<3 {
                        let start = ContinuousClock.now
                        try await outbound.write(TestPeers.pattern(100, seed: UInt8(round)))
                        _ = try await TestPeers.read(100, from: &iterator)
                        let elapsed = ContinuousClock.now - start
                        samples.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                    }
                    let delay = (connect?.time ?? .zero) - (open?.time ?? .zero)
                    return (samples, Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
                }
            }
        }
        // What the shaper decided: each round trip runs from the client's bytes entering the
        // uplink queue to the echo leaving the downlink.
        let sent = trace.events.filter { $0.kind == .enqueue && $0.direction == .upstream }.map(\.time)
        let received = trace.events.filter { $0.kind == .deliver && $0.direction == .downstream }.map(\.time)
        try #require(sent.count == 3 && received.count == 3, "one piece each way per round trip")
        let decided = zip(sent, received).map { Double($1.nanoseconds - $0.nanoseconds) / 1e9 }
        print("fidelity: edge.yaml seed 7: connect after \(String(format: "%.0f", connectDelay * 1000)) ms; round trips measured \(samples.map { String(format: "%.1f", $0 * 1000) }) ms, decided by the shaper \(decided.map { String(format: "%.1f", $0 * 1000) }) ms")
        #expect(connectDelay >= 0.400 - 0.002, "the profile's 400 ms connect delay")
        let errors = zip(samples, decided).map { $0 - $1 }
        #expect(abs(median(errors)) <= 0.002 + 0.02 * median(decided), "measured \(samples), decided \(decided)")
        for (measured, expected) in zip(samples, decided) {
            #expect(measured >= expected - 0.002 - 0.02 * expected, "measured \(measured * 1000) ms beats the decided \(expected * 1000) ms")
            #expect(expected >= 0.400 - 0.100, "EDGE's 200 ms each way, less at most its jitter")
        }
    }
}
