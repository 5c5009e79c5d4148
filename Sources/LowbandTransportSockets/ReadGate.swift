import NIOCore

/// Swallows the channel's `read` while reading is held and issues it once released, as NIO's
/// `BackPressureHandler` does; put it at the head of the pipeline.
final class ReadGate: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var context: ChannelHandlerContext?
    private var held = false
    private var pendingRead = false

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func read(context: ChannelHandlerContext) {
        if held {
            pendingRead = true
        } else {
            context.read()
        }
    }

    /// Holds or releases reads; a read asked for while held is issued on release.
    func setHeld(_ value: Bool) {
        held = value
        guard !held, pendingRead, let context else { return }
        pendingRead = false
        context.read()
    }
}

@available(*, unavailable)
extension ReadGate: Sendable {}
