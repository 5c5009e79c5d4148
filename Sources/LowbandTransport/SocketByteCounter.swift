public import NIOCore

/// Counts the bytes that cross a socket each way; add it at the head of the pipeline.
///
/// Read it on the channel's event loop. Byte figures in Lowband's reports come from here, the
/// socket's side of the codec, not from encoding a frame a second time.
public final class SocketByteCounter: ChannelDuplexHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer
    public typealias OutboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    /// Bytes read from the socket so far.
    public private(set) var read = 0
    /// Bytes handed to the socket for writing so far.
    public private(set) var written = 0

    public init() {}

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        read += unwrapInboundIn(data).readableBytes
        context.fireChannelRead(data)
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        written += unwrapOutboundIn(data).readableBytes
        context.write(data, promise: promise)
    }
}

@available(*, unavailable)
extension SocketByteCounter: Sendable {}
