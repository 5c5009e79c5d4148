import LowbandProfiles
public import LowbandProxyCore
public import LowbandShaper
public import NIOCore
public import NIOPosix

/// The named proxies a control API manages, as toxiproxy's server keeps them.
///
/// Proxies created here listen and shape on their own event loops; the registry only tracks
/// them. ``stopAll()`` closes everything (call it on shutdown).
public actor ProxyRegistry {
    /// What new proxies get, and the registry's limits.
    public struct Configuration: Sendable {
        /// The link new proxies get.
        public var defaultProfile: String
        /// The seed new proxies' links get.
        public var defaultSeed: UInt64
        /// Makes the link of a proxy for a profile name and seed; throws `unknownProfile` for a
        /// name it does not know. The default knows `perfect` and the profile files on the
        /// search path (and ignores the proxy's name; a caller may use it to pick a trace).
        public var makeLink: @Sendable (_ proxy: String, _ profile: String, _ seed: UInt64) throws(ProxyError) -> ProxyLink
        /// The profile names ``makeLink`` knows, for `GET /profiles`.
        public var availableProfiles: @Sendable () -> [String]
        /// The memory bounds of every proxy.
        public var limits: ShapingProxy.Limits
        /// The most proxies at once; creating one more fails with `tooManyProxies` (429).
        public var maximumProxies: Int
        /// Receives each proxy's status lines with the proxy's name.
        public var statusHandler: (@Sendable (_ proxy: String, _ line: String) -> Void)?
        /// Called with every proxy made, as soon as it exists (its clock has started, it does not
        /// listen yet): a recorder subscribes to its events here, so it misses none, whether the
        /// proxy came from the command line or a client of the control API.
        public var onCreate: (@Sendable (_ name: String, _ proxy: ShapingProxy) -> Void)?

        /// The defaults: `perfect` with seed 0, profiles by name, at most 100 proxies.
        public init(
            defaultProfile: String = "perfect",
            defaultSeed: UInt64 = 0,
            makeLink: @escaping @Sendable (_ proxy: String, _ profile: String, _ seed: UInt64) throws(ProxyError) -> ProxyLink = { _, profile, seed throws(ProxyError) in
                try ProxyRegistry.profileLink(profile, seed)
            },
            availableProfiles: @escaping @Sendable () -> [String] = ProxyRegistry.profileNames,
            limits: ShapingProxy.Limits = ShapingProxy.Limits(),
            maximumProxies: Int = 100,
            statusHandler: (@Sendable (_ proxy: String, _ line: String) -> Void)? = nil,
            onCreate: (@Sendable (_ name: String, _ proxy: ShapingProxy) -> Void)? = nil
        ) {
            self.onCreate = onCreate
            self.maximumProxies = maximumProxies
            self.defaultProfile = defaultProfile
            self.defaultSeed = defaultSeed
            self.makeLink = makeLink
            self.availableProfiles = availableProfiles
            self.limits = limits
            self.statusHandler = statusHandler
        }
    }

    private struct Entry {
        let proxy: ShapingProxy
        var enabled: Bool
    }

    /// The settings the registry was made with.
    public let configuration: Configuration
    private let group: any EventLoopGroup
    private var entries: [String: Entry] = [:]

    /// An empty registry whose proxies run on `group`'s event loops.
    public init(configuration: Configuration = Configuration(), group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.configuration = configuration
        self.group = group
    }

    // MARK: Links

    /// The profile of that name (or file) on the profile search path — `perfect` is built in
    /// when no file provides it — tracing the shaper's decisions to `trace` when given.
    public static func profileLink(_ name: String, _ seed: UInt64, trace: (any ShaperTraceSink)? = nil) throws(ProxyError) -> ProxyLink {
        do {
            return .network(try NetworkProfile.load(named: name), seed: seed, trace: trace)
        } catch {
            if name == "perfect" { return .perfect(seed: seed, trace: trace) }
            throw ProxyError(.unknownProfile, "\(error)")
        }
    }

    /// `perfect` and the profile files on the search path.
    public static let profileNames: @Sendable () -> [String] = {
        var names = ["perfect"]
        for file in NetworkProfile.available() where !names.contains(file.name) {
            names.append(file.name)
        }
        return names
    }

    // MARK: Proxies

    /// Creates and (when enabled, the default) starts a proxy.
    ///
    /// - Throws: `ProxyError`: `missingField` or `badEndpoint` (400), `proxyExists` (409),
    ///   `listenFailed` (500), `unknownProfile` (400) when `profile` names no profile,
    ///   `tooManyProxies` (429) when ``Configuration/maximumProxies`` exist already.
    @discardableResult
    public func create(
        _ specification: ProxySpecification, profile: String? = nil, seed: UInt64? = nil, credentials: SocksCredentials? = nil,
        doors: [DoorListener] = [], routes: ProxyRoutes = ProxyRoutes()
    ) async throws(ProxyError) -> ProxyDescription {
        let (name, listen, upstream, door) = try Self.validate(specification)
        guard entries[name] == nil else {
            throw ProxyError(.proxyExists, "proxy already exists: '\(name)'")
        }
        guard entries.count < configuration.maximumProxies else {
            throw ProxyError(.tooManyProxies, "too many proxies: at most \(configuration.maximumProxies) may exist; delete one first")
        }
        let link = try makeLink(name, profile ?? configuration.defaultProfile, seed ?? configuration.defaultSeed)
        var statusHandler: (@Sendable (String) -> Void)?
        if let handler = configuration.statusHandler {
            statusHandler = { line in handler(name, line) }
        }
        var proxyConfiguration = ShapingProxy.Configuration(
            name: name,
            listen: listen,
            upstream: upstream,
            link: link,
            toxicSeed: link.seed,
            limits: configuration.limits,
            statusHandler: statusHandler
        )
        proxyConfiguration.door = door == .socks5(nil) ? .socks5(credentials) : door
        proxyConfiguration.doors = doors
        proxyConfiguration.routes = routes
        let proxy = ShapingProxy(configuration: proxyConfiguration, group: group)
        configuration.onCreate?(name, proxy)
        let enabled = specification.enabled ?? true
        entries[name] = Entry(proxy: proxy, enabled: enabled)
        if enabled {
            do {
                try await proxy.start()
            } catch {
                entries[name] = nil
                throw Self.proxyError(error, "proxy '\(name)'")
            }
            // Deleted while it was starting: do not leave it listening.
            guard entries[name]?.proxy === proxy else {
                await proxy.stop()
                throw Self.notFound(name)
            }
        }
        return try await describe(proxy, enabled: enabled)
    }

    /// The proxy `name`.
    ///
    /// - Throws: `ProxyError` with code `proxyNotFound` (404).
    public func proxy(named name: String) throws(ProxyError) -> ShapingProxy {
        guard let entry = entries[name] else { throw Self.notFound(name) }
        return entry.proxy
    }

    /// The proxy `name` as the control API shows it.
    ///
    /// - Throws: `ProxyError` with code `proxyNotFound` (404).
    public func describe(named name: String) async throws(ProxyError) -> ProxyDescription {
        guard let entry = entries[name] else { throw Self.notFound(name) }
        return try await describe(entry.proxy, enabled: entry.enabled)
    }

    /// Every proxy, sorted by name.
    public func list() async -> [ProxyDescription] {
        var descriptions: [ProxyDescription] = []
        for name in entries.keys.sorted() {
            if let description = try? await describe(named: name) { descriptions.append(description) }
        }
        return descriptions
    }

    /// Every proxy with its statistics, sorted by name: what `GET /metrics` shows.
    func metricsSamples() async -> [ProxyMetrics.Sample] {
        var samples: [ProxyMetrics.Sample] = []
        for name in entries.keys.sorted() {
            guard let entry = entries[name], let description = try? await describe(entry.proxy, enabled: entry.enabled) else { continue }
            let radio = try? await entry.proxy.radioStatistics
            samples.append(ProxyMetrics.Sample(description: description, statistics: await entry.proxy.statistics, radio: radio))
        }
        return samples
    }

    /// Changes a proxy's fields. A new listen address or upstream restarts it (dropping its
    /// connections, as toxiproxy does); `enabled` false stops it, true starts it again.
    @discardableResult
    public func update(named name: String, _ specification: ProxySpecification) async throws(ProxyError) -> ProxyDescription {
        guard let entry = entries[name] else { throw Self.notFound(name) }
        let current = try await entry.proxy.configuration
        let listen = try specification.listen.map { text throws(ProxyError) in try ProxyEndpoint(parsing: text) } ?? current.listen
        if let text = specification.upstream, (ProxyDoor(upstreamWord: text)?.description ?? ProxyDoor.upstream.description) != current.door.description {
            throw ProxyError(.badEndpoint, "proxy '\(name)': a front door (socks5, http-proxy) and an upstream address do not change into each other; delete the proxy and create it again")
        }
        let upstream = current.door != .upstream ? current.upstream
            : try specification.upstream.map { text throws(ProxyError) in try ProxyEndpoint(parsing: text) } ?? current.upstream
        let enabled = specification.enabled ?? entry.enabled
        do {
            if Self.normalized(listen) != Self.normalized(current.listen) || upstream != current.upstream {
                _ = try await entry.proxy.restart(listen: listen, upstream: upstream, listening: enabled)
            } else if enabled && !entry.enabled {
                try await entry.proxy.start()
            } else if !enabled && entry.enabled {
                await entry.proxy.stop()
            }
        } catch {
            throw Self.proxyError(error, "proxy '\(name)'")
        }
        entries[name]?.enabled = enabled
        return try await describe(named: name)
    }

    /// Stops and forgets a proxy.
    public func delete(named name: String) async throws(ProxyError) {
        guard let entry = entries.removeValue(forKey: name) else { throw Self.notFound(name) }
        await entry.proxy.stop()
        entry.proxy.finishEvents()
    }

    /// Creates the proxies that do not exist yet; one whose listen address or upstream differs
    /// is replaced, an identical one is kept. Stops at the first failure and reports it with
    /// the proxies handled before it.
    public func populate(_ specifications: [ProxySpecification]) async -> (proxies: [ProxyDescription], error: ProxyError?) {
        for (index, specification) in specifications.enumerated() {
            do {
                _ = try Self.validate(specification)
            } catch {
                var error = error
                error.message += " at proxy \(index + 1)"
                return ([], error)
            }
        }
        var done: [ProxyDescription] = []
        for specification in specifications {
            do {
                let (name, listen, upstream, door) = try Self.validate(specification)
                if let existing = entries[name] {
                    let current = try await existing.proxy.configuration
                    if Self.normalized(listen) == Self.normalized(current.listen) && upstream == current.upstream && door.description == current.door.description {
                        done.append(try await describe(named: name))
                        continue
                    }
                    try await delete(named: name)
                }
                done.append(try await create(specification))
            } catch {
                return (done, error)
            }
        }
        return (done, nil)
    }

    /// Enables every proxy and removes every toxic (toxiproxy's `POST /reset`).
    public func reset() async throws(ProxyError) {
        for name in entries.keys.sorted() {
            guard let entry = entries[name] else { continue }
            if !entry.enabled {
                do {
                    try await entry.proxy.start()
                } catch {
                    throw Self.proxyError(error, "proxy '\(name)'")
                }
                entries[name]?.enabled = true
            }
            try await entry.proxy.removeAllToxics()
        }
    }

    /// Switches a proxy's device to another profile and/or seed (nil keeps the current one: the
    /// profile is loaded again from where it came from, a file path included).
    @discardableResult
    public func setLink(named name: String, profile: String?, seed: UInt64?) async throws(ProxyError) -> ProxyDescription {
        guard let entry = entries[name] else { throw Self.notFound(name) }
        let current = try await entry.proxy.link
        let link = try makeLink(name, profile ?? current.source, seed ?? current.seed)
        try await entry.proxy.setLink(link)
        return try await describe(named: name)
    }

    /// Stops every proxy and ends their event streams; the registry is empty afterwards.
    public func stopAll() async {
        let all = entries.keys.sorted().compactMap { entries[$0]?.proxy }
        entries.removeAll()
        for proxy in all {
            await proxy.stop()
            proxy.finishEvents()
        }
    }

    // MARK: Helpers

    /// The configured link for `profile`, remembering that it was asked for by `profile`.
    private func makeLink(_ proxy: String, _ profile: String, _ seed: UInt64) throws(ProxyError) -> ProxyLink {
        var link = try configuration.makeLink(proxy, profile, seed)
        link.source = profile
        return link
    }

    private func describe(_ proxy: ShapingProxy, enabled: Bool) async throws(ProxyError) -> ProxyDescription {
        let configuration = try await proxy.configuration
        return ProxyDescription(
            name: configuration.name,
            listen: configuration.listen.description,
            upstream: configuration.door == .upstream ? configuration.upstream.description : configuration.door.description,
            enabled: enabled,
            toxics: try await proxy.toxics,
            profile: configuration.link.profile,
            seed: configuration.link.seed
        )
    }

    private static func validate(
        _ specification: ProxySpecification
    ) throws(ProxyError) -> (name: String, listen: ProxyEndpoint, upstream: ProxyEndpoint, door: ProxyDoor) {
        guard let name = specification.name, !name.isEmpty else {
            throw ProxyError(.missingField, "missing required field: name")
        }
        guard let upstreamText = specification.upstream, !upstreamText.isEmpty else {
            throw ProxyError(.missingField, "missing required field: upstream")
        }
        let listenText = specification.listen.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1:0"
        // `socks5` or `http-proxy` instead of an address: a front door, the client names each destination.
        if let door = ProxyDoor(upstreamWord: upstreamText) {
            return (name, try ProxyEndpoint(parsing: listenText), ProxyEndpoint(host: "0.0.0.0", port: 0), door)
        }
        return (name, try ProxyEndpoint(parsing: listenText), try ProxyEndpoint(parsing: upstreamText), .upstream)
    }

    private static func normalized(_ endpoint: ProxyEndpoint) -> ProxyEndpoint {
        endpoint.host == "localhost" ? ProxyEndpoint(host: "127.0.0.1", port: endpoint.port) : endpoint
    }

    private static func notFound(_ name: String) -> ProxyError {
        ProxyError(.proxyNotFound, "proxy not found: '\(name)'")
    }

    private static func proxyError(_ error: any Error, _ context: String) -> ProxyError {
        if let error = error as? ProxyError { return error }
        return ProxyError(.listenFailed, "\(context): \(error)")
    }
}
