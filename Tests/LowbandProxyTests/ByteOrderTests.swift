import LowbandProxy
import LowbandShaper
import LowbandTestSupport
import NIOCore
import Testing

/// Whatever the sockets report while the proxy is writing, every byte leaves in the order it
/// came in.
@Suite(.timeLimit(.minutes(5))) struct ByteOrderTests {
    /// A write that crosses the destination's high watermark makes NIO report "not writable"
    /// from inside that write, and a flush that drains the buffer reports "writable" from inside
    /// the flush: the engine is called back while it is still writing a batch. The clock has
    /// moved on by then, so the link may have more bytes due at once, and those used to go out
    /// before the rest of the batch (the 100 kB echo of `ConnectionLifecycleTests` came back
    /// reordered at 66,000, the first MTU piece past the 64 KiB watermark, in 10 of 90 loaded
    /// runs). Tiny reads (64 B, so one link piece is many writes), a 2-byte watermark (every
    /// batch crosses it) and a delay-only link (every read burst falls due 1 ms later, at its
    /// own instant) make the callback find bytes due within the first kilobyte: 10 of 10 runs
    /// failed before the fix, with bytes reordered and the tail lost.
    @Test func bytesDueWhileABatchIsBeingWrittenGoOutBehindIt() async throws {
        let echo = try await TestPeers.echoServer()
        let link = ProxyLink.network(
            NetworkProfile(
                name: "fast-delayed",
                downlink: LinkProfile(rate: .unlimited, delay: .milliseconds(1), queueBytes: 1_000_000),
                uplink: LinkProfile(rate: .unlimited, delay: .milliseconds(1), queueBytes: 1_000_000)
            )
        )
        let limits = ShapingProxy.Limits(readSize: 64, writeBufferHigh: 2, writeBufferLow: 1)
        let size = 100_000
        try await echo.serving {
            try await ProxyHarness.withProxy(upstreamPort: echo.port, link: link, limits: limits) { proxy, port in
                let client = try await TestPeers.connect(port: port)
                let reply = try await client.executeThenClose { inbound, outbound in
                    try await outbound.write(TestPeers.pattern(size, seed: 3))
                    outbound.finish()
                    var iterator = inbound.makeAsyncIterator()
                    return try await TestPeers.readToEnd(from: &iterator)
                }
                let expected = Array(TestPeers.pattern(size, seed: 3).readableBytesView)
                let got = Array(reply.readableBytesView)
                let firstDifference = zip(got, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                #expect(got.count == expected.count)
                #expect(firstDifference == nil, "first difference at \(firstDifference.map(String.init) ?? "none") of \(got.count) bytes")
                #expect(await eventually { await proxy.statistics.openConnections == 0 })
            }
        }
    }
}
