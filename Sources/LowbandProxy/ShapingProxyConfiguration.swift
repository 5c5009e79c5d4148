public import LowbandProxyCore

extension ShapingProxy {
    /// What a proxy listens on, where it connects, and the link it shapes traffic with.
    public struct Configuration: Sendable {
        /// The proxy's name in the control API and in status lines of API-created proxies.
        public var name: String
        /// Where the proxy listens (port 0 picks a free one).
        public var listen: ProxyEndpoint
        /// The service every connection is forwarded to (with ``door`` `.upstream`).
        public var upstream: ProxyEndpoint
        /// How a client's destination is chosen: ``upstream``, or a SOCKS5 or HTTP-proxy front
        /// door through which the client names each destination itself.
        public var door: ProxyDoor = .upstream
        /// More listeners on this proxy's one link, each a front door (`lowband proxy --upstream
        /// … --socks …`): their tunnels share the link, its queue, outages and toxics.
        public var doors: [DoorListener] = []
        /// The device's link all connections share.
        public var link: ProxyLink
        /// Per-destination rules: a path beyond the link, `direct` or `block` (``ProxyRoutes``).
        public var routes = ProxyRoutes()
        /// Seeds the toxics' random choices (toxicity rolls, latency jitter, slicer cuts).
        public var toxicSeed: UInt64
        /// Memory bounds, whatever the peers do.
        public var limits: Limits
        /// Receives one line per connection open, refusal and close (see `ProxyEvent/statusLine`).
        public var statusHandler: (@Sendable (String) -> Void)?

        /// A configuration; the defaults are a perfect link from 127.0.0.1 (free port) to 127.0.0.1:8080.
        public init(
            name: String = "lowband",
            listen: ProxyEndpoint = ProxyEndpoint(host: "127.0.0.1", port: 0),
            upstream: ProxyEndpoint = ProxyEndpoint(host: "127.0.0.1", port: 8080),
            link: ProxyLink = .perfect(),
            toxicSeed: UInt64 = 0,
            limits: Limits = Limits(),
            statusHandler: (@Sendable (String) -> Void)? = nil
        ) {
            self.name = name
            self.listen = listen
            self.upstream = upstream
            self.link = link
            self.toxicSeed = toxicSeed
            self.limits = limits
            self.statusHandler = statusHandler
        }
    }

    /// Sizes that bound the memory a proxy uses whatever its peers do.
    ///
    /// A direction's source is read only while its link holds less than `linkBuffer`, its toxics
    /// less than `toxicBuffer`, the shaper's queue has room and the destination socket is
    /// writable (under `writeBufferHigh`); so per connection and direction the proxy never holds
    /// more than ``perDirectionBound`` bytes.
    public struct Limits: Sendable, Hashable {
        /// The most bytes asked of the kernel per read (reads start small and grow to it while
        /// they come back full).
        public var readSize: Int
        /// Reads per readiness notification before the proxy looks at the link again.
        public var readsPerWakeup: Int
        /// A destination socket is "not writable" above this many unsent bytes: its source stops.
        public var writeBufferHigh: Int
        /// ... and writable again below this many (at least 1, at most `writeBufferHigh`).
        public var writeBufferLow: Int
        /// Reading stops while the toxics of a direction hold this many bytes.
        public var toxicBuffer: Int
        /// Reading stops while this many bytes are in the link (queued or in flight): it caps
        /// the bandwidth-delay product of links with a fast rate and a long delay. Keep it
        /// above the profile's queue, or the proxy pushes back before the emulated queue fills.
        public var linkBuffer: Int
        /// How long an upstream connect may take before the client is closed.
        public var connectTimeout: Duration
        /// How long a front door's client may take to send its request (a slow-loris client
        /// is answered and closed after it).
        public var handshakeTimeout: Duration = .seconds(10)
        /// Front-door handshakes in progress at once; a client beyond them is closed at accept
        /// (each holds at most a 16 KiB header block).
        public var maximumHandshakes = 256

        /// Limits that keep a connection under about 1.6 MiB per direction (``perDirectionBound``).
        public init(
            readSize: Int = 64 * 1024,
            readsPerWakeup: Int = 4,
            writeBufferHigh: Int = 64 * 1024,
            writeBufferLow: Int = 32 * 1024,
            toxicBuffer: Int = 256 * 1024,
            linkBuffer: Int = 1024 * 1024,
            connectTimeout: Duration = .seconds(10)
        ) {
            self.readSize = readSize
            self.readsPerWakeup = readsPerWakeup
            self.writeBufferHigh = writeBufferHigh
            self.writeBufferLow = writeBufferLow
            self.toxicBuffer = toxicBuffer
            self.linkBuffer = linkBuffer
            self.connectTimeout = connectTimeout
        }

        /// The most bytes one connection holds in one direction (`ProxyStatistics/bufferedBytes`).
        public var perDirectionBound: Int {
            linkBuffer + toxicBuffer + writeBufferHigh + readSize * readsPerWakeup
        }
    }
}

/// An extra listener of a proxy whose clients name their destinations (`ProxyDoor`).
public struct DoorListener: Sendable, Hashable {
    /// Where it listens (port 0 picks one; the bound port replaces it once listening).
    public var listen: ProxyEndpoint
    /// SOCKS5 or HTTP proxy.
    public var door: ProxyDoor

    /// A listener on `listen` whose clients speak `door`'s protocol.
    public init(listen: ProxyEndpoint, door: ProxyDoor) {
        self.listen = listen
        self.door = door
    }
}
