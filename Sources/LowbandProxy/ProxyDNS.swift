import LowbandDeterminism
import LowbandProxyCore
import LowbandShaper
import NIOCore

/// Names the proxy resolves on the device's network (the profile's `dns`, Network Link
/// Conditioner's "High Latency DNS"): each lookup waits a delay drawn from `dns.delay` and fails
/// with the chance `dns.failure`, from the link's seed, before the real resolution and connect.
/// An address literal needs no lookup. Every lookup is a `dns` event and trace line with its
/// delay, and is counted (`/stats` `dns_lookups`, `dns_failures`).
extension ProxyEngine {
    static func dnsGenerator(seed: UInt64) -> SeededGenerator {
        SeededGenerator(seed: seed).derived(0x444E_53)  // "DNS"
    }

    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    static func isAddressLiteral(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }

    func lookUp(_ upstream: ProxyEndpoint, for number: Int, dns: DNSProfile) {
        let (delay, fails) = dns.lookup(using: &dnsDraws)
        dnsCounts.lookups += 1
        if fails { dnsCounts.failures += 1 }
        eventLoopScheduler.schedule(after: delay) {
            let outcome = fails ? "did not resolve (the profile's dns.failure)" : "resolved"
            self.report(ProxyEvent(time: self.elapsed, kind: .dns, connection: number, duration: delay, detail: "\(upstream.host) \(outcome)"))
            if fails {
                self.upstreamFailed(number, .unresolved, reason: "\(upstream.host) does not resolve (the profile's DNS failure, \(Int((dns.failure * 100).rounded())) %)")
            } else {
                self.openUpstream(number, upstream)
            }
        }
    }
}
