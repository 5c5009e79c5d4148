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

    /// Writes a burst of `side`'s reads on `number` to `peer` and counts them as the machine
    /// would have. One promise per write (``writeCounted(_:to:)``, as the full path): each write's
    /// bytes leave ``pendingOutbound`` as soon as the kernel has taken it (with one promise for
    /// the burst, a burst the kernel had mostly taken counted whole until its last byte went,
    /// and `peak_buffered_bytes` read up to a burst too high: two bursts, 512 KiB, against a
    /// silent upstream in a loaded CI run), and a failed write tells the peer's socket why it
    /// closed (see ``ProxySocketHandler/recordFailure(_:)``). An echo's burst is one read, so
    /// this costs the round trip nothing over one promise a burst.
    func passed(_ buffers: [ByteBuffer], bytes: Int, on number: Int, from side: ProxySide, to peer: ProxySocketHandler) {
        machine.passed(bytes, on: number, from: side)
        if side == .client { passedBytes.upstream += bytes } else { passedBytes.downstream += bytes }
        pendingOutbound += bytes
        peakBuffered = max(peakBuffered, machine.statistics.bufferedBytes + pendingOutbound)
        writeCounted(buffers, to: peer)
    }
}
