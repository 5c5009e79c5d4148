import LowbandTransport
package import NIOCore

/// Counts the bytes that cross a socket each way; add it at the head of the pipeline.
///
/// Read it on the channel's event loop. Byte figures in Lowband's reports come from here, the
/// socket's side of the codec, not from encoding a frame a second time.
package final class SocketByteCounter: ChannelDuplexHandler {
    package typealias InboundIn = ByteBuffer
    package typealias InboundOut = ByteBuffer
    package typealias OutboundIn = ByteBuffer
    package typealias OutboundOut = ByteBuffer

    /// Bytes read from the socket so far.
    package private(set) var read = 0
    /// Bytes handed to the socket for writing so far.
    package private(set) var written = 0

    package init() {}

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        read += unwrapInboundIn(data).readableBytes
        context.fireChannelRead(data)
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        written += unwrapOutboundIn(data).readableBytes
        context.write(data, promise: promise)
    }
}

@available(*, unavailable)
extension SocketByteCounter: Sendable {}
