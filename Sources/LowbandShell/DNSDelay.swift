import LowbandBasics
import LowbandDeterminism
import LowbandShaper

/// The profile's DNS model (`dns.delay`, `dns.failure`), applied to queries to slirp's forwarder:
/// a query the link delivered waits its drawn delay before slirp sees it, as a slow resolver on
/// the device's network would make it, or, when the lookup fails, is answered NXDOMAIN then
/// (``DNSFailure``) without reaching slirp. Draws come from the seed's own stream
/// (`seed` → derived(5)), one per query, as the proxy draws one per lookup.
struct DNSDelay {
    private let profile: DNSProfile
    private var generator: SeededGenerator

    /// Nil when the profile has no `dns` section.
    init?(profile: NetworkProfile, seed: UInt64) {
        guard let dns = profile.dns else { return nil }
        self.profile = dns
        generator = SeededGenerator(seed: seed).derived(5)
    }

    /// The delay of `frame` in nanoseconds, and whether the lookup fails, when it is a DNS
    /// query to slirp's forwarder; nil otherwise.
    mutating func lookup(of frame: [UInt8]) -> (delay: Int64, fails: Bool)? {
        guard Self.isQueryToForwarder(frame) else { return nil }
        let drawn = profile.lookup(using: &generator)
        return (drawn.delay.nanosecondsClamped, drawn.fails)
    }

    /// An Ethernet frame carrying IPv4 UDP to 10.0.2.3 port 53; every offset is checked
    /// against the frame's length.
    static func isQueryToForwarder(_ frame: [UInt8]) -> Bool {
        let ip = ShellNetwork.ethernetHeader
        guard frame.count >= ip + 20, frame[12] == 0x08, frame[13] == 0x00, frame[ip] >> 4 == 4, frame[ip + 9] == 17 else { return false }
        guard Array(frame[ip + 16 ..< ip + 20]) == [10, 0, 2, 3] else { return false }
        let udp = ip + Int(frame[ip] & 0x0f) * 4
        guard frame.count >= udp + 8 else { return false }
        return frame[udp + 2] == 0 && frame[udp + 3] == 53
    }
}
