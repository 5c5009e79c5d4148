import Foundation

extension LivePage {
    /// What the page shows before its scripts run, rendered by the server: the proxies, the
    /// first one's profile, seed and link (up, down and until when, or partitioned), the
    /// profile's figures and the link's queues, its connections, the profiles it may switch to, and whether a
    /// record runs (its control is offered only then). The words are those the script writes,
    /// so nothing jumps when it takes over.
    struct FirstView {
        var proxies: [String]
        var proxy: String?
        var profile: String
        var seed: UInt64
        var link: ProxyLinkState?
        /// The names `GET /profiles` answers.
        var profiles: [String] = []
        /// The first proxy's open connections.
        var connections: [ProxyConnection] = []
        /// nil: no record runs; else whether it is paused.
        var recording: Bool?

        /// The link badge's class and words.
        var badge: (className: String, text: String) {
            guard let link else { return ("badge up", "link up") }
            if link.down {
                let until = link.untilSeconds.map { String(format: " until %.1f s", $0) } ?? ""
                return ("badge down", (link.forced ?? "outage") + until)
            }
            if let partitioned = link.partitioned, !partitioned.isEmpty {
                return ("badge partition", "partition: " + partitioned.map { $0 == "upstream" ? "uplink" : "downlink" }.joined(separator: ", "))
            }
            return ("badge up", "link up")
        }

        /// The link's queue one way against the profile's: `12.3 of 30 KB`; empty when the
        /// shaper does not say.
        func queue(_ direction: Direction) -> String {
            let figures = direction == .upstream ? link?.uplink : link?.downlink
            let queued = direction == .upstream ? link?.queuedUpstreamBytes : link?.queuedDownstreamBytes
            guard let figures, let queued else { return "" }
            return LivePage.queue(queued, of: figures.queueBytes)
        }

        /// How full the queue is, 0…100, for its bar.
        func queuePercent(_ direction: Direction) -> Int {
            let figures = direction == .upstream ? link?.uplink : link?.downlink
            let queued = direction == .upstream ? link?.queuedUpstreamBytes : link?.queuedDownstreamBytes
            guard let figures, let queued, figures.queueBytes > 0 else { return 0 }
            return min(100, queued * 100 / figures.queueBytes)
        }

        enum Direction { case upstream, downstream }
    }

    /// `1234` → `1.2 KB` (1 KB = 1000 B, as the profiles write sizes), as the script writes it.
    static func bytes(_ n: Int) -> String {
        n >= 1_000_000 ? String(format: "%.1f MB", Double(n) / 1e6) : n >= 1_000 ? String(format: "%.1f KB", Double(n) / 1e3) : "\(n) B"
    }

    /// `12345` of `30000` → `12.3 of 30 KB`: both in the limit's unit, as the script writes it.
    static func queue(_ queued: Int, of limit: Int) -> String {
        let (scale, unit) = limit >= 1_000_000 ? (1e6, "MB") : limit >= 1_000 ? (1e3, "KB") : (1.0, "B")
        func number(_ value: Int) -> String {
            guard scale > 1 else { return "\(value)" }
            let text = String(format: "%.1f", Double(value) / scale)
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        }
        return "\(number(queued)) of \(number(limit)) \(unit)"
    }
}
