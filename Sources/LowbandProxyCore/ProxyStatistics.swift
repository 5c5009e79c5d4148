/// Counters of one proxy, read with `ShapingProxy/statistics`.
public struct ProxyStatistics: Hashable, Sendable {
    /// Connections accepted since the proxy started.
    public var acceptedConnections = 0
    /// Connections open now.
    public var openConnections = 0
    /// Connections whose upstream could not be reached.
    public var refusedConnections = 0
    /// Connections reset by the link or a toxic.
    public var resetConnections = 0
    /// Bytes read from clients (client → server), delivered or not.
    public var receivedUpstreamBytes = 0
    /// Bytes read from upstreams (server → client), delivered or not.
    public var receivedDownstreamBytes = 0
    /// Bytes read client → server and then discarded: swallowed by a toxic, or held when a
    /// reset or close ended their connection.
    public var droppedUpstreamBytes = 0
    /// Bytes read server → client and then discarded.
    public var droppedDownstreamBytes = 0
    /// Bytes delivered client → server.
    public var upstreamBytes = 0
    /// Bytes delivered server → client.
    public var downstreamBytes = 0
    /// Bytes the proxy holds now: read and not yet delivered, plus delivered bytes still in
    /// its sockets' write buffers (not yet taken by the kernel).
    public var bufferedBytes = 0
    /// The most ``bufferedBytes`` has been since the proxy started.
    public var peakBufferedBytes = 0
    /// Pieces the link lost, each stalling its connection and direction for a retransmission
    /// timeout.
    public var lossStalls = 0
    /// The stalls' retransmission timeouts added up.
    public var lossStallTime: Duration = .zero
    /// Outage windows that began, by kind (`blackout`, `handover`, …), as the trace's
    /// `outage-start` lines count them: a handover inside a blackout is two.
    public var outages: [String: Int] = [:]

    /// Names looked up on the device's network (the profile's `dns`).
    public var dnsLookups = 0
    /// Lookups that failed as the profile's `dns.failure` says.
    public var dnsFailures = 0

    /// All counters at zero.
    public init() {}
}
