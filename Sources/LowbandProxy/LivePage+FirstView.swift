import Foundation

extension LivePage {
    /// What the page shows before its scripts run, rendered by the server: the proxies, the
    /// first one's profile, seed and link (up, down and until when, or partitioned), the
    /// profile's figures and the link's queues, its connections, the profiles it may switch to, and whether a
    /// record runs (its control is offered only then). The words are those the script writes,
    /// so nothing jumps when it takes over.
    package struct FirstView {
        /// A packet link's frames each way (`lowband shell`): shown in place of connections.
        package struct Frames: Sendable {
            /// One direction: frames offered and delivered, IP bytes delivered, drops by cause.
            package struct Lane: Sendable {
                package var offeredFrames: Int
                package var deliveredFrames: Int
                package var deliveredBytes: Int
                package var dropped: [String: Int]

                package init(offeredFrames: Int, deliveredFrames: Int, deliveredBytes: Int, dropped: [String: Int]) {
                    self.offeredFrames = offeredFrames
                    self.deliveredFrames = deliveredFrames
                    self.deliveredBytes = deliveredBytes
                    self.dropped = dropped
                }
            }

            package var upstream: Lane
            package var downstream: Lane

            package init(upstream: Lane, downstream: Lane) {
                self.upstream = upstream
                self.downstream = downstream
            }
        }

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
        /// The packets each way, for a packet link (`lowband shell`); nil for a proxy.
        var frames: Frames?
        /// The toxic types the add form offers.
        var toxicTypes = ["latency", "bandwidth", "slow_close", "timeout", "reset_peer", "slicer", "limit_data"]

        /// The first view of one packet link named `name` (`lowband shell`): no connections,
        /// its frames each way, the toxic types it plays.
        package init(
            link name: String, profile: String, seed: UInt64, state: ProxyLinkState, profiles: [String], recording: Bool?, frames: Frames,
            toxicTypes: [String]
        ) {
            self.init(proxies: [name], proxy: name, profile: profile, seed: seed, link: state, profiles: profiles, recording: recording)
            self.frames = frames
            self.toxicTypes = toxicTypes
        }

        init(
            proxies: [String], proxy: String?, profile: String, seed: UInt64, link: ProxyLinkState?, profiles: [String] = [],
            connections: [ProxyConnection] = [], recording: Bool?
        ) {
            self.proxies = proxies
            self.proxy = proxy
            self.profile = profile
            self.seed = seed
            self.link = link
            self.profiles = profiles
            self.connections = connections
            self.recording = recording
        }

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
