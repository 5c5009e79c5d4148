import LowbandShaper

/// The shell's view of the TCP connections crossing its link, from the segments it carries:
/// each connection's number (in the order the device opened them, from 1), and what each end
/// last said (its next sequence number and its acknowledgement), from which a reset either end
/// takes is made up (``resets(_:)``). Its events go into the link's trace with the connection's
/// number (`conn`): `open` (the device's SYN), `connect` (the answer's SYN reached the device),
/// `deliver` and `drop` of segments carrying data (`bytes`: the data), `close` (the first FIN or
/// RST that crossed) and `reset` (one the link made up) — what `explore --shell` reads a
/// connection's life and bytes from, as it reads a proxy's.
struct TCPFlows {
    /// Connections remembered at once; the oldest is forgotten to make room.
    static let maximumFlows = PacketLink.maximumFlows

    private struct Ends {
        var number: Int
        /// The device's next sequence number, and the last acknowledgement it sent (its kernel's
        /// next expected byte), as read from the TAP.
        var deviceNext: UInt32?
        var deviceAck: UInt32?
        /// The same of slirp's end, as slirp wrote them.
        var remoteNext: UInt32?
        var remoteAck: UInt32?
        /// The end of the last segment of each direction that reached its far end.
        var deliveredUp: UInt32?
        var deliveredDown: UInt32?
        /// Ethernet addresses as the uplink's frames carry them.
        var deviceMAC: ArraySlice<UInt8>
        var slirpMAC: ArraySlice<UInt8>
        /// The first FIN or RST crossed (its `close` is traced).
        var closed = false
        /// Both ends sent their FIN, or a reset crossed: nothing is left to reset.
        var finUp = false
        var finDown = false
        var rst = false
        var finished: Bool { rst || (finUp && finDown) }
    }

    private var flows: [PacketFlow: Ends] = [:]
    /// The flows in the order first seen, from `head` on (compacted as it grows).
    private var order: [PacketFlow] = []
    private var head = 0
    private var opened = 0
    /// The numbers of the connections not over yet (neither both FINs nor a reset crossed):
    /// those the API's `DELETE /proxies/shell/connections[/N]` may reset.
    private(set) var live: Set<Int> = []

    /// Notes a segment read from the TAP (up) or written by slirp (down), before the link;
    /// a new connection's `open` when it is the device's first SYN.
    mutating func offered(_ segment: TCPSegment, _ direction: Direction) -> ShaperEvent.Kind? {
        var event: ShaperEvent.Kind?
        if flows[segment.flow] == nil || (segment.has(TCPSegment.syn) && !segment.has(TCPSegment.ack) && direction == .upstream && flows[segment.flow]!.closed) {
            guard direction == .upstream else { return nil }
            if flows.count >= Self.maximumFlows, head < order.count {
                if let forgotten = flows[order[head]] { live.remove(forgotten.number) }
                flows[order[head]] = nil
                head += 1
                if head > Self.maximumFlows {
                    order.removeFirst(head)
                    head = 0
                }
            }
            if let previous = flows[segment.flow] { live.remove(previous.number) }
            opened += 1
            live.insert(opened)
            let (device, slirp) = (segment.source, segment.destination)
            flows[segment.flow] = Ends(number: opened, deviceMAC: device, slirpMAC: slirp)
            order.append(segment.flow)
            event = segment.has(TCPSegment.syn) ? .open : nil
        }
        guard var ends = flows[segment.flow] else { return nil }
        if direction == .upstream {
            ends.deviceNext = later(ends.deviceNext, segment.end)
            if segment.has(TCPSegment.ack) { ends.deviceAck = segment.ack }
        } else {
            ends.remoteNext = later(ends.remoteNext, segment.end)
            if segment.has(TCPSegment.ack) { ends.remoteAck = segment.ack }
        }
        flows[segment.flow] = ends
        return event
    }

