import LowbandProxy
import LowbandProxyCore
import LowbandShaper
import LowbandTestSupport
import NIOCore
import Testing

/// The proxy's record accounts for every byte it read: delivered, still held, or discarded — by
/// a toxic that swallows it, or by the reset that ended its connection — each discard a `drop`
/// event and trace line with its count and cause; toxics changed are trace lines; a close line
/// carries the reason the status line prints.
@Suite(.timeLimit(.minutes(5))) struct DroppedBytesTests {
    /// Reads `events` until `done` says the events so far are enough; returns them.
    private func events(
        from iterator: inout AsyncStream<ProxyEvent>.Iterator, until done: ([ProxyEvent]) -> Bool
    ) async -> [ProxyEvent] {
        var seen: [ProxyEvent] = []
        while !done(seen), let event = await iterator.next() { seen.append(event) }
        return seen
    }

    @Test func swallowedAndResetBytesAreCountedTracedAndExplained() async throws {
        let (sink, _) = try await TestPeers.sinkServer()
        let trace = ShaperTraceRecorder()
        let link = ProxyLink.network(ProxyHarness.steadyProfile(downRate: 1_000_000, upRate: 1_000_000), trace: trace)
        try await sink.serving {
            try await ProxyHarness.withProxy(upstreamPort: sink.port, link: link) { proxy, port in
                var stream = proxy.events().makeAsyncIterator()
                var seen: [ProxyEvent] = []
                let dropped = { (events: [ProxyEvent]) in events.filter { $0.kind == .drop }.reduce(0) { $0 + ($1.bytes ?? 0) } }
                let first = try await TestPeers.connect(port: port)
                try await first.executeThenClose { _, outbound in
                    // A timeout toxic at 0 swallows what the client sends and closes nothing.
                    _ = try await proxy.addToxic(Toxic(name: "swallow", type: .timeout, stream: .upstream, attributes: ["timeout": 0]))
                    try await outbound.write(TestPeers.pattern(1_159))
                    seen += await events(from: &stream) { dropped($0) >= 1_159 }
                    let swallowed = await proxy.statistics
                    #expect(swallowed.receivedUpstreamBytes == 1_159 && swallowed.droppedUpstreamBytes == 1_159)
                    #expect(swallowed.upstreamBytes == 0 && swallowed.bufferedBytes == 0, "received = delivered + dropped + buffered")
                    // Removing it closes the connections it held, as toxiproxy's does.
                    try await proxy.removeToxic(named: "swallow")
                }
                // Bytes held by a latency toxic go with the connection a reset ends.
                _ = try await proxy.addToxic(Toxic(name: "hold", type: .latency, stream: .upstream, attributes: ["latency": 10_000]))
                let second = try await TestPeers.connect(port: port)
                try await second.executeThenClose { _, outbound in
                    try await outbound.write(TestPeers.pattern(500))
                    // Reading a socket is no event of the proxy's: its counter says when the bytes are in.
                    #expect(await eventually { await proxy.statistics.receivedUpstreamBytes >= 1_659 })
                    try await proxy.resetAll(reason: "fault 1: reset")
                    seen += await events(from: &stream) { dropped(seen + $0) >= 1_659 }
                    let reset = await proxy.statistics
                    #expect(reset.droppedUpstreamBytes == 1_659 && reset.upstreamBytes == 0 && reset.bufferedBytes == 0)
                }
                seen += await events(from: &stream) { (seen + $0).filter { $0.kind == .close }.count >= 2 }
                let drops = seen.filter { $0.kind == .drop }
                let closes = seen.filter { $0.kind == .close }
                #expect(drops.filter { $0.detail == "a toxic" }.reduce(0) { $0 + ($1.bytes ?? 0) } == 1_159)
                #expect(drops.last.map { [$0.detail, $0.bytes, $0.connection, $0.direction] as [AnyHashable?] } == ["fault 1: reset", 500, 2, Direction.upstream])
                #expect(closes.last?.detail == "fault 1: reset")
            }
        }
        // The trace has it all, on the proxy's numbers: toxics, drops with causes, the close's reason.
        let lines = trace.events
        #expect(lines.filter { $0.kind == .toxic }.map(\.detail) == [
            "added swallow: timeout timeout=0", "removed swallow: timeout timeout=0", "added hold: latency jitter=0 latency=10000",
        ])
        #expect(lines.filter { $0.kind == .drop }.reduce(0) { $0 + ($1.bytes ?? 0) } == 1_659)
        #expect(lines.contains { $0.kind == .drop && $0.connection == ConnectionID(index: 2) && $0.direction == .upstream && $0.detail == "fault 1: reset" })
        #expect(lines.contains { $0.kind == .close && $0.connection == ConnectionID(index: 2) && $0.detail == "fault 1: reset" })
        #expect(lines.contains { $0.kind == .close && $0.connection == ConnectionID(index: 1) && $0.detail != nil })
    }
}
