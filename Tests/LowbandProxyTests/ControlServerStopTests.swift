import Foundation
import LowbandProxy
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Stopping the control API while clients keep connecting: every accepted connection is served
/// or closed, none is dropped unserved. With NIO's async server channel a connection accepted
/// just as the serving task was cancelled was dropped, and that trapped the whole process
/// ("Deinited NIOAsyncWriter without calling finish()"); a loaded test run crashed that way.
@Suite(.timeLimit(.minutes(5))) struct ControlServerStopTests {
    @Test func stoppingWhileClientsConnectClosesEveryConnection() async throws {
        for round in 0 ..< 20 {
            let server = ControlServer(registry: ProxyRegistry(), configuration: .init(listen: ProxyEndpoint(host: "127.0.0.1", port: 0)))
            let port = try #require(try await server.start().port)
            let serving = Task { try await server.run() }
            // A thread of its own connects as fast as it can until told to stop.
            let connecting = Connector(port: port)
            connecting.start()
            try await Task.sleep(for: .milliseconds(20 + round % 5 * 10))
            serving.cancel()
            try await serving.value
            connecting.stop()
            #expect(connecting.connected > 0, "round \(round): no client connected before the stop")
            // The port is closed once run() returned.
            #expect(Connector.connect(port: port) == false, "round \(round): the API still accepts after run() returned")
        }
    }
}

/// Opens and closes TCP connections to a port from a thread, as fast as it can.
private final class Connector: Sendable {
    let port: Int
    private let state = Mutex((stop: false, connected: 0, done: false))

    init(port: Int) { self.port = port }

    var connected: Int { state.withLock { $0.connected } }

    func start() {
        Thread { [self] in
            while !state.withLock({ $0.stop }) {
                if Self.connect(port: port) { state.withLock { $0.connected += 1 } }
            }
            state.withLock { $0.done = true }
        }.start()
    }

    func stop() {
        state.withLock { $0.stop = true }
        while !state.withLock({ $0.done }) { usleep(1000) }
    }

    /// Whether a connection to 127.0.0.1:`port` was accepted (then closed at once).
    static func connect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
