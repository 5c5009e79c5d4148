import LowbandDeterminism
import LowbandProfiles
public import LowbandProxyCore
public import LowbandShaper

/// A proxy's per-destination rules (`lowband proxy --route`, `--routes FILE`, the control API's
/// `/proxies/{name}/routes`), with every profile they name loaded when they are set, so a
/// connection never waits for a file and a rule naming no profile is refused at once.
///
/// Where a rule's bytes go (see `ProxyRoute`): every connection of a device crosses its one
/// link, the profile the proxy plays (shared rate and queue, outages, handovers, toxics). A rule
/// naming a profile adds a path beyond that link to the destination: uplink bytes cross the
/// device's link and then the path, downlink bytes the path and then the device's link. The
/// path plays the profile's rate, delay, jitter, loss, connect delay, outages and resets, one
/// path per destination host shared by its connections, from a seed derived from the link's
/// seed and the host; the profile's `dns` and `wakeup` do not apply (names are resolved, and the
/// radio wakes, on the device). `direct` skips the device's link; `block` refuses. Rules apply to
/// connections opened after they are set.
public struct ProxyRoutes: Sendable {
    /// The rules, in the order they are tried.
    public private(set) var table: RouteTable
    private var profiles: [String: NetworkProfile]

    /// No rules: every connection crosses the device's link alone.
    public init() {
        table = RouteTable.empty
        profiles = [:]
    }

    /// `routes`, loading each profile a rule names as `--profile` takes it: a shipped name or a
    /// YAML file.
    ///
    /// - Throws: `ProxyError` `badRequest` for more than `RouteTable.maximumRules` rules,
    ///   `unknownProfile` naming the rule whose profile cannot be loaded.
    public init(_ routes: [ProxyRoute]) throws(ProxyError) {
        try self.init(routes, load: { try NetworkProfile.load(named: $0) })
    }

    /// `routes`, loading each profile a rule names with `load`.
    ///
    /// - Throws: `ProxyError` `badRequest` for more than `RouteTable.maximumRules` rules,
    ///   `unknownProfile` naming the rule whose profile cannot be loaded.
    public init(_ routes: [ProxyRoute], load: (String) throws -> NetworkProfile) throws(ProxyError) {
        do {
            table = try RouteTable(routes)
        } catch {
            throw ProxyError(.badRequest, error.message)
        }
        profiles = [:]
        for route in routes {
            guard case .path(let name) = route.action, profiles[name] == nil else { continue }
            do {
                var profile = try load(name)
                profile.dns = nil
                profile.wakeUp = nil
                profile.radio = nil
                profiles[name] = profile
            } catch {
                throw ProxyError(.unknownProfile, "route '\(route)': \(error)")
            }
        }
    }

    /// The rules, in order.
    public var routes: [ProxyRoute] { table.routes }

    /// What a connection to `host` on `port` gets, and the rule (with its position) that says so.
    func decide(host: String, port: Int, seed: UInt64) -> (route: LinkRoute, blocked: Bool, rule: String?) {
        guard let (position, route) = table.match(host: host, port: port) else { return (.device, false, nil) }
        let rule = "rule \(position): \(route)"
        switch route.action {
        case .direct:
            return (.direct, false, rule)
        case .block:
            return (.device, true, rule)
        case .path(let name):
            guard let profile = profiles[name] else { return (.device, false, rule) }
            let key = host.lowercased()
            let pathSeed = Self.seed(of: key, linkSeed: seed)
            return (.beyond(key: key, makeShaper: { NetworkShaper(profile: profile, seed: pathSeed) }), false, rule)
        }
    }

    /// The seed of the path to `host`: the link's seed and the host's FNV-1a hash, mixed.
    static func seed(of host: String, linkSeed: UInt64) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in host.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        var generator = SeededGenerator(seed: linkSeed).derived(0x5041_5448, hash)  // "PATH"
        return generator.next()
    }
}
