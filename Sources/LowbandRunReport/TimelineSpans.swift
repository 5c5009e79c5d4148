/// A stretch of a run's time, in seconds from its start.
struct TimeSpan: Sendable, Hashable {
    var start: Double
    var end: Double
    /// True when nothing ended it before the run did (a run stopped mid-outage).
    var openEnded: Bool = false
}

/// Turns a run's timeline events into what the charts draw: outage spans, each client's offline
/// spans and the number of clients offline over time.
///
/// Events are taken in time order (ties keep their recorded order); events at a non-finite time
/// are ignored and negative times count as the start of the run. Unmatched ends are tolerated so a
/// partial or oddly recorded run still draws.
enum TimelineSpans {
    /// Events with a usable time, sorted by it.
    static func ordered(_ events: [TimelineEvent]) -> [TimelineEvent] {
        events.enumerated()
            .filter { $0.element.seconds.isFinite }
            .sorted { ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset) }
            .map { offset, event in
                var event = event
                event.seconds = Swift.max(event.seconds, 0)
                return event
            }
    }

    /// Outage spans: from an outage start to the end that closes it (overlapping outages merge).
    /// An end before any start means the run began in an outage; a start never ended lasts to `runEnd`.
    static func outages(_ events: [TimelineEvent], runEnd: Double) -> [TimeSpan] {
        var spans: [TimeSpan] = []
        var depth = 0
        var openedAt = 0.0
        var sawOutageEvent = false
        for event in ordered(events) {
            switch event.kind {
            case .outageStart:
                if depth == 0 { openedAt = event.seconds }
                depth += 1
                sawOutageEvent = true
            case .outageEnd:
                if depth > 0 {
                    depth -= 1
                    if depth == 0 { spans.append(TimeSpan(start: openedAt, end: event.seconds)) }
                } else if !sawOutageEvent {
                    spans.append(TimeSpan(start: 0, end: event.seconds))
                }
                sawOutageEvent = true
            default:
                continue
            }
        }
        if depth > 0 { spans.append(TimeSpan(start: openedAt, end: Swift.max(runEnd, openedAt), openEnded: true)) }
        return spans
    }

    /// Spans during which `client` (nil: events not tied to a client) was disconnected: from a
    /// disconnect to its next reconnect, or to `runEnd`. A reconnect without a disconnect is a mark only.
    static func offline(_ events: [TimelineEvent], client: Int?, runEnd: Double) -> [TimeSpan] {
        var spans: [TimeSpan] = []
        var since: Double?
        for event in ordered(events) where event.client == client {
            switch event.kind {
            case .disconnect:
                if since == nil { since = event.seconds }
            case .reconnect:
                if let start = since {
                    spans.append(TimeSpan(start: start, end: event.seconds))
                    since = nil
                }
            default:
                continue
            }
        }
        if let since { spans.append(TimeSpan(start: since, end: Swift.max(runEnd, since), openEnded: true)) }
        return spans
    }

    /// How many clients were disconnected from each event on: a step function starting at (0, 0).
    static func offlineCount(_ events: [TimelineEvent]) -> [(seconds: Double, count: Int)] {
        var offline: Set<Int> = []
        var steps: [(seconds: Double, count: Int)] = [(0, 0)]
        for event in ordered(events) {
            guard let client = event.client else { continue }
            switch event.kind {
            case .disconnect: offline.insert(client)
            case .reconnect: offline.remove(client)
            default: continue
            }
            if steps.last?.seconds == event.seconds {
                steps[steps.count - 1].count = offline.count
            } else {
                steps.append((event.seconds, offline.count))
            }
        }
        return steps
    }

    /// The end of the run's time axis: its duration, or later if events or traffic go beyond it.
    static func runEnd(_ record: RunRecord) -> Double {
        var end = record.endSeconds.isFinite ? Swift.max(record.endSeconds, 0) : 0
        for event in record.timeline where event.seconds.isFinite { end = Swift.max(end, event.seconds) }
        for bucket in TrafficSeries(record).buckets { end = Swift.max(end, bucket.end) }
        return end
    }
}
