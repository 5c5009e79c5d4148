import NIOCore

/// A SOCKS5 server's side of the handshake (RFC 1928, RFC 1929 for username and password).
///
/// Greeting (version 5, 1–255 methods) → method choice (no authentication, or username and
/// password when the door has credentials) → optional authentication → request. CONNECT is
/// served, to an IPv4 or IPv6 address or a domain name (1–255 bytes, resolved by the proxy);
/// BIND and UDP ASSOCIATE are refused with 0x07, an unknown address type with 0x08. Every
/// message is at most 513 bytes, so nothing grows past that whatever the client sends.
struct SocksHandshake: Sendable {
    private enum Phase: Sendable {
        case greeting, authentication, request
    }

    private let credentials: SocksCredentials?
    private var phase = Phase.greeting
    private var buffer: [UInt8] = []

    /// The longest message of the handshake (an authentication: 3 + 255 + 255).
    static let maximumMessage = 513

    init(credentials: SocksCredentials?) {
        self.credentials = credentials
    }

    mutating func feed(_ bytes: [UInt8]) -> [DoorStep] {
        buffer += bytes
        var steps: [DoorStep] = []
        while true {
            guard let step = next() else { break }
            steps.append(step)
            guard case .reply = step else { break }
        }
        return steps
    }

    /// The next step the buffered bytes make, or nil when more are needed.
    private mutating func next() -> DoorStep? {
        switch phase {
        case .greeting:
            guard let version = buffer.first else { return nil }
            guard version == 5 else {
                return .refuse(reply: [], reason: "not a SOCKS5 greeting (version byte \(version); SOCKS4 and others are not served)")
            }
            guard buffer.count >= 2 else { return nil }
            let count = Int(buffer[1])
            guard count >= 1 else { return .refuse(reply: [5, 0xFF], reason: "SOCKS5 greeting offers no authentication method") }
            guard buffer.count >= 2 + count else { return nil }
            let methods = buffer[2 ..< 2 + count]
            buffer.removeFirst(2 + count)
            let wanted: UInt8 = credentials == nil ? 0x00 : 0x02
            guard methods.contains(wanted) else {
                let offered = methods.map { Self.methodName($0) }.joined(separator: ", ")
                return .refuse(reply: [5, 0xFF], reason: "no acceptable SOCKS5 method: the client offers \(offered), the proxy needs \(Self.methodName(wanted))")
            }
            phase = credentials == nil ? .request : .authentication
            return .reply([5, wanted])
        case .authentication:
            guard buffer.count >= 2 else { return nil }
            guard buffer[0] == 1 else { return .refuse(reply: [1, 1], reason: "SOCKS5 username/password version \(buffer[0]), not 1") }
            let userLength = Int(buffer[1])
            guard buffer.count >= 3 + userLength else { return nil }
            let passwordLength = Int(buffer[2 + userLength])
            guard buffer.count >= 3 + userLength + passwordLength else { return nil }
            let username = String(decoding: buffer[2 ..< 2 + userLength], as: UTF8.self)
            let password = String(decoding: buffer[3 + userLength ..< 3 + userLength + passwordLength], as: UTF8.self)
            buffer.removeFirst(3 + userLength + passwordLength)
            guard let credentials, username == credentials.username, password == credentials.password else {
                return .refuse(reply: [1, 1], reason: "SOCKS5 authentication failed for user '\(username)'")
            }
            phase = .request
            return .reply([1, 0])
        case .request:
            guard buffer.count >= 4 else { return nil }
            guard buffer[0] == 5 else { return .refuse(reply: Self.reply(code: 0x01, address: nil, port: 0), reason: "SOCKS5 request with version byte \(buffer[0])") }
            let command = buffer[1]
            let addressEnd: Int
            switch buffer[3] {
            case 0x01: addressEnd = 4 + 4
            case 0x04: addressEnd = 4 + 16
            case 0x03:
                guard buffer.count >= 5 else { return nil }
                let length = Int(buffer[4])
                guard length > 0 else { return .refuse(reply: Self.reply(code: 0x04, address: nil, port: 0), reason: "SOCKS5 request with an empty domain name") }
                addressEnd = 5 + length
            default:
                return .refuse(reply: Self.reply(code: 0x08, address: nil, port: 0), reason: "SOCKS5 address type \(buffer[3]) is not IPv4 (1), a domain name (3) or IPv6 (4)")
            }
            guard buffer.count >= addressEnd + 2 else { return nil }
            guard command == 0x01 else {
                let name = command == 0x02 ? "BIND" : command == 0x03 ? "UDP ASSOCIATE" : "command \(command)"
                return .refuse(reply: Self.reply(code: 0x07, address: nil, port: 0), reason: "SOCKS5 \(name) is not served (CONNECT only)")
            }
            let host: String
            switch buffer[3] {
            case 0x01, 0x04:
                // inet_ntop's text (`127.0.0.1`, `2001:db8::1`), through NIO.
                guard let text = try? SocketAddress(packedIPAddress: ByteBuffer(bytes: buffer[4 ..< addressEnd]), port: 0).ipAddress else {
                    return .refuse(reply: Self.reply(code: 0x01, address: nil, port: 0), reason: "SOCKS5 address that does not read")
                }
                host = text
            default:
                // Names travel as ASCII (an internationalised one as punycode).
                guard buffer[5 ..< addressEnd].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                    return .refuse(reply: Self.reply(code: 0x04, address: nil, port: 0), reason: "SOCKS5 domain name that is not printable ASCII")
                }
                host = String(decoding: buffer[5 ..< addressEnd], as: UTF8.self)
            }
            let port = Int(buffer[addressEnd]) << 8 | Int(buffer[addressEnd + 1])
            let rest = Array(buffer[(addressEnd + 2)...])
            buffer = []
            guard port > 0 else { return .refuse(reply: Self.reply(code: 0x02, address: nil, port: 0), reason: "SOCKS5 CONNECT to port 0 of \(host)") }
            return .connect(ProxyDestination(host: host, port: port, kind: .socks), forward: rest)
        }
    }

    /// A reply to a request: `code` (0 succeeded), the bound address (4 or 16 bytes; 0.0.0.0
    /// when not known) and port.
    static func reply(code: UInt8, address: [UInt8]?, port: Int) -> [UInt8] {
        let address = address.flatMap { $0.count == 4 || $0.count == 16 ? $0 : nil } ?? [0, 0, 0, 0]
        return [5, code, 0, address.count == 16 ? 4 : 1] + address + [UInt8(truncatingIfNeeded: port >> 8), UInt8(truncatingIfNeeded: port)]
    }

    private static func methodName(_ method: UInt8) -> String {
        switch method {
        case 0x00: "no authentication"
        case 0x01: "GSSAPI"
        case 0x02: "username/password"
        default: "method 0x" + String(method, radix: 16, uppercase: true)
        }
    }
}
