import LowbandDeterminism
import LowbandProxyCore
import LowbandShaper
import LowbandTransport
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The I/O half of a proxy, confined to its event loop: it owns the listener and the sockets,
/// turns socket events into ``ProxyStateMachine`` calls with the scheduler's time, carries
/// out the returned output, and wakes the machine up at its `nextWakeup` on the scheduler.
///
/// Every connection of a proxy lives on this one loop, so the shaper is only touched here.
final class ProxyEngine {
    let loop: any EventLoop
    /// The proxy's only clock and timer: nothing here reads the time any other way.
    let scheduler: EventLoopScheduler
    var configuration: ShapingProxy.Configuration
    var machine: ProxyStateMachine
    /// The scheduler's time when the proxy's timeline starts (its ShaperInstant zero).
    let origin: Duration
    let broadcast: ProxyEventBroadcast
    let observer: ShaperObserver
    var sockets: [Int: ConnectionSockets] = [:]
    var listener: (any Channel)?
    /// The extra front doors' listeners, sharing this proxy's link.
    var doorListeners: [any Channel] = []
    var timer: ScheduledWork?
    var timerDeadline: Duration?
    var pendingOutbound = 0
    var peakBuffered = 0
    /// Writes of the current `perform`, per socket: written and flushed together at its end.
    var batches: [WriteBatch] = []
    /// A `perform` is carrying out output. Socket calls report back into the engine at once
    /// (a write crossing the high watermark, a flush draining below the low one, a close), and
    /// the clock has moved on by then, so the machine may answer with bytes that follow the
    /// batch being written: its answer waits in `deferred` until that batch is out.
    var performing = false
    var deferred = ProxyOutput()
    /// Bumped by every ``perform(_:movingBytesOnly:)`` but a read's that only moved bytes: a
    /// socket's leave to write its reads straight to its peer (ProxyEngine+PassThrough.swift)
    /// holds only while this is what it was given with.
    var passGeneration = 0
    /// Bytes that went straight through, per direction (upstream, downstream): how much of
    /// the traffic took that path, for the tests that compare it with the full one.
    var passedBytes = (upstream: 0, downstream: 0)
    var stopping = false
    /// The listener drops handshakes: the link is down (see ``HandshakeGate``).
    var gateShut = false
    /// The gate was shut at least once, so accepted sockets may carry its filter.
    var gateUsed = false
    var gateTimer: ScheduledWork?
    /// Clients of a front door still in their handshake, by handler (ProxyDoorEngine.swift).
    var doorClients: [ObjectIdentifier: DoorClient] = [:]
    /// Where each front-door connection goes, and its handshake for the reply, by number.
    var tunnels: [Int: DoorTunnel] = [:]
    /// Each open connection's words (`client → destination (how) [rule]`), for the API's list.
    var descriptions: [Int: String] = [:]
    /// The draws of the profile's DNS model (ProxyDNS.swift), from the link's seed.
    var dnsDraws: SeededGenerator
    var dnsCounts = (lookups: 0, failures: 0)

    struct WriteBatch {
        let number: Int
        let handler: ProxySocketHandler
        var buffers: [ByteBuffer]
    }

    struct Endpoint {
        let handler: ProxySocketHandler
        var outputShut: EventLoopFuture<Void>?
    }

    struct ConnectionSockets {
        var client: Endpoint?
        var upstream: Endpoint?
        /// The machine is done with the connection; only the sockets' own closing is left.
        var released = false

        subscript(side: ProxySide) -> Endpoint? {
            get { side == .client ? client : upstream }
            set {
                if side == .client { client = newValue } else { upstream = newValue }
            }
        }
    }

    init(configuration: ShapingProxy.Configuration, scheduler: EventLoopScheduler, broadcast: ProxyEventBroadcast) {
        self.loop = scheduler.eventLoop
        self.scheduler = scheduler
        self.configuration = configuration
        self.broadcast = broadcast
        let observer = ShaperObserver(broadcast: broadcast)
        self.observer = observer
        self.origin = scheduler.now
        self.dnsDraws = Self.dnsGenerator(seed: configuration.link.seed)
        self.machine = ProxyStateMachine(
            shaper: configuration.link.makeShaper(Self.sink(of: configuration.link, observer, frame: .start)),
            seed: configuration.toxicSeed,
            toxicBufferLimit: configuration.limits.toxicBuffer,
            linkBufferLimit: configuration.limits.linkBuffer,
            at: .zero
        )
    }
}
