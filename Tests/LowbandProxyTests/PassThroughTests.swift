import LowbandProxyCore
import LowbandShaper
import NIOCore
import NIOPosix
import Testing

@testable import LowbandProxy

/// Reads on a perfect link with nothing in the way go straight to the other socket
/// (ProxyEngine+PassThrough.swift). They must carry the same bytes and leave the same counts as
/// the full path; a toxic added while bytes flow takes over at a read boundary with nothing lost
/// or reordered; and a destination that never reads still stops the source.
// Every test awaits real events; the limit only stops one that would wait for ever. (Five minutes,
// as every suite of the parallel pass that has one: beside three builds at load 10, the 600 echoes
// below, 0.4 s alone, waited more than a minute for cooperative threads the other tests held.)
@Suite(.timeLimit(.minutes(5))) struct PassThroughTests {
    /// Polls until `condition` holds; the suite's time limit ends a wait that never would.
    static func waitUntil(_ condition: () async -> Bool) async throws {
        while await !condition() {
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// What one exchange through a proxy left behind.
    struct Outcome: Equatable {
        var statistics: ProxyStatistics
        var connectionBytes: [Int]
    }

    /// 300 echoes of 1 to 4,999 bytes and one of 300,000, each checked, on one connection;
    /// with `watching`, a subscriber to the events keeps every read on the full path.
    static func exchange(watching: Bool) async throws -> (Outcome, passed: (upstream: Int, downstream: Int)) {
        let echo = try await TestPeers.echoServer()
        return try await echo.serving {
            try await ProxyHarness.withProxy(upstreamPort: echo.port) { proxy, port in
                let events = watching ? proxy.events() : nil
                let client = try await TestPeers.connect(port: port)
                var connectionBytes: [Int] = []
                try await client.executeThenClose { inbound, outbound in
                    var iterator = inbound.makeAsyncIterator()
                    for round in 0..<300 {
                        let message = TestPeers.pattern(1 + (round * 677) % 4999, seed: UInt8(truncatingIfNeeded: round))
                        try await outbound.write(message)
                        #expect(try await TestPeers.read(message.readableBytes, from: &iterator) == message)
                    }
                    let bulk = TestPeers.pattern(300_000, seed: 7)
                    try await outbound.write(bulk)
                    #expect(try await TestPeers.read(bulk.readableBytes, from: &iterator) == bulk)
                    let open = try await proxy.connections
                    connectionBytes = open.flatMap { [$0.upstreamBytes, $0.downstreamBytes, $0.bufferedBytes] }
                }
                try await waitUntil { await proxy.statistics.openConnections == 0 }
                var statistics = await proxy.statistics
                // The one figure that depends on when the kernel took each write (0 when it
                // took every write at once).
                #expect(statistics.peakBufferedBytes <= ShapingProxy.Limits().perDirectionBound)
                statistics.peakBufferedBytes = 0
                _ = events
                return (Outcome(statistics: statistics, connectionBytes: connectionBytes), await proxy.passedThroughBytes)
            }
        }
    }

    @Test func straightThroughAndTheFullPathCarryTheSameBytesAndCounts() async throws {
        let (direct, passed) = try await Self.exchange(watching: false)
        let (full, none) = try await Self.exchange(watching: true)
        #expect(direct == full)
        #expect(direct.statistics.upstreamBytes == direct.statistics.receivedUpstreamBytes)
        #expect(direct.statistics.bufferedBytes == 0)
        // Only the first burst of each direction takes the full path without a watcher.
        #expect(passed.upstream > 0 && passed.downstream > 0)
        #expect(none.upstream == 0 && none.downstream == 0)
        print("pass-through: \(passed.upstream) of \(direct.statistics.upstreamBytes) B up, \(passed.downstream) of \(direct.statistics.downstreamBytes) B down went straight through")
    }

    @Test func aToxicAddedWhileBytesFlowTakesOverWithNothingLostOrReordered() async throws {
        let total = 8 * 1024 * 1024
        let chunk = 16 * 1024
        let echo = try await TestPeers.echoServer()
        try await echo.serving {
            try await ProxyHarness.withProxy(upstreamPort: echo.port) { proxy, port in
                let client = try await TestPeers.connect(port: port)
                let stream = TestPeers.pattern(total, seed: 3)
                var frozen = (upstream: 0, downstream: 0)
                try await client.executeThenClose { inbound, outbound in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            var offset = 0
                            while offset < total {
                                try await outbound.write(stream.getSlice(at: offset, length: chunk)!)
                                offset += chunk
                            }
                        }
                        group.addTask {
                            try await Self.waitUntil {
                                let passed = await proxy.passedThroughBytes
                                return passed.upstream > 0 && passed.downstream > 0
                            }
                            for stream in [Direction.upstream, .downstream] {
                                _ = try await proxy.addToxic(Toxic(name: "late-\(stream)", type: .latency, stream: stream, attributes: ["latency": 5]))
                            }
                        }
                        var iterator = inbound.makeAsyncIterator()
                        let echoed = try await TestPeers.read(total, from: &iterator)
                        try await group.waitForAll()
                        #expect(echoed == stream, "every byte once, in order")
                        frozen = await proxy.passedThroughBytes
                    }
                }
                try await Self.waitUntil { await proxy.statistics.openConnections == 0 }
                let statistics = await proxy.statistics
                #expect(statistics.upstreamBytes == total && statistics.downstreamBytes == total)
                #expect(statistics.receivedUpstreamBytes == total && statistics.receivedDownstreamBytes == total)
                #expect(statistics.bufferedBytes == 0)
                // Some went straight through before the toxics, and none after: the rest crossed them.
                #expect(frozen.upstream > 0 && frozen.upstream < total)
                #expect(frozen.downstream > 0 && frozen.downstream < total)
                #expect(await proxy.passedThroughBytes == frozen)
                print("toxic mid-stream: \(frozen.upstream) B up and \(frozen.downstream) B down went straight through before the toxics, the rest of \(total) B through them")
            }
        }
    }

    /// Nobody watches the events here (a watcher would keep the reads on the full path): the
    /// flood is seen to stop when the proxy's counts stop growing while the client still writes.
    @Test func aSilentUpstreamStillStopsAFloodThatWentStraightThrough() async throws {
        let (silent, accepted) = try await TestPeers.silentServer()
        let limits = ShapingProxy.Limits()
        let total = 64 * 1024 * 1024
        try await silent.serving {
            try await ProxyHarness.withProxy(upstreamPort: silent.port, limits: limits) { proxy, port in
                let client = try await TestPeers.connect(port: port)
                try await client.executeThenClose { _, outbound in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            let piece = TestPeers.pattern(64 * 1024)
                            var written = 0
                            while written < total {
                                try await outbound.write(piece)
                                written += piece.readableBytes
                            }
                        }
                        var iterator = accepted.makeAsyncIterator()
                        _ = await iterator.next()
                        try await Self.waitUntil { await proxy.passedThroughBytes.upstream > 0 }
                        // Reading stops: the connection's counts stay put over 20 looks, 50 ms apart.
                        var last = -1
                        var steady = 0
                        while steady < 20 {
                            let now = await proxy.statistics.receivedUpstreamBytes
                            steady = now == last ? steady + 1 : 0
                            last = now
                            try await Task.sleep(for: .milliseconds(50))
                        }
                        let statistics = await proxy.statistics
                        group.cancelAll()
                        do {
                            try await group.waitForAll()
                        } catch is CancellationError {
                            // The writer was stopped mid-flood, as intended.
                        }
                        #expect(statistics.receivedUpstreamBytes < total / 2, "the client was held back, not drained into memory")
                        #expect(statistics.peakBufferedBytes <= limits.writeBufferHigh + limits.readSize * limits.readsPerWakeup + 64_000)
                        print("pass-through back-pressure: stopped after \(statistics.receivedUpstreamBytes) B, peak buffered \(statistics.peakBufferedBytes) B")
                    }
                }
            }
        }
    }
}

