import LowbandDeterminism
import LowbandProxyCore
import LowbandShaper
import LowbandTransport
import NIOCore
import NIOPosix

/// ProxyEngine: carrying out the state machine's output on the sockets.
extension ProxyEngine {
    /// Carries out the machine's output, including that of events that socket calls fire
    /// meanwhile (see ``performing``): first its events (the trace and the observers), then each
    /// connection's work.
    /// `movingBytesOnly`: the output of a read that only moved bytes (``ProxyOutput/movesBytesOnly``),
    /// which leaves the other sockets' leave to pass reads straight through as it was.
    func perform(_ output: ProxyOutput, movingBytesOnly: Bool = false) {
        // Whatever else the machine was told may have changed what may pass straight through.
        if !movingBytesOnly { passGeneration &+= 1 }
        guard !performing else {
            deferred.append(output)
            return
        }
        performing = true
        var output = output
        while true {
            carryOut(output)
            peakBuffered = max(peakBuffered, machine.statistics.bufferedBytes + pendingOutbound)
            guard !deferred.isEmpty else { break }
            output = ProxyOutput()
            swap(&output, &deferred)
        }
        performing = false
        for event in observer.drain() {
            publish(ProxyEvent(placed: event))
        }
        scheduleWakeup()
    }

    func carryOut(_ output: ProxyOutput) {
        for event in output.events { announce(event) }
        for work in output.work { carryOut(work) }
        writeBatches(of: nil)
    }

    /// One connection's work, in ``SocketWork``'s order.
    private func carryOut(_ work: SocketWork) {
        let number = work.number
        if work.connect { connect(number) }
        for (side, buffer) in work.writes { write(buffer, to: number, side) }
        for side in work.shutdowns {
            writeBatches(of: number)
            // Socket calls can re-enter the engine, so no access to `sockets` spans one.
            if let handler = sockets[number]?[side]?.handler {
                let shut = handler.shutdownOutput()
                sockets[number]?[side]?.outputShut = shut
            }
        }
        // Two plain calls, not a loop over an array literal (allocated per work item).
        // (The handler is taken first: no access to `sockets` spans the socket call.)
        if let on = work.readClient, let handler = sockets[number]?.client?.handler { handler.setReading(on) }
        if let on = work.readUpstream, let handler = sockets[number]?.upstream?.handler { handler.setReading(on) }
        switch work.ending {
        case .close(let reset, _):
            writeBatches(of: number)
            close(number, reset: reset)
        case .release:
            sockets[number]?.released = true
        case nil:
            break
        }
    }

    func write(_ buffer: ByteBuffer, to number: Int, _ side: ProxySide) {
        guard let handler = sockets[number]?[side]?.handler else { return }
        let count = buffer.readableBytes
        pendingOutbound += count
        if let position = batches.lastIndex(where: { $0.handler === handler }) {
            batches[position].buffers.append(buffer)
        } else {
            batches.append(WriteBatch(number: number, handler: handler, buffers: [buffer]))
        }
    }

    /// Writes `buffers` to `handler` and flushes it, one promise per write: each write's bytes
    /// leave ``pendingOutbound`` (which the caller added them to) as soon as the kernel has taken
    /// it, and the first failure is recorded on `handler` as the reason it closed.
    func writeCounted(_ buffers: [ByteBuffer], to handler: ProxySocketHandler) {
        for buffer in buffers { writeCounted(buffer, to: handler) }
        handler.flush()
    }

    /// Queues `buffer` on `handler`, unflushed, with the promise that takes its bytes out of
    /// ``pendingOutbound`` once the kernel has them and records a failure on `handler`.
    func writeCounted(_ buffer: ByteBuffer, to handler: ProxySocketHandler) {
        let count = buffer.readableBytes
        let promise = loop.makePromise(of: Void.self)
        promise.futureResult.assumeIsolated().whenComplete { result in
            self.pendingOutbound -= count
            if case .failure(let error) = result { handler.recordFailure(error) }
        }
        handler.write(buffer, promise: promise)
    }

    /// Hands the batched writes (of one connection, or all) to their sockets and flushes each
    /// socket once. One promise per write, so ``pendingOutbound`` drops as soon as the kernel has
    /// taken each buffer: with one promise per batch, a batch the kernel had mostly taken still
    /// counted whole until its last byte went, and the peak read up to a batch too high. A
    /// failed write fails those after it; the first failure is recorded.
    func writeBatches(of number: Int?) {
        guard !batches.isEmpty else { return }
        var due: [WriteBatch] = []
        if let number {
            guard batches.contains(where: { $0.number == number }) else { return }
            due = batches.filter { $0.number == number }
            batches.removeAll { $0.number == number }
        } else {
            swap(&due, &batches)
        }
        for batch in due {
            writeCounted(batch.buffers, to: batch.handler)
        }
        // The list's storage goes back for the next turn's writes, unless writes made meanwhile
        // (a socket call re-entering the engine) started a list of their own.
        if batches.isEmpty {
            due.removeAll(keepingCapacity: true)
            swap(&due, &batches)
        }
    }

