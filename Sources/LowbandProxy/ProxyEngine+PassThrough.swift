import LowbandProxyCore
import NIOCore

/// ProxyEngine: reads that go straight to the other socket.
///
/// On a link that holds nothing back, with no toxic, partition or pause in the way and nobody
/// reading the trace or the live events, the machine would hand a read to the other socket in
/// the call that reads it; walking it through the machine, the shaper and the write batch cost
/// about as much user time per echo as the rest of NIO. So after a burst the machine took, the
/// socket is told it may write its next bursts to its peer itself (as NIO's `GlueHandler`
/// does) and report their sizes here. The leave is tied to ``passGeneration``: anything that
/// goes through the machine (a toxic, a partition, a profile switch, a socket that stops being
/// writable, a timer) ends it, and the next burst takes the full path, which offers it again
/// when the conditions hold.
extension ProxyEngine {
    /// Lets `side`'s socket of `number` pass its next bursts straight through, if it may.
    func offerPassThrough(_ number: Int, from side: ProxySide) {
        guard configuration.link.trace == nil, let entry = sockets[number], !entry.released,
            let source = entry[side]?.handler, let peer = entry[side == .client ? .upstream : .client]?.handler,
            machine.passesThrough(number, from: side), !broadcast.hasSubscribers
        else { return }
        source.allowPassThrough(to: peer, generation: passGeneration)
    }

    /// Whether a leave given with `generation` still holds for a burst starting now.
    func passThroughHolds(_ generation: Int) -> Bool {
        generation == passGeneration && !broadcast.hasSubscribers
    }

    /// Queues one read of a burst going straight through on `peer`, unflushed (``passed(_:on:from:to:)``
    /// flushes the burst), with a promise of its own (``writeCounted(_:to:)``, as the full path): its
    /// bytes count in ``pendingOutbound`` until the kernel has taken them (with one promise a
    /// burst, a burst the kernel had mostly taken counted whole until its last byte went, and
    /// `peak_buffered_bytes` read up to a burst too high: two bursts, 512 KiB, against a silent
    /// upstream in a loaded CI run), and a failed write tells the peer's socket why it closed
    /// (see ``ProxySocketHandler/recordFailure(_:)``). NIO 2.101 hands a failed write's error only
    /// to the promises of the writes then pending: `flushNow` closes the socket with it, with no
    /// `errorCaught`, and `channelInactive` carries no error (docs/PROXY.md, "Fifth pass").
    /// The promise is the one `peer` keeps ready (``readyWrite(for:)``), made after the previous
    /// burst's flush: making a promise and its callback is then not between this read and its write.
    func passWrite(_ buffer: ByteBuffer, to peer: ProxySocketHandler) {
        let count = buffer.readableBytes
        pendingOutbound += count
        guard let ready = peer.readyWrite else {
            writeCounted(buffer, to: peer)
            return
        }
        peer.readyWrite = nil
        ready.count = count
        peer.write(buffer, promise: ready.promise)
    }

    /// A write's promise made before its bytes are known: its callback takes ``CountedWrite/count``
    /// bytes out of ``pendingOutbound`` and records a failure on `handler`, as
    /// ``writeCounted(_:to:)``'s does. Unused, it completes with a count of 0.
    final class CountedWrite {
        let promise: EventLoopPromise<Void>
        var count = 0

        init(promise: EventLoopPromise<Void>) {
            self.promise = promise
        }
    }

    /// Makes `handler` a ready promise for its next write straight through, if it has none.
    func readyWrite(for handler: ProxySocketHandler) {
        guard handler.readyWrite == nil, handler.takesWrites else { return }
        let ready = CountedWrite(promise: loop.makePromise(of: Void.self))
        ready.promise.futureResult.assumeIsolated().whenComplete { result in
            self.pendingOutbound -= ready.count
            if case .failure(let error) = result { handler.recordFailure(error) }
        }
        handler.readyWrite = ready
    }

    /// The end of a burst of `bytes` that `side`'s socket on `number` queued straight on `peer`:
    /// counted as the machine would have (before the flush, so a write failing in it finds the
    /// bytes counted, as on the full path), then flushed. The peak is read after the flush, as the
    /// full path reads it after its writes (``perform(_:movingBytesOnly:)``): what the kernel took
    /// in the flush was never held.
    func passed(_ bytes: Int, on number: Int, from side: ProxySide, to peer: ProxySocketHandler) {
        machine.passed(bytes, on: number, from: side)
        if side == .client { passedBytes.upstream += bytes } else { passedBytes.downstream += bytes }
        peer.flush()
        peakBuffered = max(peakBuffered, machine.statistics.bufferedBytes + pendingOutbound)
        readyWrite(for: peer)
    }
}
