import LowbandRunReport
import LowbandShaper
import Synchronization

/// Collects a run's trace lines, its traffic per second and the network's timeline events.
///
/// It is the shaper's trace sink (on sockets it is called on the proxy's event loop, hence the
/// lock) and the scenarios' event log. Shaper times are moved onto the run's clock by `offset`
/// (zero in virtual time; the proxy's start relative to the run's on sockets). Traffic is what
/// the shaper delivered, per direction, in 1-second buckets. Lines are kept as values and turned
/// into text by a ``TraceLineFormatter`` on a thread of its own, in the same order.
final class TraceLog: ShaperTraceSink {
    private struct State {
        /// Lines kept so far (formatted or not).
        var lineCount = 0
        /// Lines not yet handed to the formatter, in order.
        var pending: [PendingTraceLine] = []
        /// Made when the first batch of lines is full; a short run formats its few lines at the end.
        var formatter: TraceLineFormatter?
        var up: [Int] = []
        var down: [Int] = []
        var upTotal = 0
        var downTotal = 0
        var timeline: [TimelineEvent] = []
        var lineLimitReached = false
        /// Looked up by key, never iterated.
        var flows: [FlowKey: FlowTimeline] = [:]
        /// The connections the network reset, with when (run clock, ns).
        var resets: [(connection: Int, time: Int64)] = []
        /// The connections whose flow the network forgot silently, with when (run clock, ns).
        var forgotten: [(connection: Int, time: Int64)] = []
    }

    /// Shaper time zero on the run's clock, in nanoseconds.
    let offsetNanoseconds: Int64
    /// Lines kept at most (the rest are counted, not kept), so memory stays bounded.
    let lineLimit: Int
    private let state = Mutex(State())

    init(offset: Duration = .zero, lineLimit: Int = 5_000_000) {
        offsetNanoseconds = offset.nanosecondsClamped
        self.lineLimit = lineLimit
    }

    deinit {
        state.withLock { $0.formatter?.close() }
    }

    func record(_ event: ShaperEvent) {
        var shifted = event
        shifted.time = ShaperInstant(nanoseconds: event.time.nanoseconds + offsetNanoseconds)
        let seconds = Double(shifted.time.nanoseconds) / 1e9
        state.withLock { state in
            append(.shaper(shifted), to: &state)
            if let connection = event.connection, let direction = event.direction, event.kind == .deliver || event.kind == .lossStall {
                state.flows[FlowKey(connection: connection.index, direction: direction), default: FlowTimeline()].record(event, at: shifted.time.nanoseconds)
            }
            if event.kind == .deliver, let bytes = event.bytes, let direction = event.direction {
                let bucket = max(0, Int(shifted.time.nanoseconds / 1_000_000_000))
                if direction == .upstream {
                    Self.add(bytes, at: bucket, to: &state.up)
                    state.upTotal += bytes
                } else {
                    Self.add(bytes, at: bucket, to: &state.down)
                    state.downTotal += bytes
                }
            } else if event.kind == .outageStart {
                state.timeline.append(TimelineEvent(seconds: seconds, kind: .outageStart, detail: event.detail ?? "outage"))
            } else if event.kind == .outageEnd {
                state.timeline.append(TimelineEvent(seconds: seconds, kind: .outageEnd, detail: event.detail ?? "outage"))
            } else if event.kind == .natExpired, let connection = event.connection, event.detail?.hasPrefix("silent") == true {
                state.forgotten.append((connection.index, shifted.time.nanoseconds))
            } else if event.kind == .radio, let detail = event.detail, let arrow = detail.range(of: " → ") {
                state.timeline.append(TimelineEvent(seconds: seconds, kind: .radio, detail: String(detail[arrow.upperBound...])))
            } else if event.kind == .wakeup, let detail = event.detail, detail.hasPrefix("from "), let to = detail.range(of: " to ") {
                let from = detail[detail.index(detail.startIndex, offsetBy: 5) ..< to.lowerBound]
                let end = seconds + Double(event.delay?.nanosecondsClamped ?? 0) / 1e9
                state.timeline.append(TimelineEvent(seconds: seconds, kind: .radio, detail: "promoting (from \(from))"))
                state.timeline.append(TimelineEvent(seconds: end, kind: .radio, detail: String(detail[to.upperBound...])))
            } else if event.kind == .reset {
                if let connection = event.connection { state.resets.append((connection.index, shifted.time.nanoseconds)) }
                state.timeline.append(TimelineEvent(seconds: seconds, kind: .note, detail: "the network reset connection #\(event.connection?.index ?? -1)"))
            }
        }
    }