    /// Notes a segment the link delivered; the event it makes, if any, with its connection.
    mutating func delivered(_ segment: TCPSegment, _ direction: Direction) -> (ShaperEvent.Kind, Int, String?)? {
        guard var ends = flows[segment.flow] else { return nil }
        if direction == .upstream {
            ends.deliveredUp = later(ends.deliveredUp, segment.end)
        } else {
            ends.deliveredDown = later(ends.deliveredDown, segment.end)
        }
        if segment.has(TCPSegment.fin) {
            if direction == .upstream { ends.finUp = true } else { ends.finDown = true }
        }
        if segment.has(TCPSegment.rst) { ends.rst = true }
        if ends.finished { live.remove(ends.number) }
        defer { flows[segment.flow] = ends }
        if !ends.closed, segment.has(TCPSegment.rst) || segment.has(TCPSegment.fin) {
            ends.closed = true
            let who = direction == .upstream ? "the device" : "the server"
            return (.close, ends.number, "\(segment.has(TCPSegment.rst) ? "RST" : "FIN") from \(who)")
        }
        if direction == .downstream, segment.has(TCPSegment.syn), segment.has(TCPSegment.ack) { return (.connect, ends.number, nil) }
        if segment.payload > 0 { return (.deliver, ends.number, nil) }
        return nil
    }

    /// The flows of the connections not over yet, by number; only `number`'s when given.
    func liveFlows(number: Int? = nil) -> [PacketFlow] {
        flows.filter { $0.value.number == number ?? $0.value.number && !$0.value.finished }.sorted { $0.value.number < $1.value.number }.map(\.key)
    }

    /// The connection of a segment, if known (for a dropped one's event).
    func number(of flow: PacketFlow) -> Int? {
        flows[flow]?.number
    }

    /// The resets the network makes up for `flow`: toward the device (its kernel through the
    /// TAP) and toward slirp, each with the sequence number its receiver expects next (the
    /// acknowledgement it last sent; a second reset with the end of what reached it, when that
    /// differs, for an acknowledgement not sent yet) — as the far end would send it, so that
    /// the kernel takes it (RFC 5961 asks for an exact match). Empty for a flow not seen, or one
    /// already over (both FINs, or a reset, crossed).
    /// `closes`: no FIN or RST of its own had crossed yet, so this reset is its `close` too.
    mutating func resets(_ flow: PacketFlow) -> (number: Int?, closes: Bool, towardDevice: [[UInt8]], towardSlirp: [[UInt8]]) {
        guard var ends = flows[flow], !ends.finished else { return (nil, false, [], []) }
        let closes = !ends.closed
        ends.closed = true
        ends.rst = true
        flows[flow] = ends
        live.remove(ends.number)
        let device = (flow.deviceAddress, flow.devicePort)
        let remote = (flow.remoteAddress, flow.remotePort)
        var towardDevice: [[UInt8]] = []
        for seq in unique([ends.deviceAck, ends.deliveredDown]) {
            towardDevice.append(TCPSegment.reset(
                from: remote, to: device, seq: seq, ack: ends.deviceNext ?? 0, source: ends.slirpMAC, destination: ends.deviceMAC))
        }
        var towardSlirp: [[UInt8]] = []
        for seq in unique([ends.remoteAck, ends.deliveredUp]) {
            towardSlirp.append(TCPSegment.reset(
                from: device, to: remote, seq: seq, ack: ends.remoteNext ?? 0, source: ends.deviceMAC, destination: ends.slirpMAC))
        }
        return (ends.number, closes, towardDevice, towardSlirp)
    }

    private func unique(_ values: [UInt32?]) -> [UInt32] {
        var result: [UInt32] = []
        for case let value? in values where !result.contains(value) { result.append(value) }
        return result
    }

    /// The later of two sequence numbers, modulo 2³².
    private func later(_ current: UInt32?, _ candidate: UInt32) -> UInt32 {
        guard let current else { return candidate }
        return Int32(bitPattern: candidate &- current) > 0 ? candidate : current
    }
}
