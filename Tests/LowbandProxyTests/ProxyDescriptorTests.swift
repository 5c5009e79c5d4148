import Foundation
import LowbandProxy
import LowbandShaper
import LowbandTestSupport
import NIOCore
import Testing

/// A thousand concurrent connections through one proxy, perfect and shaped: every one carries
/// its bytes, and once they close the process has exactly the file descriptors it had before.
/// (The memory figure in docs/PROXY.md is measured on the built binary with
/// `scripts/proxy-connections.py`, which sees the proxy's process alone.) Counting the
/// process's descriptors needs it alone, so scripts/test.sh runs this suite in its serial pass.
/// Wall clock (scripts/test.sh runs it alone): counts the process's open file descriptors, so nothing else may run.
@Suite(.serialized, .timeLimit(.minutes(2)), .tags(.wallClock)) struct ProxyDescriptorTests {
    static let count = 1000

    /// Entries of `/proc/self/fd`, i.e. the descriptors this process holds.
    static func openDescriptors() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }

    @Test(arguments: ["perfect", "3g"])
    func aThousandConnectionsLeaveNoDescriptorBehind(profile: String) async throws {
        let link: ProxyLink = profile == "perfect" ? .perfect() : .network(try ProxyHarness.profile(profile), seed: 1)
        let echo = try await TestPeers.echoServer()
        try await echo.serving {
            // Settle what the first proxy and clients allocate once (event loops, their pipes).
            try await ProxyHarness.withProxy(upstreamPort: echo.port, link: link) { _, port in
                let client = try await TestPeers.connect(port: port)
                try await client.channel.close()
            }
            let before = try Self.openDescriptors()
            try await ProxyHarness.withProxy(upstreamPort: echo.port, link: link) { proxy, port in
                var clients: [TestPeers.Client] = []
                for _ in 0..<Self.count {
                    clients.append(try await TestPeers.connect(port: port))
                }
                #expect(await eventually(within: .seconds(60)) { await proxy.statistics.openConnections == Self.count })
                // Every connection carries a round trip while all are open.
                try await withThrowingTaskGroup(of: Bool.self) { group in
                    for (index, client) in clients.enumerated() {
                        group.addTask {
                            try await client.executeThenClose { inbound, outbound in
                                var iterator = inbound.makeAsyncIterator()
                                let message = TestPeers.pattern(100, seed: UInt8(index % 200))
                                try await outbound.write(message)
                                let echoed = try await TestPeers.read(100, from: &iterator)
                                outbound.finish()
                                _ = try await TestPeers.readToEnd(from: &iterator)
                                return echoed == message
                            }
                        }
                    }
                    var intact = 0
                    for try await ok in group where ok { intact += 1 }
                    #expect(intact == Self.count)
                }
                #expect(await eventually(within: .seconds(60)) { await proxy.statistics.openConnections == 0 })
                #expect(await proxy.statistics.bufferedBytes == 0)
            }
            // At most as many: the warm-up's last sockets may still have been closing before.
            let settled = await eventually { (try? Self.openDescriptors()).map { $0 <= before } ?? false }
            #expect(settled, "descriptors: \(before) before, \((try? Self.openDescriptors()) ?? -1) after")
        }
    }
}
