import NIOCore
import NIOPosix
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Real TCP peers on loopback for the proxy tests: an echo server, a sink that timestamps
/// what arrives, a server that never reads, and clients.
enum TestPeers {
    typealias Client = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    struct PeerError: Error, CustomStringConvertible {
        var description: String
    }

    /// What a sink saw arrive: bytes and the monotonic instant (ns) of each read.
    struct Arrival: Sendable {
        var connection: Int
        var bytes: Int
        var uptimeNanoseconds: UInt64
    }

    /// A listening server; `close()` stops it.
    struct Server: Sendable {
        let channel: any Channel
        var port: Int { channel.localAddress?.port ?? 0 }
        func close() async { try? await channel.close() }

        /// Runs `body`, then closes the server whether or not it threw.
        func serving<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
            do {
                let result = try await body()
                await close()
                return result
            } catch {
                await close()
                throw error
            }
        }
    }

    /// Echoes every byte back.
    static func echoServer() async throws -> Server {
        try await server { _ in EchoHandler() }
    }

    /// Swallows bytes and reports each read (with its connection number) to `arrivals`.
    static func sinkServer() async throws -> (Server, AsyncStream<Arrival>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Arrival.self)
        let counter = ConnectionCounter()
        let server = try await server { _ in SinkHandler(connection: counter.next(), arrivals: continuation) }
        return (server, stream)
    }

    /// Accepts connections and never reads from them; reports each accept.
    static func silentServer() async throws -> (Server, AsyncStream<Void>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        let server = try await server(autoRead: false) { _ in AcceptReporter(accepted: continuation) }
        return (server, stream)
    }

    /// Sends `count` bytes to every client that connects, then ends its stream.
    static func sourceServer(count: Int) async throws -> Server {
        try await server { _ in SourceHandler(count: count) }
    }

    /// Echoes bytes until `limit` bytes have arrived, then resets the connection (RST).
    static func resettingEchoServer(after limit: Int) async throws -> Server {
        try await server { _ in ResettingEchoHandler(limit: limit) }
    }

    /// Aborts the client's connection with RST (SO_LINGER 0) instead of FIN.
    static func reset(_ channel: any Channel) async throws {
        let provider = try #require(channel as? any SocketOptionProvider)
        try await provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        try await channel.close()
    }

    /// A port that refuses every connection for as long as `body` runs: a socket bound to it
    /// that never listens. Binding and closing a port instead lets a test running alongside
    /// take the port meanwhile (the parallel suite binds hundreds), and the "refused" upstream
    /// then answers — CI saw exactly that hang.
    static func withRefusedPort<Result>(_ body: (Int) async throws -> Result) async throws -> Result {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw PeerError(description: "socket() failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard bound else { throw PeerError(description: "bind() failed: errno \(errno)") }
        return try await body(Int(UInt16(bigEndian: address.sin_port)))
    }

    static func server(
        autoRead: Bool = true, _ makeHandler: @escaping @Sendable (any Channel) -> any ChannelHandler
    ) async throws -> Server {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: autoRead)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(makeHandler(channel))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return Server(channel: channel)
    }

    static func connect(port: Int) async throws -> Client {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelOption(.allowRemoteHalfClosure, value: true)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try Client(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                }
            }
    }

    /// Reads exactly `count` bytes from `iterator`.
    static func read(
        _ count: Int, from iterator: inout NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    ) async throws -> ByteBuffer {
        var collected = ByteBuffer()
        while collected.readableBytes < count {
            guard var next = try await iterator.next() else {
                throw PeerError(description: "stream ended after \(collected.readableBytes) of \(count) bytes")
            }
            collected.writeBuffer(&next)
        }
        return collected
    }

    /// Reads until the peer ends its stream; returns everything read.
    static func readToEnd(
        from iterator: inout NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    ) async throws -> ByteBuffer {
        var collected = ByteBuffer()
        while var next = try await iterator.next() {
            collected.writeBuffer(&next)
        }
        return collected
    }

    /// `count` bytes of a repeating pattern, built from a cached block (cheap even in debug
    /// builds, so it never starves an event loop or the test's clock).
    static func pattern(_ count: Int, seed: UInt8 = 0) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(count)
        let block = patternBlock
        var remaining = count
        var offset = Int(seed)
        while remaining > 0 {
            let piece = min(remaining, block.count - offset)
            buffer.writeBytes(block[offset..<(offset + piece)])
            remaining -= piece
            offset = 0
        }
        return buffer
    }

    private static let patternBlock: [UInt8] = (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
}

private final class ConnectionCounter: Sendable {
    private let value = Mutex(0)
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}

private final class EchoHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.write(data, promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(mode: .output, promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

private final class SinkHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let connection: Int
    let arrivals: AsyncStream<TestPeers.Arrival>.Continuation

    init(connection: Int, arrivals: AsyncStream<TestPeers.Arrival>.Continuation) {
        self.connection = connection
        self.arrivals = arrivals
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data).readableBytes
        arrivals.yield(TestPeers.Arrival(connection: connection, bytes: bytes, uptimeNanoseconds: NIODeadline.now().uptimeNanoseconds))
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

private final class AcceptReporter: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let accepted: AsyncStream<Void>.Continuation

    init(accepted: AsyncStream<Void>.Continuation) {
        self.accepted = accepted
    }

    func channelActive(context: ChannelHandlerContext) {
        accepted.yield(())
        context.fireChannelActive()
    }
}

private final class SourceHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let count: Int

    init(count: Int) {
        self.count = count
    }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(TestPeers.pattern(count)), promise: nil)
        context.close(mode: .output, promise: nil)
        context.fireChannelActive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

private final class ResettingEchoHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let limit: Int
    private var received = 0

    init(limit: Int) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received += unwrapInboundIn(data).readableBytes
        if received >= limit {
            if let provider = context.channel as? any SocketOptionProvider {
                _ = provider.setSoLinger(linger(l_onoff: 1, l_linger: 0))
            }
            context.close(promise: nil)
        } else {
            context.writeAndFlush(data, promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