/// The toxic that ended the straight path acts: a lower bound on a round trip, which a loaded
/// machine only lengthens (a wall-clock figure all the same, hence the tag).
@Suite(.timeLimit(.minutes(1)), .tags(.wallClock)) struct PassThroughTimingTests {
    @Test func aLatencyToxicAddedAfterBytesWentStraightThroughDelaysTheNextEcho() async throws {
        let echo = try await TestPeers.echoServer()
        try await echo.serving {
            try await ProxyHarness.withProxy(upstreamPort: echo.port) { proxy, port in
                let client = try await TestPeers.connect(port: port)
                try await client.executeThenClose { inbound, outbound in
                    var iterator = inbound.makeAsyncIterator()
                    for round in 0..<5 {
                        try await outbound.write(TestPeers.pattern(100, seed: UInt8(round)))
                        #expect(try await TestPeers.read(100, from: &iterator) == TestPeers.pattern(100, seed: UInt8(round)))
                    }
                    let before = await proxy.passedThroughBytes
                    #expect(before.upstream > 0 && before.downstream > 0)
                    // 300 ms each way is the least the next echo can take; a load only adds.
                    _ = try await proxy.addToxic(Toxic(name: "late", type: .latency, stream: .downstream, attributes: ["latency": 300]))
                    let start = ContinuousClock.now
                    try await outbound.write(TestPeers.pattern(100, seed: 9))
                    #expect(try await TestPeers.read(100, from: &iterator) == TestPeers.pattern(100, seed: 9))
                    #expect(ContinuousClock.now - start >= .milliseconds(300))
                    #expect(await proxy.passedThroughBytes.downstream == before.downstream)
                }
            }
        }
    }
}
