import LowbandBasics
public import LowbandProxyCore
/// A TCP endpoint written `host:port` (`127.0.0.1:9000`, `localhost:8080`, `[::1]:0`).
///
/// The host is kept as written and resolved when the socket is bound or connected, so an
/// endpoint always prints the way the user typed it. Port 0 asks for an ephemeral port.
public struct ProxyEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// The host as written: a name, an IPv4 address or an IPv6 address without brackets.
    public var host: String
    /// The TCP port; 0 asks for an ephemeral one when listening.
    public var port: Int

    /// An endpoint for `host` and `port`, kept as given.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port`; an IPv6 host is written in brackets. A bare `:port` means 127.0.0.1,
    /// as it does for toxiproxy's `listen` field (Go's `net.Listen`).
    ///
    /// - Throws: `ProxyError` with code `badEndpoint` naming what is wrong.
    public init(parsing text: String) throws(ProxyError) {
        let trimmed = text.trimmingSpaces
        guard let colon = trimmed.lastIndex(of: ":") else {
            throw ProxyError(.badEndpoint, "'\(text)' is not host:port (e.g. 127.0.0.1:9000)")
        }
        var host = String(trimmed[..<colon])
        let portText = trimmed[trimmed.index(after: colon)...]
        // Digits only: `Int` would also take "+80".
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = Int(portText), (0...65_535).contains(port) else {
            throw ProxyError(.badEndpoint, "'\(text)' has no valid port (0-65535) after the last ':'")
        }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
            guard !host.isEmpty else {
                throw ProxyError(.badEndpoint, "'\(text)' has nothing in its brackets: write an IPv6 address, e.g. [::1]:9000")
            }
        } else if host.contains(":") || host.contains("[") || host.contains("]") {
            throw ProxyError(.badEndpoint, "'\(text)': write an IPv6 host in brackets, e.g. [::1]:9000")
        }
        guard !host.contains(where: \.isWhitespace) else {
            throw ProxyError(.badEndpoint, "'\(text)' has a space in its host")
        }
        if host.isEmpty { host = "127.0.0.1" }
        self.init(host: host, port: port)
    }

    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Whether only this machine can reach the endpoint: `localhost`, 127.0.0.0/8 or `::1`.
    /// Any other host (`0.0.0.0`, a LAN address, a name) may be reachable from elsewhere.
    public var isLoopback: Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}

extension String {
    var trimmingSpaces: Substring {
        var text = self[...]
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
