import LowbandDeterminism
import LowbandShaper
import LowbandWire
import NIOCore

/// One in-memory connection: its two ends and a flow of bytes each way.
final class InMemoryPipe {
    enum Phase {
        case connecting
        case open
        case closed
    }

    let index: Int
    weak var network: InMemoryNetwork?
    var phase = Phase.connecting
    var shaperID: ConnectionID?
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
            flows[index].waiting.removeAll()
            flows[index].inFlight.clear()
            flows[index].arrived.clear()
            flows[index].paused = false
            flows[index].finPending = false
        }
        client = nil
        server = nil
        clientOpen = false
        serverOpen = false
    }
}

/// Bytes going one way on a pipe: frames waiting to be handed to the link (back-pressure),
/// bytes on the link, and bytes arrived but not yet a whole frame.
struct Flow {
    let encoder: FrameEncoder
    var decoder: FrameDecoder
    /// Encoded frames not yet submitted to the shaper because its queue was full; the first
    /// may be the rest of a frame that was partly submitted.
    var waiting = CircularBuffer<ByteBuffer>()
    var paused = false
    /// Submitted to the shaper and not yet delivered, in order.
    var inFlight = ByteBuffer()
    /// Delivered and not yet decoded into a whole frame.
    var arrived = ByteBuffer()
    /// The sender closed; the receiver is told once everything before the close has arrived.
    var finPending = false
    var sent = TrafficCount()
    var delivered = TrafficCount()
    /// Bytes of whole frames decoded so far (`delivered.bytes` also counts partial frames).
    var decodedBytes = 0

    init(configuration: FrameConfiguration) {
        encoder = FrameEncoder(configuration: configuration)
        decoder = FrameDecoder(configuration: configuration)
    }

    var idle: Bool { waiting.isEmpty && inFlight.readableBytes == 0 }
}
