import LowbandProfiles
public import LowbandProxyCore
public import LowbandShaper

/// A shaped link in front of one TCP service, in one call: connect to ``port`` instead of the
/// service and every byte crosses the profile's link (rate, delay, jitter, loss stalls, outages).
///
/// It is a ``ShapingProxy`` on loopback with an ephemeral port, for tests of your own client or
/// server on a bad network:
///
/// ```swift
/// let link = try await ShapedLink.start(to: .init(host: "127.0.0.1", port: echoPort), profile: .named("edge"), seed: 7)
/// // … connect your client to 127.0.0.1:\(link.port) …
/// await link.stop()
/// ```
///
/// or scoped, stopped when the body ends (``withShapedLink(to:profile:seed:trace:limits:isolation:_:)``).
/// The same seed gives the same link decisions; the trace records each one.
public final class ShapedLink: Sendable {
    /// The port on 127.0.0.1 to connect to instead of the service's.
    public let port: Int
    /// The service the link connects to.
    public let upstream: ProxyEndpoint
    /// The profile the link plays.
    public let profile: NetworkProfile
    /// The seed of the link's random decisions (jitter, loss, outages) and of the toxics'.
    public let seed: UInt64
    /// The proxy behind the link: add toxics, switch the link, read statistics and events.
    public let proxy: ShapingProxy

    private init(port: Int, upstream: ProxyEndpoint, profile: NetworkProfile, seed: UInt64, proxy: ShapingProxy) {
        self.port = port
        self.upstream = upstream
        self.profile = profile
        self.seed = seed
        self.proxy = proxy
    }

    /// Starts a link to `upstream` playing `profile` with random decisions from `seed`, and
    /// returns once it listens. Stop it with ``stop()``.
    ///
    /// - Parameters:
    ///   - upstream: the service to shape, on this machine or another.
    ///   - profile: the network to play, by name (`.named("edge")`) or by value.
    ///   - seed: the seed of every random decision of the link and its toxics.
    ///   - trace: receives every link decision (`ShaperTraceRecorder` keeps them in memory,
    ///     `JSONLinesTraceWriter` writes the proxy's `--trace` lines).
    ///   - limits: the proxy's memory bounds; the defaults suit tests.
    /// - Throws: `ProxyError`: `unknownProfile` for a name no profile has (the message lists
    ///   those that exist), `listenFailed` when no loopback port can be bound.
    public static func start(
        to upstream: ProxyEndpoint, profile: Profile = .named("perfect"), seed: UInt64 = 0, trace: (any ShaperTraceSink)? = nil,
        limits: ShapingProxy.Limits = ShapingProxy.Limits()
    ) async throws -> ShapedLink {
        let resolved = try profile.resolve()
        let proxy = ShapingProxy(
            configuration: ShapingProxy.Configuration(
                name: "shaped-link",
                listen: ProxyEndpoint(host: "127.0.0.1", port: 0),
                upstream: upstream,
                link: .network(resolved, seed: seed, trace: trace),
                toxicSeed: seed,
                limits: limits
            )
        )
        let address = try await proxy.start()
        return ShapedLink(port: address.port ?? 0, upstream: upstream, profile: resolved, seed: seed, proxy: proxy)
    }

    /// Where to connect instead of the service: 127.0.0.1 and ``port``.
    public var endpoint: ProxyEndpoint {
        ProxyEndpoint(host: "127.0.0.1", port: port)
    }

    /// Closes the listening socket and every connection; the port is free when this returns.
    public func stop() async {
        await proxy.stop()
    }

    /// Bytes moved and held, connections opened and closed so far.
    public var statistics: ProxyStatistics {
        get async { await proxy.statistics }
    }
}

extension ShapedLink {
    /// Which network a ``ShapedLink`` plays: a profile by name or one built in code.
    public struct Profile: Sendable {
        private let resolveProfile: @Sendable () throws(ProxyError) -> NetworkProfile

        private init(_ resolve: @escaping @Sendable () throws(ProxyError) -> NetworkProfile) {
            resolveProfile = resolve
        }

        /// A profile by name (`edge`, `3g`, `gprs`, `perfect`, a preset such as `nlc-edge`) or
        /// the path of a YAML profile file, as `lowband proxy --profile` takes it. The shipped
        /// profiles are compiled in; `lowband profiles list` prints them.
        public static func named(_ nameOrPath: String) -> Profile {
            Profile { () throws(ProxyError) in
                do {
                    return try NetworkProfile.load(named: nameOrPath)
                } catch {
                    throw ProxyError(.unknownProfile, "\(error)")
                }
            }
        }

        /// A profile built in code (or loaded and changed).
        public static func value(_ profile: NetworkProfile) -> Profile {
            Profile { () throws(ProxyError) in profile }
        }

        /// The profile itself, loaded now for a name.
        ///
        /// - Throws: `ProxyError` with code `unknownProfile`.
        public func resolve() throws(ProxyError) -> NetworkProfile {
            try resolveProfile()
        }
    }
}

/// Runs `body` with a ``ShapedLink`` to `upstream` and stops the link when `body` returns or
/// throws, the structured way to shape a service for the length of a test.
///
/// - Throws: what ``ShapedLink/start(to:profile:seed:trace:limits:)`` throws, or what `body` throws.
public func withShapedLink<Result>(
    to upstream: ProxyEndpoint, profile: ShapedLink.Profile = .named("perfect"), seed: UInt64 = 0, trace: (any ShaperTraceSink)? = nil,
    limits: ShapingProxy.Limits = ShapingProxy.Limits(), isolation: isolated (any Actor)? = #isolation,
    _ body: (ShapedLink) async throws -> Result
) async throws -> Result {
    let link = try await ShapedLink.start(to: upstream, profile: profile, seed: seed, trace: trace, limits: limits)
    do {
        let result = try await body(link)
        await link.stop()
        return result
    } catch {
        await link.stop()
        throw error
    }
}
