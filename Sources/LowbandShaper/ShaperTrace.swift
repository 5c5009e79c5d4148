import LowbandBasics
import Synchronization

/// One decision of the shaper, for the trace.
public struct ShaperEvent: Hashable, Sendable {
    /// What happened. Names are the ones written to the trace.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The name written to the trace, e.g. `loss-stall`.
        public let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// A connection was registered; `delay` is the time until the proxy connects upstream.
        public static let open = Kind("open")
        /// The proxy closed a connection.
        public static let close = Kind("close")
        /// A connection's handshake completed: the server's SYN reached the device. Written by
        /// `lowband shell` from the segments it carries, never by a shaper.
        public static let connect = Kind("connect")
        /// Bytes were submitted; `queued` is the direction's queue afterwards.
        public static let enqueue = Kind("enqueue")
        /// A piece reached the far side; `delay` is the time since it left the queue.
        public static let deliver = Kind("deliver")
        /// A piece was lost; its connection and direction stall for `delay` (the RTO).
        public static let lossStall = Kind("loss-stall")
        /// Nothing moves from now on; `delay` is the planned length (null: forever).
        public static let outageStart = Kind("outage-start")
        /// The outage is over; what was held moves again.
        public static let outageEnd = Kind("outage-end")
        /// The network aborted the connection.
        public static let reset = Kind("reset")
        /// The network forgot a connection's flow (`detail`: why — the NAT's idle timeout, a new
        /// address, a fault — and how it dies: `silent` or `reset`). A silent one loses every
        /// piece from now on; a reset one is reset at once.
        public static let natExpired = Kind("nat-expired")
        /// The radio wakes up after idling; `delay` is how long that takes.
        public static let wakeup = Kind("wakeup")
        /// The radio dropped to a lower power state after its inactivity timer (`detail`:
        /// `CELL_DCH → CELL_FACH`); a promotion back up is a ``wakeup``.
        public static let radio = Kind("radio")
        /// `submit` returned false: the queue is full.
        public static let backpressure = Kind("backpressure")
        /// `.resumeReading` was emitted: the queue has room again.
        public static let resume = Kind("resume")
        /// The owner switched to another link (`detail`: its profile and seed); the new shaper's
        /// decisions follow, on the same timeline and connection numbers (``ShaperTraceFrame``).
        /// Written by the owner, never by a shaper.
        public static let link = Kind("link")
        /// Bytes of `direction` waited in the link's queue behind others: `delay` is how long,
        /// ending at the event's time (when the last of them went onto the link). Worked out by a
        /// live proxy from the shaper's enqueues and deliveries while somebody watches its
        /// events, never written by a shaper.
        public static let queue = Kind("queue")
        /// Bytes of `direction` the proxy discarded (`bytes`; `detail`: why — a toxic, a reset, a
        /// close), written by a proxy; or a packet a ``PacketLink`` dropped (`detail`:
        /// `frame N: CAUSE`, the N-th packet of its direction and a ``PacketDrop``). Never written by a ``NetworkShaper``.
        public static let drop = Kind("drop")
        /// A name was looked up for connection `connection` (`delay`: how long it took;
        /// `detail`: the name and whether it resolved). Written by a proxy, never by a shaper.
        public static let dns = Kind("dns")
        /// A toxic was added, updated or removed (`detail`: `added NAME: TYPE key=value…`).
        /// Written by a proxy, never by a shaper.
        public static let toxic = Kind("toxic")
    }

    /// When it happened, on the shaper's (or, framed, the owner's) timeline.
    public var time: ShaperInstant
    /// What happened.
    public var kind: Kind
    /// The connection it concerns; nil for device-wide events (outages, wake-ups).
    public var connection: ConnectionID?
    /// The direction it concerns, if one.
    public var direction: Direction?
    /// The bytes submitted or delivered, if any.
    public var bytes: Int?
    /// The delay the event stands for; see each ``ShaperEvent/Kind``.
    public var delay: Duration?
    /// The bytes in the direction's queue after the event.
    public var queued: Int?
    /// Extra words: the outage kind (`blackout`, `handover`).
    public var detail: String?

    /// An event; every field but the time and kind defaults to nil.
    public init(
        time: ShaperInstant, kind: Kind, connection: ConnectionID? = nil, direction: Direction? = nil,
        bytes: Int? = nil, delay: Duration? = nil, queued: Int? = nil, detail: String? = nil
    ) {
        self.time = time
        self.kind = kind
        self.connection = connection
        self.direction = direction
        self.bytes = bytes
        self.delay = delay
        self.queued = queued
        self.detail = detail
    }
}

