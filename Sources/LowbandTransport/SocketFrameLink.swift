public import LowbandDeterminism
public import LowbandWire
public import NIOCore

/// A ``FrameLink`` over a SwiftNIO channel: the product's transport.
///
/// The channel's pipeline holds a byte counter, the frame codec (``LowbandWire/FrameDecoder``
/// and ``LowbandWire/FrameEncoder``) and a handler that hands each decoded frame to the
/// delegate on the channel's event loop. A ``LowbandWire/WireError`` (or an I/O error) closes
/// the connection and reaches `linkDidClose(_:error:)`; a close by either side reaches it with
/// a nil error. `linkDidClose` is called exactly once, also after a local ``close()``.
///
/// The delegate is held weakly; the channel keeps the link alive until it closes. Set the
/// delegate before returning from the callback that hands you the link (the acceptor's
/// `accept` or the connector's completion): frames that arrive while it is nil are dropped.
/// Call ``send(_:)`` and ``close()`` on the channel's event loop (checked).
public final class SocketFrameLink: FrameLink {
    public weak var delegate: (any FrameLinkDelegate)?
    public let channel: any Channel
    private let loopScheduler: EventLoopScheduler
    private let counter: SocketByteCounter
    private var context: ChannelHandlerContext?
    private var closeReported = false
    private var closeError: (any Error)?
    fileprivate var onActive: ((SocketFrameLink) -> Void)?
    fileprivate var onInactive: ((SocketFrameLink) -> Void)?

    private var framesSent = TrafficCount()
    private var framesReceived = TrafficCount()

    /// Frames handed to the channel, with their payload bytes; `bytes` counts what was written
    /// to the socket (headers and payloads as encoded). Read on the event loop.
    public var sent: TrafficCount {
        TrafficCount(frames: framesSent.frames, bytes: counter.written, payloadBytes: framesSent.payloadBytes)
    }

    /// Frames decoded from the channel; `bytes` counts what was read from the socket.
    /// Read on the event loop.
    public var received: TrafficCount {
        TrafficCount(frames: framesReceived.frames, bytes: counter.read, payloadBytes: framesReceived.payloadBytes)
    }

    public var scheduler: any Scheduler { loopScheduler }

    /// Whether frames can still be sent: the channel is active and no close has been asked for.
    public var isOpen: Bool { context != nil && !closeReported && channel.isActive }

    /// The far side's address, if known.
    public var remoteAddress: SocketAddress? { channel.remoteAddress }

    /// This side's address (its port joins the link to a proxy's connection), if known.
    public var localAddress: SocketAddress? { channel.localAddress }

    private init(channel: any Channel, scheduler: EventLoopScheduler, counter: SocketByteCounter) {
        self.channel = channel
        self.loopScheduler = scheduler
        self.counter = counter
    }

    /// Adds the counter, the frame codec and the link's handler to `channel`'s pipeline and
    /// returns the link. Call on the channel's event loop, from a channel initializer.
    ///
    /// - Parameters:
    ///   - scheduler: must run on the channel's event loop; it becomes the link's ``scheduler``.
    ///   - onActive: called once the channel is active (an accepted connection is ready).
    ///   - onInactive: called when the channel has closed, before the delegate hears of it.
    public static func install(
        on channel: any Channel,
        scheduler: EventLoopScheduler,
        configuration: FrameConfiguration = FrameConfiguration(),
        onActive: ((SocketFrameLink) -> Void)? = nil,
        onInactive: ((SocketFrameLink) -> Void)? = nil
    ) throws -> SocketFrameLink {
        precondition(scheduler.eventLoop === channel.eventLoop, "SocketFrameLink: the scheduler must run on the channel's event loop")
        let counter = SocketByteCounter()
        let link = SocketFrameLink(channel: channel, scheduler: scheduler, counter: counter)
        link.onActive = onActive
        link.onInactive = onInactive
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(counter)
        try pipeline.addHandler(ByteProgressHandler(link: link))
        try pipeline.addFrameCodec(configuration: configuration)
        try pipeline.addHandler(FrameLinkHandler(link: link))
        return link
    }

    public func send(_ frame: Frame) {
        channel.eventLoop.preconditionInEventLoop()
        guard let context, !closeReported else { return }
        framesSent.frames += 1
        framesSent.payloadBytes += frame.payload.count
        context.writeAndFlush(NIOAny(frame), promise: nil)
    }

    public func close() {
        channel.eventLoop.preconditionInEventLoop()
        guard let context else { return }
        context.close(promise: nil)
    }

    // MARK: From the handler

    fileprivate func handlerAdded(_ context: ChannelHandlerContext) {
        self.context = context
    }

    fileprivate func channelActive() {
        let hook = onActive
        onActive = nil
        hook?(self)
    }

    fileprivate func received(_ frame: Frame) {
        guard !closeReported else { return }
        framesReceived.frames += 1
        framesReceived.payloadBytes += frame.payload.count
        delegate?.link(self, didReceive: frame)
    }

    fileprivate func receivedBytes(_ count: Int) {
        guard !closeReported, count > 0 else { return }
        delegate?.link(self, didReceiveBytes: count)
    }

    fileprivate func failed(_ error: any Error) {
        if closeError == nil { closeError = error }
        context?.close(promise: nil)
    }

    fileprivate func channelInactive() {
        guard !closeReported else { return }
        closeReported = true
        onActive = nil
        let hook = onInactive
        onInactive = nil
        hook?(self)
        delegate?.linkDidClose(self, error: closeError)
        context = nil
    }

    fileprivate func handlerRemoved() {
        context = nil
        onActive = nil
        onInactive = nil
    }
}

/// Forwards decoded frames and the close to the link; sits after the frame codec.
private final class FrameLinkHandler: ChannelInboundHandler {
    typealias InboundIn = Frame
    typealias OutboundOut = Frame

    private let link: SocketFrameLink

    init(link: SocketFrameLink) {
        self.link = link
    }

    func handlerAdded(context: ChannelHandlerContext) {
        link.handlerAdded(context)
        if context.channel.isActive { link.channelActive() }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        link.handlerRemoved()
    }

    func channelActive(context: ChannelHandlerContext) {
        link.channelActive()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        link.received(unwrapInboundIn(data))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        link.failed(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        link.channelInactive()
        context.fireChannelInactive()
    }
}

/// Tells the link how many bytes arrived before the frame decoder sees them.
private final class ByteProgressHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let link: SocketFrameLink

    init(link: SocketFrameLink) {
        self.link = link
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        link.receivedBytes(unwrapInboundIn(data).readableBytes)
        context.fireChannelRead(data)
    }
}

@available(*, unavailable)
extension FrameLinkHandler: Sendable {}

@available(*, unavailable)
extension ByteProgressHandler: Sendable {}

@available(*, unavailable)
extension SocketFrameLink: Sendable {}
