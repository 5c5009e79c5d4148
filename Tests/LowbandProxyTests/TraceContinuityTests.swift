import LowbandProxy
import LowbandShaper
import Testing

/// A profile or seed switch with connections open: the trace keeps one time base and the proxy's
/// connection numbers (from 1, as on stderr and in `/events`), and marks the switch.
@Suite(.timeLimit(.minutes(5))) struct TraceContinuityTests {
    @Test func aSwitchKeepsTimeAndNumbersRunningAndWritesALinkLine() async throws {
        let echo = try await TestPeers.echoServer()
        let trace = ShaperTraceRecorder()
        let first = ProxyHarness.steadyProfile(name: "first", downRate: 1_000_000, upRate: 1_000_000)
        let second = ProxyHarness.steadyProfile(name: "second", downRate: 500_000, upRate: 500_000)
        let opened = try await echo.serving {
            try await ProxyHarness.withProxy(upstreamPort: echo.port, link: .network(first, seed: 7, trace: trace)) { proxy, port in
                let events = proxy.events()
                var iterator = events.makeAsyncIterator()
                func nextOpen() async -> Int? {
                    while let event = await iterator.next() {
                        if event.kind == .open { return event.connection }
                    }
                    return nil
                }
                let one = try await TestPeers.connect(port: port)
                let two = try await TestPeers.connect(port: port)
                var numbers = [await nextOpen(), await nextOpen()]
                try await one.executeThenClose { _, _ in
                    try await two.executeThenClose { _, _ in
                        try await proxy.setLink(.network(second, seed: 8, trace: trace))
                        let three = try await TestPeers.connect(port: port)
                        numbers.append(await nextOpen())
                        try await three.executeThenClose { _, _ in }
                    }
                }
                return numbers
            }
        }
        #expect(opened == [1, 2, 3], "stderr and /events number from 1")
        let events = trace.events
        let times = events.map(\.time.nanoseconds)
        #expect(times == times.sorted(), "time never goes back across the switch")
        let links = events.filter { $0.kind == .link }
        #expect(links.map(\.detail) == ["second seed 8"])
        guard let switchAt = events.firstIndex(where: { $0.kind == .link }) else { return }
        #expect(events[..<switchAt].filter { $0.kind == .open }.map { $0.connection?.index } == [1, 2])
        // The new shaper takes the open connections on under their numbers; the next is #3.
        #expect(events[switchAt...].filter { $0.kind == .open }.map { $0.connection?.index } == [1, 2, 3])
        #expect(events[switchAt].time.nanoseconds > 0, "the switch is placed on the proxy's clock, not at a new zero")
    }
}
