import Foundation
import LowbandShaper

/// Which of the proxies' connections were which device's, and how each lived: opened,
/// connected upstream, closed or reset and by what. A proxy named after a device
/// (`--upstream bob=…`) is that device's link: all its connections are the device's. On a link
/// several devices share, a connection belongs to the device whose events its bytes explain
/// best: the first bytes going up after the device said `sent`, the last bytes coming down
/// before it said `received`/`shown`/`stored`, the last upstream connect before it said
/// `connected`, each a vote.
public struct DeviceLinks: Sendable {
    /// One connection through a proxy, as it lived.
    public struct Life: Sendable, Hashable {
        /// The proxy (link) it went through.
        public var proxy: String
        /// The proxy's number for it.
        public var number: Int
        /// When the client connected to the proxy.
        public var opened: Double
        /// When its upstream end connected, if it did.
        public var connected: Double?
        /// When it closed, if it did.
        public var closed: Double?
        /// Why it closed, in the proxy's words.
        public var closeReason: String?
        /// Who reset it (`fault 3`, `the control API`), when a reset someone asked for ended it.
        public var resetBy: String?
        /// Whether a reset ended it (asked for, or the link's own: a toxic, the NAT).
        public var reset: Bool

        /// Whether it was open at `moment`.
        public func isOpen(at moment: Double) -> Bool {
            opened <= moment && (closed ?? .infinity) > moment
        }

        /// How it ended, in words: `was reset by fault 4 at 2.635 s`, `closed at 4.643 s
        /// (client: EOF)`; nil while open.
        public var ending: String? {
            guard let closed else { return nil }
            let at = String(format: "%.3f s", closed)
            if let resetBy { return "was reset by \(resetBy) at \(at)" }
            if reset { return "was reset at \(at) (\(closeReason ?? "by the link"))" }
            return "closed at \(at)" + (closeReason.map { " (\($0))" } ?? "")
        }
    }

    /// Every connection, in the order opened.
    public private(set) var lives: [Life] = []
    /// The device each connection was found to be, by proxy and number.
    private var owners: [String: String] = [:]
    /// Each device's own link, where a proxy bears its name.
    private var ownLinks: [String: String] = [:]
    /// Every proxy that had a connection.
    private var proxies: Set<String> = []

    /// The connections of `network`, each given to a device of `events`.
    public init(events: [AppEvent], network: NetworkRecord) {
        var byKey: [String: Life] = [:]
        var order: [String] = []
        for instant in network.instants {
            guard let number = instant.connection else { continue }
            let key = Self.key(instant.proxy, number)
            switch instant.kind {
            case "open":
                if byKey[key] == nil { order.append(key) }
                byKey[key] = Life(proxy: instant.proxy, number: number, opened: instant.at, reset: false)
            case "connect":
                byKey[key]?.connected = instant.at
            case "reset":
                byKey[key]?.reset = true
                if byKey[key]?.resetBy == nil { byKey[key]?.resetBy = instant.origin }
            case "close", "refused":
                if byKey[key]?.closed == nil {
                    byKey[key]?.closed = instant.at
                    byKey[key]?.closeReason = instant.detail
                }
            default:
                break
            }
        }
        lives = order.compactMap { byKey[$0] }
        let devices = Array(Set(events.map(\.device))).sorted()
        proxies = Set(lives.map(\.proxy))
        for device in devices {
            if let own = proxies.first(where: { $0.lowercased() == device.lowercased() }) { ownLinks[device] = own }
        }
        let owned = Set(ownLinks.values)
        for life in lives where owned.contains(life.proxy) {
            owners[Self.key(life.proxy, life.number)] = ownLinks.first { $0.value == life.proxy }?.key
        }
        // Shared links: each event votes for the connection its bytes went through.
        var votes: [String: [String: Int]] = [:]
        let shared = network.transfers.filter { !owned.contains($0.proxy) }
        let times = shared.map(\.at)
        // The first index whose time is `moment` or later (`shared` is in time order).
        func index(_ moment: Double) -> Int {
            var low = 0
            var high = times.count
            while low < high {
                let middle = (low + high) / 2
                if times[middle] < moment { low = middle + 1 } else { high = middle }
            }
            return low
        }
        for event in events where ownLinks[event.device] == nil {
            let at = event.seconds
            var chosen: String?
            switch event.kind {
            case .sent:
                chosen = shared[index(at) ..< index(at + 10)].first { $0.direction == .upstream }.map { Self.key($0.proxy, $0.connection) }
            case .received, .shown, .stored:
                chosen = shared[index(at - 10) ..< index(at + 0.000_001)].last { $0.direction == .downstream && !$0.dropped }.map { Self.key($0.proxy, $0.connection) }
            case .connected:
                chosen = lives.filter { !owned.contains($0.proxy) && ($0.connected ?? .infinity) <= at && ($0.connected ?? 0) >= at - 10 }
                    .max { ($0.connected ?? 0) < ($1.connected ?? 0) }.map { Self.key($0.proxy, $0.number) }
            default:
                break
            }
            if let chosen { votes[chosen, default: [:]][event.device, default: 0] += 1 }
        }
        for (connection, tally) in votes {
            owners[connection] = tally.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        }
    }

    /// The device `life` was found to be, if any.
    public func owner(of life: Life) -> String? {
        owners[Self.key(life.proxy, life.number)]
    }

    /// The device whose own link `proxy` is, if it is one's.
    public func ownLinkOwner(_ proxy: String) -> String? {
        ownLinks.first { $0.value == proxy }?.key
    }

    /// The link that is `device`'s own (a proxy bearing its name), if one is.
    public func ownLink(of device: String) -> String? {
        ownLinks[device] ?? proxies.sorted().first { $0.lowercased() == device.lowercased() }
    }

    /// `device`'s connections, in the order opened.
    public func connections(of device: String) -> [Life] {
        if let own = ownLink(of: device) { return lives.filter { $0.proxy == own } }
        return lives.filter { owner(of: $0) == device }
    }

    /// `device`'s connection open at `moment` (the latest opened, if several).
    public func connection(of device: String, openAt moment: Double) -> Life? {
        connections(of: device).last { $0.isOpen(at: moment) }
    }

    /// The link `device`'s bytes cross: its own, or the one its connections went through.
    public func link(of device: String) -> String? {
        ownLink(of: device) ?? connections(of: device).first?.proxy
    }

    private static func key(_ proxy: String, _ number: Int) -> String {
        "\(proxy)\u{0}\(number)"
    }
}
