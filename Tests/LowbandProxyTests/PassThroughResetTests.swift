import LowbandProxyCore
import NIOCore
import Synchronization
import Testing

@testable import LowbandProxy

/// A reset met while reads go straight through (ProxyEngine+PassThrough.swift) ends the whole
/// connection with its reason, as on the full path (`ResilienceTests`, which watch the events and
/// so keep every read on the full path). Nobody watches here: the reason is read from the status
/// lines, which do not keep reads off the straight path.
// Every test awaits real events; the limit only stops one that would wait for ever (a connection
// whose reset ended only one direction would leave the client waiting).
@Suite(.timeLimit(.minutes(5))) struct PassThroughResetTests {
    @Test func anUpstreamResettingWhileBytesGoStraightThroughEndsTheConnectionWithItsReason() async throws {
        let upstream = try await TestPeers.resettingEchoServer(after: 200_000)
        let lines = Mutex<[String]>([])
        try await upstream.serving {
            let proxy = ShapingProxy(
                configuration: ShapingProxy.Configuration(
                    name: "test",
                    upstream: ProxyEndpoint(host: "127.0.0.1", port: upstream.port),
                    statusHandler: { line in lines.withLock { $0.append(line) } }
                )
            )
            let address = try await proxy.start()
            do {
                let client = try await TestPeers.connect(port: address.port ?? 0)
                let received: Int = try await client.executeThenClose { inbound, outbound in
                    async let written: Void = outbound.write(TestPeers.pattern(1_000_000))
                    var received = 0
                    do {
                        for try await buffer in inbound { received += buffer.readableBytes }
                    } catch {
                        // The proxy may pass the reset on: the end of the stream all the same.
                    }
                    _ = try? await written
                    return received
                }
                try await PassThroughTests.waitUntil { await proxy.statistics.openConnections == 0 }
                let passed = await proxy.passedThroughBytes
                let close = lines.withLock { $0.first { $0.hasPrefix("#1 close") } }
                #expect(passed.upstream > 0, "no byte went straight through: the test did not reach that path")
                #expect(close?.contains("(upstream") == true, "\(close ?? "no close line") after \(received) B")
                print("pass-through reset: \(passed.upstream) B went straight through; \(close ?? "no close line")")
                await proxy.stop()
            } catch {
                await proxy.stop()
                throw error
            }
        }
    }
}
