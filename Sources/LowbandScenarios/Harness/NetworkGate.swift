import LowbandDeterminism
import LowbandShaper
import LowbandTransport
import LowbandTransportSockets
import LowbandWire

/// The device's network switch for scenarios that take it away (offline-burst): while it is
/// off, every open link of the device is closed and new connections fail at once, the same way
/// on sockets and in memory. Confined to the run's scheduler.
final class NetworkGate {
    private(set) var isOpen = true
    private var links: [ObjectIdentifier: ScenarioLink] = [:]
    private var order: [ObjectIdentifier] = []

    /// Takes the network away: open links close (in the order they opened), connects fail.
    func close() {
        guard isOpen else { return }
        isOpen = false
        let open = order.compactMap { links[$0] }
        links = [:]
        order = []
        for link in open { link.close() }
    }

    /// Gives the network back.
    func open() {
        isOpen = true
    }

    func register(_ link: ScenarioLink) {
        let id = ObjectIdentifier(link)
        links[id] = link
        order.append(id)
    }

    func unregister(_ link: ScenarioLink) {
        let id = ObjectIdentifier(link)
        guard links.removeValue(forKey: id) != nil else { return }
        order.removeAll { $0 == id }
    }
}

/// Frames and bytes one client received, by command: what the scenarios count (history bytes).
final class FrameCounter {
    private(set) var received: [Command: TrafficCount] = [:]

    func count(_ frame: Frame) {
        received[frame.command, default: .zero] += TrafficCount(frames: 1, bytes: FrameHeader.size + frame.payload.count, payloadBytes: frame.payload.count)
    }

    func received(_ command: Command) -> TrafficCount {
        received[command] ?? .zero
    }
}

/// A connector behind the device's ``NetworkGate`` that counts what its links receive and
/// tells the run's ledger what they carry.
final class GatedConnector: FrameConnector {
    private let inner: any FrameConnector
    private let gate: NetworkGate
    private let scheduler: any Scheduler
    private let ledger: RunLedger
    /// The client the links belong to.
    let owner: Int
    /// The app's scheduler: while it is suspended its links hold what arrives and what it sends.
    private let device: DeviceScheduler?
    let counter = FrameCounter()
    /// The link made last, while it is open (the `connection-reset` fault resets it).
    private(set) weak var current: ScenarioLink?

    init(inner: any FrameConnector, gate: NetworkGate, scheduler: any Scheduler, ledger: RunLedger, owner: Int, device: DeviceScheduler?) {
        self.inner = inner
        self.gate = gate
        self.scheduler = scheduler
        self.ledger = ledger
        self.owner = owner
        self.device = device
    }

    func connect(_ completion: @escaping (Result<any FrameLink, any Error>) -> Void) {
        guard gate.isOpen else {
            scheduler.execute {
                completion(.failure(TransportError(.connectionRefused, "the network is down (the scenario took it away)")))
            }
            return
        }
        let gate = self.gate
        let counter = self.counter
        let ledger = self.ledger
        let owner = self.owner
        let device = self.device
        inner.connect { [weak self] result in
            switch result {
            case .success(let link):
                guard gate.isOpen else {
                    link.close()
                    completion(.failure(TransportError(.connectionRefused, "the network went down while connecting")))
                    return
                }
                let wrapped = ScenarioLink(inner: link, gate: gate, counter: counter, ledger: ledger, owner: owner, device: device)
                self?.current = wrapped
                gate.register(wrapped)
                completion(.success(wrapped))
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }
}

/// A client's link: counts what it receives, tells the ledger what it carries, and can be
/// closed by the gate.
final class ScenarioLink: FrameLink, FrameLinkDelegate {
    weak var delegate: (any FrameLinkDelegate)?
    /// The network's link it wraps.
    let inner: any FrameLink
    private weak var gate: NetworkGate?
    private let counter: FrameCounter
    private let ledger: RunLedger
    private let owner: Int
    private let device: DeviceScheduler?
    /// On sockets, where each frame is in the link's byte streams (the in-memory network says
    /// so itself).
    private var streams: SocketStreams?

    init(inner: any FrameLink, gate: NetworkGate, counter: FrameCounter, ledger: RunLedger, owner: Int, device: DeviceScheduler?) {
        self.inner = inner
        self.gate = gate
        self.counter = counter
        self.ledger = ledger
        self.owner = owner
        self.device = device
        if let socket = inner as? SocketFrameLink, let port = socket.localAddress?.port {
            streams = SocketStreams(port: port)
        }
        inner.delegate = self
    }

    var scheduler: any Scheduler { inner.scheduler }

    func send(_ frame: Frame) {
        inner.send(frame)
        ledger.clientSent(frame, client: owner, at: scheduler.now, placement: streams?.place(frame, .upstream))
    }

    func close() {
        inner.close()
    }

    func link(_ link: any FrameLink, didReceive frame: Frame) {
        counter.count(frame)
        ledger.clientReceived(frame, client: owner, at: scheduler.now, placement: streams?.place(frame, .downstream))
        // A suspended app reads nothing: the frame waits (in the socket's buffer) until it runs.
        if let device, device.isSuspended {
            device.execute { [weak self] in
                guard let self else { return }
                self.delegate?.link(self, didReceive: frame)
            }
            return
        }
        delegate?.link(self, didReceive: frame)
    }

    func link(_ link: any FrameLink, didReceiveBytes count: Int) {
        // A suspended app sees nothing arrive, bytes included.
        if let device, device.isSuspended {
            device.execute { [weak self] in
                guard let self else { return }
                self.delegate?.link(self, didReceiveBytes: count)
            }
            return
        }
        delegate?.link(self, didReceiveBytes: count)
    }

    func linkDidClose(_ link: any FrameLink, error: (any Error)?) {
        gate?.unregister(self)
        if let device, device.isSuspended {
            device.execute { [weak self] in
                guard let self else { return }
                self.delegate?.linkDidClose(self, error: error)
            }
            return
        }
        delegate?.linkDidClose(self, error: error)
    }
}

/// A socket link's two byte streams as the proxy's shaper counts them: each frame's wire size
/// (the encoder is deterministic, so encoding again gives the bytes that travelled) added up.
struct SocketStreams {
    let port: Int
    private let encoder = FrameEncoder()
    private var ends = [0, 0]

    init(port: Int) {
        self.port = port
    }

    mutating func place(_ frame: Frame, _ direction: Direction) -> FramePlacement? {
        guard let bytes = try? encoder.bytes(of: frame).readableBytes else { return nil }
        let slot = direction == .upstream ? 0 : 1
        ends[slot] += bytes
        return FramePlacement(connection: -1, direction: direction, streamEnd: ends[slot], clientPort: port)
    }
}
