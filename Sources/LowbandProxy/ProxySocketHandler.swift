import LowbandProxyCore
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The only handler of a proxied socket: reports reads, ends, writability and closes to the
/// engine, and gates reads the way NIO's `BackPressureHandler` does — a `read()` travelling
/// to the socket is held while the engine says stop, so the kernel buffers fill and TCP flow
/// control pushes back on the peer.
final class ProxySocketHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let engine: ProxyEngine
    let side: ProxySide
    /// The connection's number; set by the engine when a client socket is accepted.
    var number: Int?
    private var context: ChannelHandlerContext?
    private var reading = false
    private var readHeld = false
    private var failure: (any Error)?
    /// Reads of the current readiness burst, handed to the engine together at its end.
    private var unreported: [ByteBuffer] = []
    /// `unreported`'s previous storage, emptied: the two swap at each report, so a burst's
    /// array is never copied on write (a copy and removeAll allocated once per read).
    private var spare: [ByteBuffer] = []
    /// The peer this socket's reads may be written to directly, and the engine's
    /// ``ProxyEngine/passGeneration`` when that was allowed (ProxyEngine+PassThrough.swift).
    private var passPeer: ProxySocketHandler?
    private var passGeneration = 0
    /// The current burst goes straight to `passPeer` (decided at its first read), and the bytes
    /// of it written there so far: each read is queued on the peer as it comes, as NIO's
    /// `GlueHandler` does, and flushed and counted once at the burst's end.
    private var passingBurst = false
    private var passingBytes = 0

    /// The promise the next write straight through to this socket takes, made after the previous
    /// one's flush so that making it is not between a read and its write
    /// (``ProxyEngine/passWrite(_:to:)``); completed when the socket goes.
    var readyWrite: ProxyEngine.CountedWrite?
    /// The socket is gone (`channelInactive`): no promise is made ready for it any more.
    private var gone = false
    var takesWrites: Bool { context != nil && !gone }

    /// The front door of the listener that accepted this client, when it is an extra one.
    let door: ProxyDoor?

    init(engine: ProxyEngine, side: ProxySide, number: Int?, door: ProxyDoor? = nil) {
        self.engine = engine
        self.side = side
        self.number = number
        self.door = door
    }

    // MARK: Engine → socket

    func setReading(_ on: Bool) {
        reading = on
        if on, readHeld, let context {
            readHeld = false
            context.read()
        }
    }

    /// This socket's next bursts may go straight to `peer` while the engine's generation is
    /// `generation`.
    func allowPassThrough(to peer: ProxySocketHandler, generation: Int) {
        passPeer = peer
        passGeneration = generation
    }

    func write(_ buffer: ByteBuffer, promise: EventLoopPromise<Void>?) {
        guard let context else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        context.write(wrapOutboundOut(buffer), promise: promise)
    }

    func flush() {
        context?.flush()
    }

    /// Sends FIN once the pending writes are out.
    func shutdownOutput() -> EventLoopFuture<Void>? {
        guard let context else { return nil }
        context.flush()
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.close(mode: .output, promise: promise)
        return promise.futureResult
    }

    /// Closes at once; with `reset`, SO_LINGER 0 makes the kernel send RST and drop unsent data.
    func close(reset: Bool) {
        guard let context else { return }
        if reset, let provider = context.channel as? any SocketOptionProvider {
            _ = provider.setSoLinger(linger(l_onoff: 1, l_linger: 0))
        }
        context.close(promise: nil)
    }

    // MARK: Socket → engine

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        passPeer = nil
        releaseReadyWrite()
    }

    /// Completes the unused ready promise (it counts no byte), so no promise outlives its socket.
    private func releaseReadyWrite() {
        guard let ready = readyWrite else { return }
        readyWrite = nil
        ready.promise.succeed(())
    }

    func channelActive(context: ChannelHandlerContext) {
        if side == .client {
            engine.accepted(self, channel: context.channel)
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard number != nil else {
            // A front door's client before its connection exists: its handshake.
            engine.doorReceived(self, unwrapInboundIn(data))
            return
        }
        let buffer = unwrapInboundIn(data)
        // A burst goes one way whole: straight through if its first read may, else the engine's.
        if !passingBurst, unreported.isEmpty, passPeer != nil {
            if engine.passThroughHolds(passGeneration) { passingBurst = true } else { passPeer = nil }
        }
        if passingBurst, let peer = passPeer {
            passingBytes += buffer.readableBytes
            engine.passWrite(buffer, to: peer)
        } else {
            unreported.append(buffer)
        }
    }

    /// One engine call per burst of reads (up to `Limits.readsPerWakeup`): the link and the
    /// destination's writes and flush are worked out once for all of them.
    func channelReadComplete(context: ChannelHandlerContext) {
        reportReads()
        context.fireChannelReadComplete()
    }

    private func reportReads() {
        reportPassed()
        guard !unreported.isEmpty, let number else { return }
        var buffers: [ByteBuffer] = []
        swap(&buffers, &spare)
        swap(&buffers, &unreported)
        engine.received(buffers, on: number, from: side)
        buffers.removeAll(keepingCapacity: true)
        // A report from inside the engine call may have left a spare of its own: keep either.
        if spare.capacity < buffers.capacity { spare = buffers }
    }

    /// Ends a burst that went straight through: the engine counts it and flushes the peer.
    private func reportPassed() {
        guard passingBurst else { return }
        passingBurst = false
        let bytes = passingBytes
        passingBytes = 0
        guard let number, let peer = passPeer else { return }
        engine.passed(bytes, on: number, from: side, to: peer)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        reportReads()
        if let event = event as? ChannelEvent, event == .inputClosed {
            if let number { engine.inputClosed(number, side: side) } else if side == .client { engine.doorEnded(self) }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if let number {
            engine.writabilityChanged(number, side: side, writable: context.channel.isWritable)
        }
        context.fireChannelWritabilityChanged()
    }

    /// Remembers why a write failed (NIO closes the socket without an `errorCaught` then), so
    /// the close is reported with its cause.
    func recordFailure(_ error: any Error) {
        if failure == nil { failure = error }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Like NIOCloseOnErrorHandler: a socket error ends the socket; the engine hears of it
        // in channelInactive, with the error as the reason.
        if failure == nil { failure = error }
        reportReads()
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        reportReads()
        passPeer = nil
        gone = true
        releaseReadyWrite()
        if let number {
            engine.socketInactive(number, side: side, error: failure)
        } else if side == .client {
            engine.doorEnded(self)
        }
        context.fireChannelInactive()
    }

    func read(context: ChannelHandlerContext) {
        if reading {
            context.read()
        } else {
            readHeld = true
        }
    }
}

@available(*, unavailable)
extension ProxySocketHandler: Sendable {}