    /// A client or scenario event: its line and, when given, its timeline mark.
    func client(_ line: ClientTraceLine, timeline: TimelineEvent? = nil) {
        state.withLock { state in
            append(.client(line), to: &state)
            if let timeline { state.timeline.append(timeline) }
        }
    }

    func mark(_ event: TimelineEvent) {
        state.withLock { $0.timeline.append(event) }
    }

    /// The shaper's deliveries and stalls of one connection and direction so far.
    func flow(_ key: FlowKey) -> FlowTimeline? {
        state.withLock { $0.flows[key] }
    }

    /// The connections the network reset so far, with when (run clock, ns).
    var resets: [(connection: Int, time: Int64)] {
        state.withLock { $0.resets }
    }

    /// The connections whose flow the network forgot silently so far, with when (run clock, ns).
    var forgotten: [(connection: Int, time: Int64)] {
        state.withLock { $0.forgotten }
    }

    /// The timeline so far, in the order recorded.
    var timeline: [TimelineEvent] {
        state.withLock { $0.timeline }
    }

    /// Bytes the shaper delivered so far, up and down.
    var totals: (up: Int, down: Int) {
        state.withLock { ($0.upTotal, $0.downTotal) }
    }

    /// The lines, the traffic buckets up to `end` and the timeline (sorted by time, stable).
    func snapshot(until end: Duration) -> (lines: [String], traffic: [TrafficBucket], timeline: [TimelineEvent]) {
        let endSeconds = end / .seconds(1)
        let buckets = max(1, Int(endSeconds.rounded(.up)))
        return state.withLock { state in
            var traffic: [TrafficBucket] = []
            traffic.reserveCapacity(buckets)
            for index in 0 ..< max(buckets, max(state.up.count, state.down.count)) where index < buckets {
                traffic.append(TrafficBucket(
                    startSeconds: Double(index),
                    upBytes: index < state.up.count ? state.up[index] : 0,
                    downBytes: index < state.down.count ? state.down[index] : 0))
            }
            let timeline = state.timeline.enumerated()
                .filter { $0.element.seconds <= endSeconds }
                .sorted { $0.element.seconds != $1.element.seconds ? $0.element.seconds < $1.element.seconds : $0.offset < $1.offset }
                .map(\.element)
            var lines = Self.formattedLines(&state)
            if state.lineLimitReached {
                lines.append(ClientTraceLine(time: end, event: "trace-truncated", detail: "more than \(lineLimit) lines; the rest were not kept").text)
            }
            return (lines, traffic, timeline)
        }
    }

    private func append(_ line: PendingTraceLine, to state: inout State) {
        guard state.lineCount < lineLimit else {
            state.lineLimitReached = true
            return
        }
        state.lineCount += 1
        if state.pending.isEmpty { state.pending.reserveCapacity(TraceLineFormatter.batchSize) }
        state.pending.append(line)
        if state.pending.count == TraceLineFormatter.batchSize {
            if state.formatter == nil { state.formatter = TraceLineFormatter() }
            state.formatter?.submit(state.pending)
            state.pending = []
        }
    }

    /// Every line kept so far, as text, in order.
    private static func formattedLines(_ state: inout State) -> [String] {
        guard let formatter = state.formatter else { return state.pending.map(\.text) }
        if !state.pending.isEmpty {
            formatter.submit(state.pending)
            state.pending = []
        }
        return formatter.lines()
    }

    private static func add(_ bytes: Int, at bucket: Int, to buckets: inout [Int]) {
        if bucket >= buckets.count { buckets.append(contentsOf: repeatElement(0, count: bucket - buckets.count + 1)) }
        buckets[bucket] += bytes
    }
}
