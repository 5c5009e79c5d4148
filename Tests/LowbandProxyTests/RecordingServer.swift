import NIOCore
import NIOPosix
import Synchronization

/// An upstream on loopback that records each connection's life: the bytes it received, whether
/// it saw the peer's end (FIN), and when its socket closed. It echoes nothing and, on EOF, ends
/// its own side too (as most servers do), unless `holdsAfterEnd`.
final class RecordingServer: Sendable {
    /// One accepted connection as the server saw it.
    struct Connection: Sendable, Equatable {
        var received: [UInt8] = []
        var sawEnd = false
        var closed = false
        var error: String?
    }

    private let state = Mutex<[Connection]>([])
    private let server: TestPeers.Server

    var port: Int { server.port }

    /// Every connection accepted so far, in accept order.
    var connections: [Connection] { state.withLock { $0 } }

    /// Connections whose socket is still open on the server.
    var openCount: Int { state.withLock { $0.filter { !$0.closed }.count } }

    private init(server: TestPeers.Server) {
        self.server = server
    }

    /// Starts a recording server; with `holdsAfterEnd` it keeps its side open after the peer's
    /// FIN (closing only when the peer closes or resets), like a server that ignores EOF.
    static func start(holdsAfterEnd: Bool = false) async throws -> RecordingServer {
        let box = Mutex<RecordingServer?>(nil)
        let server = try await TestPeers.server { _ in
            RecordingHandler(recorder: box.withLock { $0! }, holdsAfterEnd: holdsAfterEnd)
        }
        let recorder = RecordingServer(server: server)
        box.withLock { $0 = recorder }
        return recorder
    }

    func close() async { await server.close() }

    /// Runs `body`, then closes the server whether or not it threw.
    func serving<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        try await server.serving(body)
    }

    fileprivate func opened() -> Int {
        state.withLock {
            $0.append(Connection())
            return $0.count - 1
        }
    }

    fileprivate func update(_ index: Int, _ change: (inout Connection) -> Void) {
        state.withLock { change(&$0[index]) }
    }
}

private final class RecordingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let recorder: RecordingServer
    let holdsAfterEnd: Bool
    private var index = -1

    init(recorder: RecordingServer, holdsAfterEnd: Bool) {
        self.recorder = recorder
        self.holdsAfterEnd = holdsAfterEnd
    }

    func channelActive(context: ChannelHandlerContext) {
        index = recorder.opened()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = Array(buffer: unwrapInboundIn(data))
        recorder.update(index) { $0.received += bytes }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            recorder.update(index) { $0.sawEnd = true }
            if !holdsAfterEnd { context.close(promise: nil) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        recorder.update(index) { $0.error = "\(error)" }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        recorder.update(index) { $0.closed = true }
        context.fireChannelInactive()
    }
}
