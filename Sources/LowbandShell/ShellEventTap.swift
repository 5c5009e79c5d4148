package import LowbandProxyCore
package import LowbandShaper
import Synchronization

/// The link's decisions as the proxy's events (``ProxyEvent``), on their way to the trace: every
/// decision goes on to `next` (the trace file, a record), and the ones a watcher of the link
/// reads — packets delivered and dropped, outages, switches, toxics, the radio waking, the NAT
/// forgetting a flow, DNS — are kept, the last ``kept`` of them, for `GET
/// /proxies/shell/events` (the live page's stream). Enqueues are not kept: each delivered or
/// dropped packet was one.
package final class ShellEventTap: ShaperTraceSink {
    /// Events kept for the streams, at least this many (up to twice as many between trims); older
    /// ones are gone (a stream that falls behind skips them).
    package static let kept = 4096

    private let next: (any ShaperTraceSink)?
    private let buffer = Mutex<(first: Int, lines: [String])>((0, []))

    /// A tap passing every decision on to `next`.
    package init(next: (any ShaperTraceSink)?) {
        self.next = next
    }

    package func record(_ event: ShaperEvent) {
        next?.record(event)
        guard event.kind != .enqueue, event.kind != .radio else { return }
        let line = Self.proxyEvent(event).jsonLine
        buffer.withLock { buffer in
            buffer.lines.append(line)
            // Trimmed back to `kept` only when twice over: removing the oldest line at every
            // packet once full moved all 4,096 others each time.
            if buffer.lines.count >= 2 * Self.kept {
                let surplus = buffer.lines.count - Self.kept
                buffer.lines.removeFirst(surplus)
                buffer.first += surplus
            }
        }
    }

    /// The number the next event kept will have: a stream starting now reads from it.
    package var end: Int {
        buffer.withLock { $0.first + $0.lines.count }
    }

    /// The events kept from number `from` on (or from the oldest kept, when those are gone), as
    /// JSON lines, and the number to read from next time.
    package func lines(from: Int) -> (lines: [String], next: Int) {
        buffer.withLock { buffer in
            let start = max(from, buffer.first) - buffer.first
            guard start < buffer.lines.count else { return ([], buffer.first + buffer.lines.count) }
            return (Array(buffer.lines[start...]), buffer.first + buffer.lines.count)
        }
    }

    /// A decision of the shell's link as the proxy's event: a toxic's `added NAME: …` becomes
    /// `toxic-added` with `NAME: …`, as the proxy writes it; the rest keep their names.
    package static func proxyEvent(_ event: ShaperEvent) -> ProxyEvent {
        var proxyEvent = ProxyEvent(placed: event)
        if event.kind == .toxic, let detail = event.detail {
            for (verb, kind) in [("added ", ProxyEvent.Kind.toxicAdded), ("updated ", .toxicUpdated), ("removed ", .toxicRemoved)] where detail.hasPrefix(verb) {
                proxyEvent.kind = kind
                proxyEvent.detail = String(detail.dropFirst(verb.count))
            }
        }
        return proxyEvent
    }
}