/// Receives the shaper's decisions as they are made, in time order.
///
/// Sinks are shared by reference (the shaper is a value), hence `Sendable`; they must not
/// call back into the shaper.
public protocol ShaperTraceSink: Sendable {
    /// Takes one decision; called from the shaper's context, so it must not block for long.
    func record(_ event: ShaperEvent)
}

/// Keeps every event in memory, for tests and short runs.
public final class ShaperTraceRecorder: ShaperTraceSink {
    private let recorded = Mutex<[ShaperEvent]>([])

    /// An empty recorder.
    public init() {}

    /// Keeps `event`; safe from any thread.
    public func record(_ event: ShaperEvent) {
        recorded.withLock { $0.append(event) }
    }

    /// Every event recorded so far, in order.
    public var events: [ShaperEvent] { recorded.withLock { $0 } }
}

/// Writes each event as one JSON line with a fixed key order, every key always present:
///
///     {"t_ns":412000000,"event":"deliver","conn":1,"dir":"downstream","bytes":1500,"delay_ns":400000000,"queued":null,"detail":null}
///
/// Times and delays are integer nanoseconds, so the same run gives byte-identical text. `conn` is
/// whatever the event carries: the shaper's own id (from 0), or the owner's number (from 1) when
/// the writer sits behind a `FramedTraceSink`, as it does in the proxy and in runs.
public final class JSONLinesTraceWriter: ShaperTraceSink {
    private enum Output {
        case memory([String])
        case closure(@Sendable (String) -> Void)
    }

    private let output: Mutex<Output>

    /// Keeps the lines in memory; read them with ``text``.
    public init() {
        output = Mutex(.memory([]))
    }

    /// Hands each line, newline included, to `write` (e.g. appending to a file).
    public init(write: @escaping @Sendable (String) -> Void) {
        output = Mutex(.closure(write))
    }

    /// Writes `event` as one line; safe from any thread.
    public func record(_ event: ShaperEvent) {
        let line = Self.line(for: event) + "\n"
        let write: (@Sendable (String) -> Void)? = output.withLock { output in
            switch output {
            case .memory(var lines):
                lines.append(line)
                output = .memory(lines)
                return nil
            case .closure(let write):
                return write
            }
        }
        write?(line)
    }

    /// Everything written so far when keeping lines in memory; empty otherwise.
    public var text: String {
        output.withLock { output in
            if case .memory(let lines) = output { return lines.joined() }
            return ""
        }
    }

    /// The JSON line of `event`, without the newline.
    public static func line(for event: ShaperEvent) -> String {
        var line = "{\"t_ns\":\(event.time.nanoseconds)"
        line += ",\"event\":\(JSONString.quoted(event.kind.name))"
        line += ",\"conn\":\(event.connection.map { String($0.index) } ?? "null")"
        line += ",\"dir\":\(event.direction.map { JSONString.quoted($0.rawValue) } ?? "null")"
        line += ",\"bytes\":\(event.bytes.map { String($0) } ?? "null")"
        line += ",\"delay_ns\":\(event.delay.map { String($0.nanosecondsClamped) } ?? "null")"
        line += ",\"queued\":\(event.queued.map { String($0) } ?? "null")"
        line += ",\"detail\":\(event.detail.map { JSONString.quoted($0) } ?? "null")}"
        return line
    }
}
