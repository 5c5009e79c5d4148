public import LowbandProxyCore
/// A proxy as the control API shows it: toxiproxy's fields plus the link's profile and seed.
public struct ProxyDescription: Hashable, Sendable, Codable {
    /// The proxy's name, unique in its registry.
    public var name: String
    /// The address it listens on, `host:port`.
    public var listen: String
    /// The service it connects to, `host:port`.
    public var upstream: String
    /// Whether it listens; a disabled proxy keeps its settings and closes its connections.
    public var enabled: Bool
    /// Its toxics, in the order they act.
    public var toxics: [Toxic]
    /// The link profile the proxy's device uses (a Lowband extension; toxiproxy clients ignore it).
    public var profile: String
    /// The seed of the link's random decisions (a Lowband extension).
    public var seed: UInt64

    /// A description with every field given.
    public init(name: String, listen: String, upstream: String, enabled: Bool, toxics: [Toxic], profile: String, seed: UInt64) {
        self.name = name
        self.listen = listen
        self.upstream = upstream
        self.enabled = enabled
        self.toxics = toxics
        self.profile = profile
        self.seed = seed
    }
}

/// What a client asks for when creating or updating a proxy; absent fields are nil.
public struct ProxySpecification: Hashable, Sendable, Decodable {
    /// The proxy's name; required when creating one.
    public var name: String?
    /// The address to listen on, `host:port`; required when creating one.
    public var listen: String?
    /// The service to connect to, `host:port`; required when creating one.
    public var upstream: String?
    /// Whether the proxy listens; new proxies are enabled unless this says false.
    public var enabled: Bool?

    /// A specification with the fields given, the rest absent.
    public init(name: String? = nil, listen: String? = nil, upstream: String? = nil, enabled: Bool? = nil) {
        self.name = name
        self.listen = listen
        self.upstream = upstream
        self.enabled = enabled
    }
}
