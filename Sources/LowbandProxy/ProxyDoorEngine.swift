import LowbandDeterminism
import LowbandProxyCore
import LowbandShaper
import LowbandTransport
import NIOCore

/// A front-door client still in its handshake: the bytes go to its `DoorHandshake`, not the link.
struct DoorClient {
    let handler: ProxySocketHandler
    let peer: String
    var handshake: DoorHandshake
    var timer: ScheduledWork?
}

/// A front-door connection on the link: where it goes, and the handshake that answers its client.
struct DoorTunnel {
    let destination: ProxyDestination
    let handshake: DoorHandshake
}

/// The front doors of ``ProxyEngine`` (`ProxyDoor`): a client's handshake is read here, on the
/// proxy's loop, before its connection exists; once it names a destination the connection is
/// opened on the link like any other, and the client is answered when the destination is up.
extension ProxyEngine {
    func admit(_ handler: ProxySocketHandler, peer: String, handshake: DoorHandshake) {
        guard doorClients.count < configuration.limits.maximumHandshakes else {
            deny(handler, peer: peer, reply: [], reason: "\(configuration.limits.maximumHandshakes) handshakes already in progress")
            return
        }
        let id = ObjectIdentifier(handler)
        let timer = eventLoopScheduler.schedule(after: configuration.limits.handshakeTimeout) { [weak handler] in
            guard let handler else { return }
            self.handshakeTimedOut(handler)
        }
        doorClients[id] = DoorClient(handler: handler, peer: peer, handshake: handshake, timer: timer)
        handler.setReading(true)
    }

    /// Closes every client still in its handshake (the proxy stops).
    func closeHandshakes() {
        let clients = doorClients.values.map { $0 }
        doorClients = [:]
        for client in clients {
            if let timer = client.timer { eventLoopScheduler.cancel(timer) }
            client.handler.close(reset: false)
        }
    }

    /// Bytes of a client in its handshake.
    func doorReceived(_ handler: ProxySocketHandler, _ buffer: ByteBuffer) {
        let id = ObjectIdentifier(handler)
        guard var client = doorClients[id] else { return }
        let steps = client.handshake.feed(Array(buffer.readableBytesView))
        doorClients[id] = client
        for step in steps {
            switch step {
            case .reply(let bytes):
                Self.tell(handler, bytes)
            case .refuse(let reply, let reason):
                finishHandshake(id)
                deny(handler, peer: client.peer, reply: reply, reason: reason)
                return
            case .connect(let destination, let forward):
                finishHandshake(id)
                let decision = configuration.routes.decide(host: destination.host, port: destination.port, seed: configuration.link.seed)
                if decision.blocked {
                    let reason = "\(destination) is blocked by \(decision.rule ?? "a rule")"
                    deny(handler, peer: client.peer, reply: client.handshake.failure(.blocked, reason: reason), reason: reason)
                    return
                }
                // The machine starts a connection with its client unread; it asks for reads.
                handler.setReading(false)
                let rule = decision.rule.map { " [\($0)]" } ?? ""
                let number = open(
                    handler, description: "\(client.peer) → \(destination) (\(destination.kind.rawValue))\(rule)",
                    tunnel: DoorTunnel(destination: destination, handshake: client.handshake), route: decision.route)
                self.forward(forward, on: number)
                return
            }
        }
    }

    /// The client ended its side, or its socket closed, during the handshake.
    func doorEnded(_ handler: ProxySocketHandler) {
        let id = ObjectIdentifier(handler)
        guard let client = doorClients[id] else { return }
        finishHandshake(id)
        deny(handler, peer: client.peer, reply: [], reason: "the client closed before its request was complete")
    }

    /// Writes the proxy's own answer to a client at once (outside the link).
    static func tell(_ client: ProxySocketHandler, _ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        client.write(ByteBuffer(bytes: bytes), promise: nil)
        client.flush()
    }

    private func handshakeTimedOut(_ handler: ProxySocketHandler) {
        let id = ObjectIdentifier(handler)
        guard let client = doorClients[id] else { return }
        doorClients[id] = nil
        let seconds = Double(configuration.limits.handshakeTimeout.nanosecondsClamped) / 1e9
        let words = seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
        deny(handler, peer: client.peer, reply: client.handshake.timedOut(after: words), reason: "no complete request within \(words)")
    }

    private func finishHandshake(_ id: ObjectIdentifier) {
        if let timer = doorClients[id]?.timer { eventLoopScheduler.cancel(timer) }
        doorClients[id] = nil
    }

    /// Answers with the protocol's refusal, logs it, and closes the client once it is sent.
    private func deny(_ handler: ProxySocketHandler, peer: String, reply: [UInt8], reason: String) {
        report(ProxyEvent(time: elapsed, kind: .denied, detail: "\(peer) (\(handler.door ?? configuration.door)): \(reason)"))
        if !reply.isEmpty {
            handler.write(ByteBuffer(bytes: reply), promise: nil)
        }
        if let shut = handler.shutdownOutput() {
            shut.assumeIsolated().whenComplete { _ in handler.close(reset: false) }
        } else {
            handler.close(reset: false)
        }
    }
}
