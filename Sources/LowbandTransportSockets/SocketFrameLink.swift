package import LowbandDeterminism
package import LowbandTransport
package import LowbandWire
package import NIOCore

/// A `LowbandTransport/FrameLink` over a SwiftNIO channel: the product's transport.
///
/// The channel's pipeline holds a byte counter, the frame codec (`LowbandWire/FrameDecoder`
/// and `LowbandWire/FrameEncoder`) and a handler that hands each decoded frame to the
/// delegate on the channel's event loop. A `LowbandWire/WireError` (or an I/O error) closes
/// the connection and reaches `linkDidClose(_:error:)`; a close by either side reaches it with
/// a nil error. `linkDidClose` is called exactly once, also after a local ``close()``.
///
/// The delegate is held weakly; the channel keeps the link alive until it closes. Set the
/// delegate before returning from the callback that hands you the link (the acceptor's
/// `accept` or the connector's completion): frames that arrive while it is nil are dropped.
/// Call ``send(_:)`` and ``close()`` on the channel's event loop (checked).
///
/// Installed with `LowbandTransport/OutboundLimits` (the server's side), the link is a
/// `LowbandTransport/FlowControlledFrameLink`: it stops reading while its unsent bytes are over the high
/// water mark, and a caller may hold its reading. Without them it reads whatever comes.
package final class SocketFrameLink: FlowControlledFrameLink {
    package weak var delegate: (any FrameLinkDelegate)?
    /// The NIO channel of the connection.
    package let channel: any Channel
    private let loopScheduler: EventLoopScheduler
    private let counter: SocketByteCounter
    private let gate: ReadGate
    private let outboundLimits: OutboundLimits?
    private var context: ChannelHandlerContext?
    private var heldByCaller = false
    private var overOutboundLimit = false
    /// Frames decoded while reading was held, oldest first from `heldStart`; bounded by what
    /// one read of the socket brings, since the socket is not read while held.
    private var heldFrames: [Frame] = []
    private var heldStart = 0
    private var delivering = false
    private var closeReported = false
    private var closeError: (any Error)?
    fileprivate var onActive: ((SocketFrameLink) -> Void)?
    fileprivate var onInactive: ((SocketFrameLink) -> Void)?

    private var framesSent = TrafficCount()
    private var framesReceived = TrafficCount()

    /// Frames handed to the channel, with their payload bytes; `bytes` counts what was written
    /// to the socket (headers and payloads as encoded). Read on the event loop.
    package var sent: TrafficCount {
        TrafficCount(frames: framesSent.frames, bytes: counter.written, payloadBytes: framesSent.payloadBytes)
    }

    /// Frames decoded from the channel; `bytes` counts what was read from the socket.
    /// Read on the event loop.
    package var received: TrafficCount {
        TrafficCount(frames: framesReceived.frames, bytes: counter.read, payloadBytes: framesReceived.payloadBytes)
    }

    package var scheduler: any Scheduler { loopScheduler }

    /// Whether frames can still be sent: the channel is active and no close has been asked for.
    package var isOpen: Bool { context != nil && !closeReported && channel.isActive }

    /// The far side's address, if known.
    package var remoteAddress: SocketAddress? { channel.remoteAddress }

    /// The far side's IP address, without its port.
    package var peerAddress: String? { channel.remoteAddress?.ipAddress }

    /// This side's address (its port joins the link to a proxy's connection), if known.
    package var localAddress: SocketAddress? { channel.localAddress }

    private init(channel: any Channel, scheduler: EventLoopScheduler, counter: SocketByteCounter, gate: ReadGate, outboundLimits: OutboundLimits?) {
        self.channel = channel
        self.loopScheduler = scheduler
        self.counter = counter
        self.gate = gate
        self.outboundLimits = outboundLimits
    }

    /// Adds the counter, the frame codec and the link's handler to `channel`'s pipeline and
    /// returns the link. Call on the channel's event loop, from a channel initializer.
    ///
    /// - Parameters:
    ///   - channel: a new channel, not yet active.
    ///   - configuration: the frame format and its limits.
    ///   - scheduler: must run on the channel's event loop; it becomes the link's ``scheduler``.
    ///   - outboundLimits: when to stop reading because the far side does not take what it is
    ///     sent; nil reads regardless (a client's side).
    ///   - onActive: called once the channel is active (an accepted connection is ready).
    ///   - onInactive: called when the channel has closed, before the delegate hears of it.
    package static func install(
        on channel: any Channel,
        scheduler: EventLoopScheduler,
        configuration: FrameConfiguration = FrameConfiguration(),
        outboundLimits: OutboundLimits? = nil,
        onActive: ((SocketFrameLink) -> Void)? = nil,
        onInactive: ((SocketFrameLink) -> Void)? = nil
    ) throws -> SocketFrameLink {
        precondition(scheduler.eventLoop === channel.eventLoop, "SocketFrameLink: the scheduler must run on the channel's event loop")
        let counter = SocketByteCounter()
        let gate = ReadGate()
        let link = SocketFrameLink(channel: channel, scheduler: scheduler, counter: counter, gate: gate, outboundLimits: outboundLimits)
        link.onActive = onActive
        link.onInactive = onInactive
        let pipeline = channel.pipeline.syncOperations
        if let outboundLimits, let options = channel.syncOptions {
            try options.setOption(.writeBufferWaterMark, value: .init(low: outboundLimits.lowWaterMark, high: outboundLimits.highWaterMark))
        }
        try pipeline.addHandler(gate)
        try pipeline.addHandler(counter)
        try pipeline.addHandler(ByteProgressHandler(link: link))
        try pipeline.addFrameCodec(configuration: configuration)
        try pipeline.addHandler(FrameLinkHandler(link: link))
        return link
    }

    package func send(_ frame: Frame) {
        channel.eventLoop.preconditionInEventLoop()
        guard let context, !closeReported else { return }
        framesSent.frames += 1
        framesSent.payloadBytes += frame.payload.count
        context.writeAndFlush(NIOAny(frame), promise: nil)
        if outboundLimits != nil, !overOutboundLimit, !channel.isWritable {
            writabilityChanged(isWritable: false)
        }
    }

    // MARK: Flow control

    package var queuedOutboundBytes: Int {
        (try? channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
    }

    package var outboundBytesWritten: Int { counter.written - queuedOutboundBytes }

    package var isOverOutboundLimit: Bool { overOutboundLimit }

    package var isReadingHeld: Bool { heldByCaller || overOutboundLimit }

    package func holdReading() {
        channel.eventLoop.preconditionInEventLoop()
        heldByCaller = true
        gate.setHeld(true)
    }

    package func releaseReading() {
        channel.eventLoop.preconditionInEventLoop()
        heldByCaller = false
        readingMayResume()
    }

    /// Delivers frames that waited while reading was held, then lets the socket be read.
    private func readingMayResume() {
        guard !isReadingHeld, !delivering else { return }
        delivering = true
        while !isReadingHeld, !closeReported, heldStart < heldFrames.count {
            let frame = heldFrames[heldStart]
            heldStart += 1
            deliver(frame)
        }
        if heldStart == heldFrames.count {
            heldFrames.removeAll(keepingCapacity: false)
            heldStart = 0
        }
        delivering = false
        if !isReadingHeld { gate.setHeld(false) }
    }

    private func writabilityChanged(isWritable: Bool) {
        guard outboundLimits != nil, overOutboundLimit == isWritable, !closeReported else { return }
        overOutboundLimit = !isWritable
        if overOutboundLimit { gate.setHeld(true) }
        delegate?.link(self, didCrossOutboundLimit: overOutboundLimit)
        readingMayResume()
    }

    package func close() {
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
        if isReadingHeld || heldStart < heldFrames.count {
            heldFrames.append(frame)
            return
        }
        deliver(frame)
    }

    fileprivate func channelWritabilityChanged(isWritable: Bool) {
        writabilityChanged(isWritable: isWritable)
    }

    private func deliver(_ frame: Frame) {
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
        heldFrames = []
        heldStart = 0
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

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        link.channelWritabilityChanged(isWritable: context.channel.isWritable)
        context.fireChannelWritabilityChanged()
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
