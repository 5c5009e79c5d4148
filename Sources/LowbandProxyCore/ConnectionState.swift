package import LowbandShaper

/// The two ends of a proxied connection: sockets in the proxy, frame links in memory.
package enum ProxySide: Hashable, Sendable {
    /// The end accepted from the client (the phone's app).
    case client
    /// The end connected to the upstream server.
    case upstream

    /// The direction whose bytes are read from this side.
    package var outgoing: Direction { self == .client ? .upstream : .downstream }
}

extension Direction {
    /// The side whose bytes travel this way.
    package var source: ProxySide { self == .upstream ? .client : .upstream }
    /// The side this direction's bytes are written to.
    package var destination: ProxySide { self == .upstream ? .upstream : .client }
}

/// One direction of a connection: bytes in the toxics, then in the link, then written.
///
/// `link` holds, in stream order: bytes the shaper delivered while the direction was
/// partitioned (`parked`), bytes inside the shaper, and bytes not yet submitted (`unsubmitted`).
struct FlowState {
    var toxics = ToxicChain()
    /// Bytes inside the toxic chain.
    var held = ByteQueue()
    /// Bytes released by the toxics: the last `unsubmitted` not yet handed to the shaper, the
    /// rest inside the shaper waiting for delivery.
    var link = ByteQueue()
    var unsubmitted = 0
    /// Delivered by the shaper during a partition and held at the head of `link` until it heals.
    var parked = 0
    /// The shaper said its queue is full; nothing more is submitted until `.resumeReading`.
    var shaperFull = false
    /// The path beyond the device's link said its queue is full (``BeyondPaths``).
    var pathFull = false
    /// The destination socket's write buffer is over its high watermark.
    var destinationBlocked = false
    var sourceEnded = false
    /// The end of the source came out of the toxics: forward it once `link` is empty.
    var endReleased = false
    /// A toxic closed the stream: close the connection once `link` is empty.
    var closeReleased = false
    var outputShut = false
    /// Whether the source is being read, as last told to the I/O side.
    var reading = false
    /// Why reading is stopped, as last reported in a pause event.
    var pauseReason: String?
    var bytesRead = 0
    var bytesDelivered = 0

    var bufferedBytes: Int { held.count + link.count }
    var inShaper: Int { link.count - unsubmitted - parked }
}

/// A proxied connection as the state machine sees it.
struct ConnectionState {
    enum Phase: Hashable {
        /// The shaper's connect delay is running.
        case waiting(until: ShaperInstant)
        /// The upstream connect is under way.
        case connecting
        case open
    }

    let number: Int
    /// The connection within the device's shaper; nil for a `direct` route, which skips it.
    var shaperID: ConnectionID?
    /// The connection on a path beyond the device's link, when a route gave it one.
    var beyond: BeyondHop?
    var phase: Phase
    let openedAt: ShaperInstant
    var upstream = FlowState()
    var downstream = FlowState()
    /// Where this connection's ``SocketWork`` sits in the machine's current output, valid
    /// while `workGeneration` is the output's: so each event touches its work in place.
    var workSlot = 0
    var workGeneration = 0

    subscript(direction: Direction) -> FlowState {
        _read {
            // Yielding in place, not returning a copy, so reading a field retains nothing.
            if direction == .upstream { yield upstream } else { yield downstream }
        }
        _modify {
            // Yielding in place keeps the queues uniquely referenced (no copy on write).
            if direction == .upstream { yield &upstream } else { yield &downstream }
        }
    }

    var bufferedBytes: Int { upstream.bufferedBytes + downstream.bufferedBytes }

    /// Whether the device's link is the first a direction's bytes cross: uplink bytes cross it
    /// before a path beyond, downlink bytes after.
    func deviceFirst(_ direction: Direction) -> Bool {
        shaperID != nil && (beyond == nil || direction == .upstream)
    }
}
