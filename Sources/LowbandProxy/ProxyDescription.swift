/// A proxy as the control API shows it: toxiproxy's fields plus the link's profile and seed.
public struct ProxyDescription: Hashable, Sendable, Codable {
    public var name: String
    public var listen: String
    public var upstream: String
    public var enabled: Bool
    public var toxics: [Toxic]
    /// The link profile the proxy's device uses (a Lowband extension; toxiproxy clients ignore it).
    public var profile: String
    public var seed: UInt64

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
    public var name: String?
    public var listen: String?
    public var upstream: String?
    public var enabled: Bool?

    public init(name: String? = nil, listen: String? = nil, upstream: String? = nil, enabled: Bool? = nil) {
        self.name = name
        self.listen = listen
        self.upstream = upstream
        self.enabled = enabled
    }
}
