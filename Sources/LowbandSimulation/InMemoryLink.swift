public import LowbandDeterminism
import LowbandProxyCore
public import LowbandShaper
public import LowbandTransport
public import LowbandWire

/// One end of a connection on an ``InMemoryNetwork``.
///
/// Frames really are encoded (`LowbandWire/FrameEncoder`, so compression and byte counts are
/// the real ones) and decoded on arrival (`LowbandWire/FrameDecoder`). The delegate is held
/// weakly; the network keeps an open link alive. `linkDidClose` is called exactly once, also
/// after a local ``close()``, always from a scheduled turn (never inside `send` or `close`).
public final class InMemoryLink: FrameLink {
    public weak var delegate: (any FrameLinkDelegate)?
    let pipe: InMemoryPipe
    /// Which end this is.
    public let side: InMemoryLinkSide
    private let virtualScheduler: VirtualScheduler

    init(pipe: InMemoryPipe, side: InMemoryLinkSide, scheduler: VirtualScheduler) {
        self.pipe = pipe
        self.side = side
        self.virtualScheduler = scheduler
    }

    public var scheduler: any Scheduler { virtualScheduler }

    /// The connection's index in its network (opening order, from 0).
    public var connectionIndex: Int { pipe.index }

    /// Whether frames can still be sent: connected and neither closed nor told of a close.
    public var isOpen: Bool { pipe.isOpen(side) }

    /// What this end sent: frames, bytes on the wire, payload bytes.
    public var sent: TrafficCount { pipe.flows[side.sending.index].sent }

    /// What reached this end and was decoded.
    public var received: TrafficCount { pipe.flows[side.receiving.index].delivered }

    public func send(_ frame: Frame) {
        pipe.network?.send(frame, from: side, on: pipe)
    }

    public func close() {
        pipe.network?.close(side, of: pipe, error: nil)
    }

    func reportClose(_ error: (any Error)?) {
        delegate?.linkDidClose(self, error: error)
    }

    func deliver(_ frame: Frame) {
        delegate?.link(self, didReceive: frame)
    }

    func deliverBytes(_ count: Int) {
        delegate?.link(self, didReceiveBytes: count)
    }
}

/// The two ends of an in-memory connection.
public enum InMemoryLinkSide: String, Hashable, Sendable {
    /// The end that connected (the phone).
    case client
    /// The end the acceptor got.
    case server

    /// The direction this end's frames travel: upstream from the client, downstream from the server.
    public var sending: Direction { self == .client ? .upstream : .downstream }
    /// The direction of the frames this end receives.
    public var receiving: Direction { self == .client ? .downstream : .upstream }

    var other: InMemoryLinkSide { self == .client ? .server : .client }

    /// The same end in the state machine's terms: the server is the proxy's upstream.
    var proxySide: ProxySide { self == .client ? .client : .upstream }
}

extension Direction {
    /// 0 upstream, 1 downstream: the index of a flow in its pipe.
    var index: Int { self == .upstream ? 0 : 1 }

    /// The end that sends what travels this way.
    var sender: InMemoryLinkSide { self == .upstream ? .client : .server }
    /// The end that receives what travels this way.
    var receiver: InMemoryLinkSide { self == .upstream ? .server : .client }
}

/// Opens connections to one acceptor over an ``InMemoryNetwork``.
public final class InMemoryConnector: FrameConnector {
    /// The network the connector's links cross.
    public let network: InMemoryNetwork
    private let acceptor: any FrameLinkAcceptor

    init(network: InMemoryNetwork, acceptor: any FrameLinkAcceptor) {
        self.network = network
        self.acceptor = acceptor
    }

    /// Completes on the network's scheduler: after the connect delay with a link, or with a
    /// `TransportError` (`.connectionRefused` while the network refuses connections,
    /// `.connectionReset` when it is cut before the connection is up). On a shaped network
    /// whose link is down for good (`offline`), the completion waits until the network is cut.
    public func connect(_ completion: @escaping (Result<any FrameLink, any Error>) -> Void) {
        network.connect(to: acceptor, completion)
    }
}
