/// An HTTP proxy's side of a request (RFC 9110 §9.3.6 CONNECT; absolute-form requests, RFC 9112
/// §3.2.2): the header block is read (at most ``maximumHeader`` bytes), then
///
/// - `CONNECT host:port` opens a tunnel: `200 Connection established` once the destination is
///   up, then bytes both ways untouched (TLS passes through);
/// - `GET http://host[:port]/path` (any method but CONNECT) is forwarded: the request line is
///   rewritten to origin form (`GET /path`), `Proxy-*` headers are dropped and `Connection:
///   close` set, so each connection carries one request to one destination;
/// - anything else is refused with a 4xx naming what was wrong.
package struct HTTPProxyHandshake: Sendable {
    private var buffer: [UInt8] = []
    /// Where the search for the header's end goes on: a client sending a byte at a time costs
    /// one pass over its header, not one per byte.
    private var searchedUpTo = 0
    private(set) var isForward = false

    /// The most bytes of a request's header block.
    static let maximumHeader = 16 * 1024

    mutating func feed(_ bytes: [UInt8]) -> [DoorStep] {
        buffer += bytes
        let found = Self.headerEnd(in: buffer, from: searchedUpTo)
        searchedUpTo = max(0, buffer.count - 3)
        guard let end = found else {
            guard buffer.count <= Self.maximumHeader else {
                return [.refuse(reply: Self.response(431, "Request Header Fields Too Large", "the request's header block is over \(Self.maximumHeader) bytes"), reason: "header block over \(Self.maximumHeader) bytes")]
            }
            return []
        }
        guard end <= Self.maximumHeader else {
            return [.refuse(reply: Self.response(431, "Request Header Fields Too Large", "the request's header block is over \(Self.maximumHeader) bytes"), reason: "header block over \(Self.maximumHeader) bytes")]
        }
        let header = Array(buffer[..<(end - 4)])
        let rest = Array(buffer[end...])
        buffer = []
        return [step(header: header, rest: rest)]
    }

    /// Works on the header's bytes: what is forwarded keeps every byte the client sent but the
    /// request line's scheme and authority (a header value may be any octet, RFC 9110 §5.5).
    private mutating func step(header: [UInt8], rest: [UInt8]) -> DoorStep {
        let lines = Self.lines(header)
        guard let requestLine = lines.first, !requestLine.isEmpty else { return Self.bad("an empty request") }
        let words = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        let text = String(decoding: requestLine, as: UTF8.self)
        guard words.count == 3, words[2].starts(with: Array("HTTP/1.".utf8)), !words[0].isEmpty,
              words[0].allSatisfy({ $0 > 0x20 && $0 < 0x7F }), words[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            return Self.bad("a malformed request line '\(Self.clip(text))'")
        }
        let method = String(decoding: words[0], as: UTF8.self)
        let target = String(decoding: words[1], as: UTF8.self)
        if method == "CONNECT" {
            guard let (host, port) = Self.authority(target, defaultPort: nil) else {
                return Self.bad("CONNECT needs host:port, got '\(Self.clip(target))'")
            }
            return .connect(ProxyDestination(host: host, port: port, kind: .tunnel), forward: rest)
        }
        let lowered = target.lowercased()
        if lowered.hasPrefix("https://") {
            return Self.bad("an https:// URL needs a CONNECT tunnel, not \(method) \(Self.clip(target))")
        }
        guard lowered.hasPrefix("http://") else {
            return Self.bad("\(method) \(Self.clip(target)) is not a proxy request (an absolute http:// URL or CONNECT host:port)")
        }
        let afterScheme = target.dropFirst("http://".count)
        let slash = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
        let authorityText = String(afterScheme[..<slash])
        guard !authorityText.contains("@"), let (host, port) = Self.authority(authorityText, defaultPort: 80) else {
            return Self.bad("no host in \(Self.clip(target))")
        }
        var path = String(afterScheme[slash...])
        if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
        var rewritten: [[UInt8]] = [Array("\(method) \(path) ".utf8) + words[2]]
        var hasHost = false
        for line in lines.dropFirst() {
            let name = String(decoding: line.prefix { $0 != UInt8(ascii: ":") }, as: UTF8.self).lowercased()
            if name == "connection" || name == "proxy-connection" || name == "proxy-authorization" || name == "keep-alive" { continue }
            if name == "host" { hasHost = true }
            rewritten.append(Array(line))
        }
        if !hasHost { rewritten.insert(Array("Host: \(authorityText)".utf8), at: 1) }
        rewritten.append(Array("Connection: close".utf8))
        isForward = true
        let crlf: [UInt8] = [13, 10]
        let head = rewritten.flatMap { $0 + crlf } + crlf
        return .connect(ProxyDestination(host: host, port: port, kind: .forward), forward: head + rest)
    }

    /// The header block's lines (without their CRLF).
    private static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 13 && bytes[index + 1] == 10 {
                lines.append(bytes[start ..< index])
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        lines.append(bytes[start...])
        return lines
    }

    /// `host:port`, `[v6]:port`, or a bare host with `defaultPort`; the port 1–65535.
    static func authority(_ text: String, defaultPort: Int?) -> (String, Int)? {
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex) ..< close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            guard !host.contains(":") else { return nil }
        } else {
            host = Substring(text)
        }
        guard !host.isEmpty, host.utf8.count <= 255, host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }) else { return nil }
        let port: Int
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCII), let value = Int(portText), (1 ... 65535).contains(value) else { return nil }
            port = value
        } else {
            guard let defaultPort else { return nil }
            port = defaultPort
        }
        return (String(host), port)
    }

    /// Where the header block ends (just past its blank line), if it has, looking at the
    /// blank lines that start at `start` or later.
    package static func headerEnd(in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in max(3, start + 3) ..< bytes.count where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
            return index + 1
        }
        return nil
    }

    /// A complete response with a one-line plain-text body, closing the connection.
    static func response(_ status: Int, _ phrase: String, _ body: String) -> [UInt8] {
        let text = body + "\n"
        return Array("HTTP/1.1 \(status) \(phrase)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(text.utf8.count)\r\nConnection: close\r\n\r\n\(text)".utf8)
    }

    private static func bad(_ reason: String) -> DoorStep {
        .refuse(reply: response(400, "Bad Request", reason), reason: reason)
    }

    /// At most 80 characters of what the client sent, anything but printable ASCII as `?`, for
    /// a refusal and a log line.
    private static func clip(_ text: String) -> String {
        let printable = String(String.UnicodeScalarView(text.unicodeScalars.prefix(81).map { (0x20 ... 0x7E).contains($0.value) ? $0 : "?" }))
        return printable.count > 80 ? String(printable.prefix(80)) + "..." : printable
    }
}
