import LowbandDeterminism
import LowbandShaper
import LowbandTransport
import LowbandWire
import NIOCore

/// One in-memory connection: its two ends and a flow of bytes each way. The bytes between the
/// ends live in the network's ``LowbandProxyCore`` state machine; the pipe keeps what the ends
/// see: frames not yet read from the sending end, and bytes arrived but not yet a whole frame.
final class InMemoryPipe {
    enum Phase {
        case connecting
        case open
        case closed
    }

    let index: Int
    weak var network: InMemoryNetwork?
    var phase = Phase.connecting
    /// The connection's number in the network's state machine.
    var number = 0
    /// The connection's `conn` in the trace, when the network is shaped by a profile (nil on a
    /// latency-only network): its ``number``.
    var traceConnection: Int?
    /// Set when the network turned the connect down on purpose (``InMemoryNetwork/refusesConnections``).
    var refused = false
    /// Held until the connection is up (or fails).
    var acceptor: (any FrameLinkAcceptor)?
    var completion: ((Result<any FrameLink, any Error>) -> Void)?
    /// Each end is held while it is open, so a link lives as long as its connection.
    private var client: InMemoryLink?
    private var server: InMemoryLink?
    private var clientOpen = false
    private var serverOpen = false
    /// Upstream (client → server) at 0, downstream at 1.
    var flows: [Flow]
    var openedAt: Duration?
    var closedAt: Duration?

    init(index: Int, network: InMemoryNetwork, frame: FrameConfiguration) {
        self.index = index
        self.network = network
        flows = [Flow(configuration: frame), Flow(configuration: frame)]
    }

    func attach(client: InMemoryLink, server: InMemoryLink) {
        self.client = client
        self.server = server
        clientOpen = true
        serverOpen = true
        phase = .open
    }

    func isOpen(_ side: InMemoryLinkSide) -> Bool {
        phase == .open && (side == .client ? clientOpen : serverOpen)
    }

    func link(_ side: InMemoryLinkSide) -> InMemoryLink? {
        side == .client ? client : server
    }

    /// Marks `side` closed and lets go of its link, which is returned for the close report.
    func detach(_ side: InMemoryLinkSide) -> InMemoryLink? {
        switch side {
        case .client:
            defer { client = nil }
            clientOpen = false
            return client
        case .server:
            defer { server = nil }
            serverOpen = false
            return server
        }
    }

    var bothSidesClosed: Bool { !clientOpen && !serverOpen }

    /// Drops every byte still on its way and the ends' links.
    func discardTraffic() {
        for index in flows.indices {
            flows[index].outbox.removeAll()
            flows[index].arrived.clear()
            flows[index].reading = false
            flows[index].endPending = false
        }
        client = nil
        server = nil
        clientOpen = false
        serverOpen = false
    }
}

/// Bytes going one way on a pipe, as the ends see them: encoded frames the flow has not read
/// yet (it stops reading under back-pressure, as the proxy stops reading a socket), and bytes
/// arrived but not yet a whole frame.
struct Flow {
    let encoder: FrameEncoder
    var decoder: FrameDecoder
    /// Encoded frames not yet read into the flow; the first may be the rest of a frame that
    /// was partly read.
    var outbox = CircularBuffer<ByteBuffer>()
    /// Whether the flow reads the sending end, as the state machine last said.
    var reading = false
    /// The sender closed: its end goes into the flow once the outbox is empty.
    var endPending = false
    /// When the sender closed; its end reaches the receiver no sooner than one link delay later.
    var endedAt: Duration?
    /// Delivered and not yet decoded into a whole frame.
    var arrived = ByteBuffer()
    var sent = TrafficCount()
    var delivered = TrafficCount()
    /// Bytes of whole frames decoded so far (`delivered.bytes` also counts partial frames).
    var decodedBytes = 0

    init(configuration: FrameConfiguration) {
        encoder = FrameEncoder(configuration: configuration)
        decoder = FrameDecoder(configuration: configuration)
    }
}
