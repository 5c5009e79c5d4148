import LowbandDeterminism
import LowbandProxyCore
import LowbandShaper
import LowbandTransport
import NIOCore
import NIOPosix

/// ProxyEngine: what its sockets tell it: accepted, opened, bytes, closes.
extension ProxyEngine {
    func accepted(_ handler: ProxySocketHandler, channel: any Channel) {
        guard !stopping else {
            handler.close(reset: false)
            return
        }
        if gateUsed { HandshakeGate.clear(channel) }
        let peer = channel.remoteAddress.map(Self.format) ?? "?"
        if let handshake = DoorHandshake(door: handler.door ?? configuration.door) {
            admit(handler, peer: peer, handshake: handshake)
            return
        }
        let upstream = configuration.upstream
        let decision = configuration.routes.decide(host: upstream.host, port: upstream.port, seed: configuration.link.seed)
        let rule = decision.rule.map { " [\($0)]" } ?? ""
        if decision.blocked {
            report(ProxyEvent(time: elapsed, kind: .denied, detail: "\(peer) → \(upstream): blocked by \(decision.rule ?? "a rule")"))
            handler.close(reset: false)
            return
        }
        open(handler, description: "\(peer) → \(upstream)\(rule)", route: decision.route)
    }

    /// Opens a connection of `handler`'s client on the link, as `description` (its number set),
    /// to `tunnel`'s destination when a front door named one. The machine may ask to connect at
    /// once (no connect delay), so the destination is known before its work is carried out.
    @discardableResult
    func open(_ handler: ProxySocketHandler, description: String, tunnel: DoorTunnel? = nil, route: LinkRoute = .device) -> Int {
        let (number, output) = machine.accept(description: description, route: route, at: now())
        handler.number = number
        sockets[number] = ConnectionSockets(client: Endpoint(handler: handler))
        tunnels[number] = tunnel
        descriptions[number] = description
        perform(output)
        return number
    }

    /// Bytes the client sent after its front-door request: through the link like any other.
    func forward(_ bytes: [UInt8], on number: Int) {
        guard !bytes.isEmpty else { return }
        perform(machine.received(ByteBuffer(bytes: bytes), on: number, from: .client, at: now()))
    }

    /// Reports to the trace (what the shaper does not see), the status handler and the event
    /// stream: a front door's refusal, a DNS lookup.
    func report(_ event: ProxyEvent) {
        announce(event)
    }

    /// Time since the proxy started, as its events count it.
    var elapsed: Duration { now() - .zero }

    var eventLoopScheduler: EventLoopScheduler { scheduler }

    /// The reads of one readiness burst, in order.
    func received(_ buffers: [ByteBuffer], on number: Int, from side: ProxySide) {
        let now = now()
        var output = ProxyOutput()
        if buffers.count == 1 {
            output = machine.received(buffers[0], on: number, from: side, at: now)
        } else {
            for buffer in buffers {
                output.append(machine.received(buffer, on: number, from: side, at: now))
            }
        }
        perform(output, movingBytesOnly: output.movesBytesOnly)
        offerPassThrough(number, from: side)
    }

    func inputClosed(_ number: Int, side: ProxySide) {
        perform(machine.inputClosed(number, side: side, at: now()))
    }

    func writabilityChanged(_ number: Int, side: ProxySide, writable: Bool) {
        perform(machine.writabilityChanged(number, side: side, writable: writable, at: now()))
    }

    func socketInactive(_ number: Int, side: ProxySide, error: (any Error)?) {
        sockets[number]?[side] = nil
        if let entry = sockets[number], entry.client == nil, entry.upstream == nil {
            sockets[number] = nil
            tunnels[number] = nil
            descriptions[number] = nil
        }
        perform(machine.socketClosed(number, side: side, error: error.map(Self.describe), at: now()))
    }
}
