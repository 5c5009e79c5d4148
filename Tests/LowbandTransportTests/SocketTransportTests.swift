import LowbandDeterminism
import LowbandTestSupport
import LowbandTransport
import LowbandTransportSockets
import LowbandWire
import NIOCore
import NIOPosix
import Testing

/// The socket side of the transport: the event-loop scheduler, links over loopback, the
/// listener's stop and restart, and protocol errors closing one connection only.
@Suite struct SocketTransportTests {
    let serverLoop = MultiThreadedEventLoopGroup.singleton.next()
    let clientLoop = MultiThreadedEventLoopGroup.singleton.any()

    @Test func theEventLoopSchedulerRunsWorkByDeadlineThenInSchedulingOrder() async throws {
        let loop = serverLoop
        let scheduler = EventLoopScheduler(eventLoop: loop)
        let promise = loop.makePromise(of: [String].self)
        try await loop.submit {
            let log = NIOLoopBoundBox([String](), eventLoop: loop)
            #expect(scheduler.now >= .zero && scheduler.now < .seconds(5))
            scheduler.schedule(after: .milliseconds(20)) { log.value.append("b") }
            scheduler.schedule(after: .milliseconds(10)) { log.value.append("a") }
            scheduler.schedule(after: .milliseconds(20)) { log.value.append("c") }
            let cancelled = scheduler.schedule(after: .milliseconds(5)) { log.value.append("cancelled") }
            scheduler.schedule(at: .zero) { log.value.append("past") }
            scheduler.execute { log.value.append("now") }
            scheduler.cancel(cancelled)
            let start = scheduler.now
            scheduler.schedule(after: .milliseconds(30)) {
                #expect(scheduler.now - start >= .milliseconds(30))
                #expect(scheduler.pendingCount == 0)
                promise.succeed(log.value)
            }
            #expect(scheduler.pendingCount == 6)
        }.get()
        #expect(try await promise.futureResult.get() == ["past", "now", "a", "b", "c"])
    }

    @Test func framesTravelOverLoopbackBothWaysAndAreCounted() async throws {
        let (listener, acceptor) = try await startListener(echoes: true)
        let port = try #require(try await listener.port)
        let client = try await LoopClient.connect(port: port, loop: clientLoop)
        let ping = try Frame.request(Ping(clientTime: 42), sequence: 7)
        let big = Frame(command: .history, sequence: 8, payload: Array(repeating: 0x41, count: 100_000))
        let echoed = try await client.send(raw: ping)
        #expect(echoed.flags == .response && echoed.sequence == 7 && echoed.payload == ping.payload)
        let echoedBig = try await client.send(raw: big)
        #expect(echoedBig.flags == .response && echoedBig.payload == big.payload, "compression stays inside the wire layer")
        let (sent, received) = try await client.traffic
        let encoder = FrameEncoder()
        let pingBytes = try encoder.bytes(of: ping).readableBytes
        let bigBytes = try encoder.bytes(of: big).readableBytes
        #expect(sent == TrafficCount(frames: 2, bytes: pingBytes + bigBytes, payloadBytes: ping.payload.count + 100_000))
        #expect(received.frames == 2 && received.bytes == sent.bytes, "the echo has the same size")
        #expect(bigBytes < 1_000, "100 KB of one letter travel compressed")
        let serverReceived = try await acceptor.read { $0.delegates.first?.frames.map(\.sequence) }
        #expect(serverReceived == [7, 8])
        try await client.close()
        try await listener.stop()
    }

    @Test func aProtocolErrorClosesThatConnectionOnly() async throws {
        let (listener, acceptor) = try await startListener(echoes: true)
        let port = try #require(try await listener.port)
        let healthy = try await LoopClient.connect(port: port, loop: clientLoop)
        // A raw socket that sends a header with version 3.
        let raw = try await ClientBootstrap(group: clientLoop).connect(host: "127.0.0.1", port: port).get()
        var bytes = ByteBuffer()
        bytes.writeBytes([0x03, 0x00, 0x00, 0x01, 0, 0, 0, 1, 0, 0, 0, 1, 0x80])
        try await raw.writeAndFlush(bytes)
        try await raw.closeFuture.get()
        let codes = try await acceptor.read { acceptor in acceptor.delegates.map(\.closeCode) }
        #expect(codes.contains("unsupportedVersion"))
        let echoed = try await healthy.send(raw: Frame(command: .ping, sequence: 1, payload: [0x80]))
        #expect(echoed.sequence == 1, "the other connection is still served")
        try await healthy.close()
        try await listener.stop()
    }

    @Test func aCloseByTheClientReachesTheServerOnceWithoutAnError() async throws {
        let (listener, acceptor) = try await startListener(echoes: false)
        let port = try #require(try await listener.port)
        let client = try await LoopClient.connect(port: port, loop: clientLoop)
        let closed = listener.eventLoop.makePromise(of: Void.self)
        try await acceptor.read { acceptor in
            if let delegate = acceptor.delegates.first {
                delegate.onClose = { closed.succeed() }
            } else {
                acceptor.onAccept = { _ in acceptor.delegates.last?.onClose = { closed.succeed() } }
            }
        }
        try await client.close()
        try await closed.futureResult.get()
        let closes = try await acceptor.read { $0.delegates.first?.closes.map { $0.error == nil } }
        #expect(closes == [true])
        #expect(try await listener.eventLoop.submit { listener.openLinkCount }.get() == 0)
        try await listener.stop()
    }

    @Test func stoppingClosesEveryLinkAndARestartListensOnTheSamePort() async throws {
        let (listener, _) = try await startListener(echoes: true)
        let port = try #require(try await listener.port)
        let client = try await LoopClient.connect(port: port, loop: clientLoop)
        // One round trip, so the server has accepted the connection (a connection still in the
        // kernel's backlog is reset, not closed, when the port closes).
        _ = try await client.send(raw: Frame(command: .ping, sequence: 1, payload: [0x80]))
        try await listener.stop()
        #expect(try await client.closed() == nil)
        await #expect {
            _ = try await LoopClient.connect(port: port, loop: clientLoop)
        } throws: { error in
            (error as? TransportError)?.code == .connectionRefused
        }
        let restartedPort = try await listener.start { RecordingAcceptor(echoes: true) }
        #expect(restartedPort == port)
        let again = try await LoopClient.connect(port: port, loop: clientLoop)
        #expect(try await again.send(raw: Frame(command: .ping, sequence: 3, payload: [0x80])).sequence == 3)
        await #expect(throws: TransportError.self) {
            try await listener.start { RecordingAcceptor() }
        }
        try await again.close()
        try await listener.stop()
        try await listener.stop()
    }

    /// A listener on 127.0.0.1:0 whose acceptor is read through the returned handle.
    private func startListener(echoes: Bool) async throws -> (SocketFrameListener, AcceptorHandle) {
        let loop = serverLoop
        let listener = SocketFrameListener(eventLoop: loop)
        let box = NIOLoopBoundBox.makeEmptyBox(valueType: RecordingAcceptor.self, eventLoop: loop)
        try await listener.start {
            let acceptor = RecordingAcceptor(echoes: echoes)
            box.value = acceptor
            return acceptor
        }
        return (listener, AcceptorHandle(box: box))
    }
}

/// Reads a loop-bound acceptor from async tests.
struct AcceptorHandle: Sendable {
    let box: NIOLoopBoundBox<RecordingAcceptor?>

    func read<T: Sendable>(_ body: @escaping @Sendable (RecordingAcceptor) -> T) async throws -> T {
        let box = self.box
        return try await box.eventLoop.submit { body(box.value!) }.get()
    }
}