    func close(_ number: Int, reset: Bool) {
        guard var entry = sockets[number] else { return }
        entry.released = true
        sockets[number] = entry
        for side in [ProxySide.client, .upstream] {
            guard let endpoint = entry[side] else { continue }
            let handler = endpoint.handler
            if reset || stopping {
                handler.close(reset: reset)
            } else if let shut = endpoint.outputShut ?? handler.shutdownOutput() {
                // Graceful: pending writes go out and FIN follows, then the socket closes.
                shut.assumeIsolated().whenComplete { _ in handler.close(reset: false) }
            }
        }
    }

    func connect(_ number: Int) {
        guard let entry = sockets[number], !entry.released else { return }
        let upstream = tunnels[number].map { ProxyEndpoint(host: $0.destination.host, port: $0.destination.port) } ?? configuration.upstream
        // A name is looked up on the device's network first, as the profile's `dns` says (a
        // `direct` route's connection skips the device's network, its DNS delay included).
        if let dns = configuration.link.dns, !machine.isDirect(number), !Self.isAddressLiteral(upstream.host) {
            lookUp(upstream, for: number, dns: dns)
            return
        }
        openUpstream(number, upstream)
    }

    /// Opens the upstream socket of connection `number`; the machine hears how it went.
    func openUpstream(_ number: Int, _ upstream: ProxyEndpoint) {
        guard let entry = sockets[number], !entry.released else { return }
        let bound = NIOLoopBound(self, eventLoop: loop)
        let limits = configuration.limits
        ClientBootstrap(group: loop)
            .channelOption(.allowRemoteHalfClosure, value: true)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelOption(.writeBufferWaterMark, value: Self.watermark(limits))
            .channelOption(.recvAllocator, value: Self.recvAllocator(limits))
            .channelOption(.maxMessagesPerRead, value: UInt(max(limits.readsPerWakeup, 1)))
            .connectTimeout(TimeAmount(limits.connectTimeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = ProxySocketHandler(engine: bound.value, side: .upstream, number: number)
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
            .connect(host: upstream.host, port: upstream.port)
            .assumeIsolated()
            .whenComplete { result in
                self.connectFinished(number, result)
            }
    }

    func connectFinished(_ number: Int, _ result: Result<any Channel, any Error>) {
        switch result {
        case .success(let channel):
            guard let entry = sockets[number], !entry.released, channel.isActive,
                let handler = try? channel.pipeline.syncOperations.handler(type: ProxySocketHandler.self)
            else {
                channel.close(promise: nil)
                return
            }
            sockets[number]?.upstream = Endpoint(handler: handler)
            // A front door tells its client first, outside the link: the reply is the proxy's.
            if let tunnel = tunnels[number], let client = sockets[number]?.client?.handler {
                Self.tell(client, tunnel.handshake.success(boundAddress: Self.addressBytes(channel.localAddress), boundPort: channel.localAddress?.port ?? 0))
            }
            perform(machine.upstreamConnected(number, at: now()))
        case .failure(let error):
            let destination = tunnels[number].map(\.destination.description) ?? configuration.upstream.description
            upstreamFailed(number, Self.doorFailure(error), reason: "\(destination): \(Self.describe(error))")
        }
    }

    /// The upstream of `number` cannot be reached: a front door's client is told in its
    /// protocol's words, then the machine closes the connection.
    func upstreamFailed(_ number: Int, _ failure: DoorFailure, reason: String) {
        if let tunnel = tunnels[number], let client = sockets[number]?.client?.handler {
            Self.tell(client, tunnel.handshake.failure(failure, reason: reason))
        }
        perform(machine.upstreamFailed(number, reason: reason, at: now()))
    }

    /// Publishes `event`, and writes the proxy's own decisions the shaper does not see — toxics
    /// changed, bytes discarded — into the link's trace, on the proxy's timeline and numbers.
    func announce(_ event: ProxyEvent) {
        if let trace = configuration.link.trace, let line = event.shaperTraceEvent {
            trace.record(line)
        }
        publish(event)
    }

    func publish(_ event: ProxyEvent) {
        if let handler = configuration.statusHandler, let line = event.statusLine {
            handler(line)
        }
        if broadcast.hasSubscribers {
            broadcast.publish(event)
        }
    }
}
