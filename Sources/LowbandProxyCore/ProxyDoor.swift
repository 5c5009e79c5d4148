/// How a proxy learns where a client's connection goes.
///
/// `upstream`: every connection goes to the proxy's one upstream (toxiproxy's model). The two
/// front doors let a whole app use the proxy the way it uses any proxy, naming each destination
/// itself: a SOCKS5 server (RFC 1928, CONNECT; no authentication or RFC 1929 username and
/// password) and an HTTP proxy (`CONNECT host:port` tunnels, and `http://` absolute-URI requests
/// forwarded one per connection). Either way every tunnel is one more connection on the proxy's
/// one shaped link; the handshake itself is local (it happens on the device) and costs no link
/// time. TLS inside a tunnel passes untouched.
public enum ProxyDoor: Sendable, Hashable, CustomStringConvertible {
    /// Every connection goes to the proxy's `upstream`.
    case upstream
    /// A SOCKS5 server; with credentials, username and password are required (RFC 1929).
    case socks5(SocksCredentials?)
    /// An HTTP proxy: CONNECT tunnels and `http://` requests.
    case httpProxy

    /// The word the control API shows (and accepts) as a door proxy's `upstream`.
    public var description: String {
        switch self {
        case .upstream: "upstream"
        case .socks5: "socks5"
        case .httpProxy: "http-proxy"
        }
    }

    /// The door an API `upstream` names (`socks5`, `http-proxy`); nil for an address.
    public init?(upstreamWord word: String) {
        switch word {
        case "socks5": self = .socks5(nil)
        case "http-proxy": self = .httpProxy
        default: return nil
        }
    }
}

/// The username and password a SOCKS5 door requires (RFC 1929).
public struct SocksCredentials: Sendable, Hashable {
    /// The user the client must name.
    public var username: String
    /// The password the client must give with it.
    public var password: String

    /// Credentials; each at most 255 bytes of UTF-8, as the protocol carries them.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// `USER:PASS` (the first colon splits).
    public init?(parsing text: String) {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let username = String(text[..<colon])
        let password = String(text[text.index(after: colon)...])
        guard !username.isEmpty, username.utf8.count <= 255, password.utf8.count <= 255 else { return nil }
        self.init(username: username, password: password)
    }
}

/// Where a client asked to go through a front door.
public struct ProxyDestination: Sendable, Hashable, CustomStringConvertible {
    /// How the client asked.
    public enum Kind: String, Sendable, Hashable {
        /// A SOCKS5 CONNECT.
        case socks
        /// An HTTP `CONNECT host:port` tunnel.
        case tunnel
        /// An `http://` request, forwarded (rewritten to origin form, one per connection).
        case forward
    }

    /// A name (resolved by the proxy) or an address literal (IPv6 without brackets).
    public var host: String
    /// The destination's port, 1–65535.
    public var port: Int
    /// How the client asked for it.
    public var kind: Kind

    /// A destination `host:port` asked for as `kind`.
    public init(host: String, port: Int, kind: Kind) {
        self.host = host
        self.port = port
        self.kind = kind
    }

    /// `host:port`, an IPv6 address in brackets.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

/// What a front door's handshake says to do next.
public enum DoorStep: Sendable, Hashable {
    /// Send these bytes to the client (a SOCKS method choice or authentication reply) and read on.
    case reply([UInt8])
    /// Open the connection to `destination`; once it is up, send ``DoorHandshake/success(boundAddress:boundPort:)``
    /// then pass `forward` (bytes the client sent after its request, or a forwarded request)
    /// on to the destination through the link.
    case connect(ProxyDestination, forward: [UInt8])
    /// Send `reply` (the protocol's refusal; may be empty when the client does not speak it),
    /// log `reason`, and close.
    case refuse(reply: [UInt8], reason: String)
}

/// Why a destination could not be reached, for the protocol's own refusal.
public enum DoorFailure: Sendable, Hashable {
    /// The name did not resolve.
    case unresolved
    /// The destination refused the connection.
    case refused
    /// The connection attempt timed out.
    case timedOut
    /// Anything else (the network unreachable, the link closed first).
    case other
    /// A rule (`ProxyRoute`, action `block`) makes the destination unreachable.
    case blocked
}

/// A front door's handshake with one client: bytes in, steps out. Pure, bounded (every size is
/// capped before use) and fuzzed (`proxy-door`), so the engine only moves bytes.
public struct DoorHandshake: Sendable {
    private enum Speaker: Sendable {
        case socks(SocksHandshake)
        case http(HTTPProxyHandshake)
    }

    private var state: Speaker
    private var finished = false

    /// The handshake of `door`; nil for ``ProxyDoor/upstream``, which has none.
    public init?(door: ProxyDoor) {
        switch door {
        case .upstream: return nil
        case .socks5(let credentials): state = .socks(SocksHandshake(credentials: credentials))
        case .httpProxy: state = .http(HTTPProxyHandshake())
        }
    }

    /// Takes the client's next bytes; the steps they lead to, in order. After a `connect` or
    /// `refuse` the handshake is over and takes nothing more.
    public mutating func feed(_ bytes: [UInt8]) -> [DoorStep] {
        guard !finished else { return [] }
        let steps: [DoorStep]
        switch state {
        case .socks(var socks):
            steps = socks.feed(bytes)
            state = .socks(socks)
        case .http(var http):
            steps = http.feed(bytes)
            state = .http(http)
        }
        if steps.contains(where: { if case .reply = $0 { false } else { true } }) { finished = true }
        return steps
    }

    /// What the client is told when its destination is connected.
    public func success(boundAddress: [UInt8]?, boundPort: Int) -> [UInt8] {
        switch state {
        case .socks: SocksHandshake.reply(code: 0x00, address: boundAddress, port: boundPort)
        case .http(let http): http.isForward ? [] : Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8)
        }
    }

    /// What the client is told when its destination could not be reached.
    public func failure(_ failure: DoorFailure, reason: String) -> [UInt8] {
        switch state {
        case .socks:
            let code: UInt8 = switch failure {
            case .unresolved: 0x04
            case .refused: 0x05
            case .timedOut: 0x06
            case .other: 0x01
            case .blocked: 0x02  // "connection not allowed by ruleset"
            }
            return SocksHandshake.reply(code: code, address: nil, port: 0)
        case .http:
            switch failure {
            case .timedOut: return HTTPProxyHandshake.response(504, "Gateway Timeout", reason)
            case .blocked: return HTTPProxyHandshake.response(403, "Forbidden", reason)
            default: return HTTPProxyHandshake.response(502, "Bad Gateway", reason)
            }
        }
    }

    /// What the client is told when its handshake took too long (nothing for SOCKS, which has
    /// no reply before a request).
    public func timedOut(after time: String) -> [UInt8] {
        switch state {
        case .socks: []
        case .http: HTTPProxyHandshake.response(408, "Request Timeout", "the request did not arrive within \(time)")
        }
    }
}
