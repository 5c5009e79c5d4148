import NIOCore
import NIOPosix

/// A TCP service that sends every byte back: the "your own service" of this example.
public struct EchoService: Sendable {
    private let channel: any Channel

    /// The port it listens on, on 127.0.0.1.
    public var port: Int { channel.localAddress?.port ?? 0 }

    /// Starts listening on 127.0.0.1 on a free port.
    public static func start() async throws -> EchoService {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(EchoHandler())
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return EchoService(channel: channel)
    }

    /// Stops listening.
    public func stop() async throws {
        try await channel.close()
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

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
