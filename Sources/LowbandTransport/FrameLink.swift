public import LowbandDeterminism
public import LowbandWire

/// One connection that carries frames, in order, both ways: the seam for transport.
///
/// The product uses SwiftNIO sockets; tests and virtual-time runs use an in-memory link on a
/// `VirtualScheduler` (optionally shaped by the link model, with real frame encoding so byte
/// counts and compression are the real ones). Server and client logic see only this protocol.
/// A link is confined to its scheduler: call `send` and `close` there, and the delegate is
/// called there.
public protocol FrameLink: AnyObject {
    /// Receives frames and the close; held weakly by implementations that can (document it).
    var delegate: (any FrameLinkDelegate)? { get set }

    /// Where `send`/`close` must be called and delegate callbacks arrive.
    var scheduler: any Scheduler { get }

    /// Queues `frame` for the far side. Frames sent after `close` are dropped.
    func send(_ frame: Frame)

    /// Closes both directions; the far side's delegate sees `linkDidClose`.
    func close()

    /// The far side's network address without its port (`127.0.0.1`, `::1`), for limits kept
    /// per source (the server's login back-off); nil for links with no address (in memory).
    var peerAddress: String? { get }
}

extension FrameLink {
    /// No address: links in memory, and wrappers that do not pass their inner link's on.
    public var peerAddress: String? { nil }
}

/// What a link tells its owner.
public protocol FrameLinkDelegate: AnyObject {
    /// A frame arrived, decoded; called on the link's event loop, in arrival order.
    func link(_ link: any FrameLink, didReceive frame: Frame)
    /// The link is gone: closed by either side, reset, or broken by a protocol error (`error`).
    func linkDidClose(_ link: any FrameLink, error: (any Error)?)
    /// `count` bytes arrived, before they are decoded: a large frame shows progress while it
    /// is still on its way. Called before the frames those bytes complete. Optional.
    func link(_ link: any FrameLink, didReceiveBytes count: Int)
    /// A `FlowControlledFrameLink`'s unsent bytes went over its high water mark (`true`: it
    /// stops reading) or dropped below its low one (`false`: it reads again). Optional.
    func link(_ link: any FrameLink, didCrossOutboundLimit isOver: Bool)
}

extension FrameLinkDelegate {
    /// Does nothing: most delegates care about whole frames only.
    public func link(_ link: any FrameLink, didReceiveBytes count: Int) {}

    /// Does nothing: only a server that enforces outbound limits cares.
    public func link(_ link: any FrameLink, didCrossOutboundLimit isOver: Bool) {}
}

extension FrameLinkDelegate where Self: FrameLink {
    /// A link that wraps another (it is its inner link's delegate) passes byte progress on to
    /// its own delegate, so decorators need not know about it.
    public func link(_ link: any FrameLink, didReceiveBytes count: Int) {
        delegate?.link(self, didReceiveBytes: count)
    }
}

/// Opens links to a server: the client's side of the transport seam.
public protocol FrameConnector: AnyObject {
    /// Calls `completion` on the connector's scheduler with a new link or the reason there is none.
    func connect(_ completion: @escaping (Result<any FrameLink, any Error>) -> Void)
}

/// Takes the links a listener accepts: the server's side of the transport seam.
public protocol FrameLinkAcceptor: AnyObject {
    /// Takes over `link`, a connection just accepted: set its delegate here, on the listener's loop.
    func accept(_ link: any FrameLink)
}
