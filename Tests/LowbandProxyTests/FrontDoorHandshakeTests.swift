import LowbandProxyCore
import Testing

/// The front doors' handshakes as bytes in, steps out (RFC 1928, RFC 1929, RFC 9110 CONNECT):
/// what a client is told at each step and where its connection goes.
@Suite struct FrontDoorHandshakeTests {
    private func socks(_ credentials: SocksCredentials? = nil) -> DoorHandshake {
        DoorHandshake(door: .socks5(credentials))!
    }

    private func http() -> DoorHandshake {
        DoorHandshake(door: .httpProxy)!
    }

    private static func domainRequest(_ name: String, port: Int, command: UInt8 = 1) -> [UInt8] {
        [5, command, 0, 3, UInt8(name.utf8.count)] + Array(name.utf8) + [UInt8(port >> 8), UInt8(port & 0xFF)]
    }

    @Test func aSocksConnectToANameIsOpenedWithWhatFollowsIt() {
        var door = socks()
        #expect(door.feed([5, 1, 0]) == [.reply([5, 0])])
        #expect(door.feed(Self.domainRequest("localhost", port: 8080) + Array("hello".utf8))
            == [.connect(ProxyDestination(host: "localhost", port: 8080, kind: .socks), forward: Array("hello".utf8))])
        #expect(door.feed([1, 2, 3]).isEmpty, "the handshake is over")
        #expect(door.success(boundAddress: [127, 0, 0, 1], boundPort: 40000) == [5, 0, 0, 1, 127, 0, 0, 1, 0x9C, 0x40])
    }

    @Test func byteByByteOrAllAtOnceGivesTheSameSteps() {
        let bytes: [UInt8] = [5, 2, 0, 2] + Self.domainRequest("example.test", port: 443)
        var whole = socks()
        let all = whole.feed(bytes)
        var pieces = socks()
        var steps: [DoorStep] = []
        for byte in bytes { steps += pieces.feed([byte]) }
        #expect(all == steps)
        #expect(all == [.reply([5, 0]), .connect(ProxyDestination(host: "example.test", port: 443, kind: .socks), forward: [])])
    }

    @Test func addressesAreReadAsTheirText() {
        var v4 = socks()
        #expect(v4.feed([5, 1, 0, 5, 1, 0, 1, 127, 0, 0, 1, 0, 80]).last == .connect(ProxyDestination(host: "127.0.0.1", port: 80, kind: .socks), forward: []))
        var v6 = socks()
        let loopback: [UInt8] = Array(repeating: 0, count: 15) + [1]
        let destination = ProxyDestination(host: "::1", port: 443, kind: .socks)
        #expect(v6.feed([5, 1, 0, 5, 1, 0, 4] + loopback + [1, 187]).last == .connect(destination, forward: []))
        #expect(destination.description == "[::1]:443")
        let documentation: [UInt8] = [0x20, 0x01, 0x0D, 0xB8] + Array(repeating: 0, count: 11) + [1]
        var other = socks()
        #expect(other.feed([5, 1, 0, 5, 1, 0, 4] + documentation + [0, 80]).last == .connect(ProxyDestination(host: "2001:db8::1", port: 80, kind: .socks), forward: []))
        var longest = socks()
        let name = String(repeating: "a", count: 255)
        #expect(longest.feed([5, 1, 0] + Self.domainRequest(name, port: 80)).last == .connect(ProxyDestination(host: name, port: 80, kind: .socks), forward: []))
    }

    @Test func usernameAndPasswordAreChecked() {
        let credentials = SocksCredentials(username: "alice", password: "s3cret")
        var right = socks(credentials)
        #expect(right.feed([5, 2, 0, 2]) == [.reply([5, 2])])
        #expect(right.feed([1, 5] + Array("alice".utf8) + [6] + Array("s3cret".utf8)) == [.reply([1, 0])])
        #expect(right.feed(Self.domainRequest("localhost", port: 1)).count == 1)
        var wrong = socks(credentials)
        _ = wrong.feed([5, 1, 2])
        #expect(wrong.feed([1, 5] + Array("alice".utf8) + [5] + Array("guess".utf8)) == [.refuse(reply: [1, 1], reason: "SOCKS5 authentication failed for user 'alice'")])
        var noAuth = socks(credentials)
        guard case .refuse(let reply, let reason)? = noAuth.feed([5, 1, 0]).first else { Issue.record("accepted without credentials"); return }
        #expect(reply == [5, 0xFF])
        #expect(reason == "no acceptable SOCKS5 method: the client offers no authentication, the proxy needs username/password")
        #expect(SocksCredentials(parsing: "user:pa:ss") == SocksCredentials(username: "user", password: "pa:ss"))
        #expect(SocksCredentials(parsing: "nocolon") == nil && SocksCredentials(parsing: ":x") == nil)
    }

    @Test(arguments: [
        ([4, 1, 0, 80, 127, 0, 0, 1, 0], [], "not a SOCKS5 greeting (version byte 4; SOCKS4 and others are not served)"),
        ([5, 0], [5, 0xFF], "SOCKS5 greeting offers no authentication method"),
        ([5, 1, 2], [5, 0xFF], "no acceptable SOCKS5 method: the client offers username/password, the proxy needs no authentication"),
        ([5, 1, 0, 5, 2, 0, 1, 127, 0, 0, 1, 0, 80], [5, 7, 0, 1, 0, 0, 0, 0, 0, 0], "SOCKS5 BIND is not served (CONNECT only)"),
        ([5, 1, 0, 5, 3, 0, 1, 127, 0, 0, 1, 0, 80], [5, 7, 0, 1, 0, 0, 0, 0, 0, 0], "SOCKS5 UDP ASSOCIATE is not served (CONNECT only)"),
        ([5, 1, 0, 5, 1, 0, 9, 1, 2], [5, 8, 0, 1, 0, 0, 0, 0, 0, 0], "SOCKS5 address type 9 is not IPv4 (1), a domain name (3) or IPv6 (4)"),
        ([5, 1, 0, 5, 1, 0, 3, 0, 0, 80], [5, 4, 0, 1, 0, 0, 0, 0, 0, 0], "SOCKS5 request with an empty domain name"),
        ([5, 1, 0, 5, 1, 0, 1, 127, 0, 0, 1, 0, 0], [5, 2, 0, 1, 0, 0, 0, 0, 0, 0], "SOCKS5 CONNECT to port 0 of 127.0.0.1"),
        ([5, 1, 0, 5, 1, 0, 3, 2, 0xCE, 0xCE, 0, 80], [5, 4, 0, 1, 0, 0, 0, 0, 0, 0], "SOCKS5 domain name that is not printable ASCII"),
    ] as [([UInt8], [UInt8], String)])
    func socksRefusalsAnswerWithTheirCode(bytes: [UInt8], reply: [UInt8], reason: String) {
        var door = socks()
        #expect(door.feed(bytes).last == .refuse(reply: reply, reason: reason))
    }

    @Test func aTruncatedRequestWaitsForTheRest() {
        var door = socks()
        #expect(door.feed([5, 1, 0, 5, 1, 0, 3, 9, 0x6C]) == [.reply([5, 0])])
        #expect(door.feed(Array("ocalhos".utf8)).isEmpty)
        #expect(door.feed(Array("t".utf8) + [0]).isEmpty)
        #expect(door.feed([80]).count == 1)
    }

    @Test func failuresAnswerInEachProtocolsWords() {
        let door = socks()
        #expect(door.failure(.refused, reason: "x") == [5, 5, 0, 1, 0, 0, 0, 0, 0, 0])
        #expect(door.failure(.unresolved, reason: "x")[1] == 4)
        #expect(door.failure(.timedOut, reason: "x")[1] == 6)
        #expect(door.failure(.other, reason: "x")[1] == 1)
        let proxy = http()
        #expect(String(decoding: proxy.failure(.refused, reason: "127.0.0.1:1: Connection refused"), as: UTF8.self).hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"))
        #expect(String(decoding: proxy.failure(.timedOut, reason: "x"), as: UTF8.self).hasPrefix("HTTP/1.1 504 Gateway Timeout\r\n"))
        #expect(String(decoding: proxy.timedOut(after: "10 s"), as: UTF8.self).hasSuffix("\r\n\r\nthe request did not arrive within 10 s\n"))
        #expect(socks().timedOut(after: "10 s").isEmpty)
    }

    @Test func anHTTPConnectOpensATunnel() {
        var door = http()
        let steps = door.feed(Array("CONNECT example.test:443 HTTP/1.1\r\nHost: example.test:443\r\n\r\n".utf8) + [0x16, 3, 1])
        #expect(steps == [.connect(ProxyDestination(host: "example.test", port: 443, kind: .tunnel), forward: [0x16, 3, 1])])
        #expect(door.success(boundAddress: nil, boundPort: 0) == Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8))
        var v6 = http()
        #expect(v6.feed(Array("CONNECT [::1]:8443 HTTP/1.1\r\n\r\n".utf8)) == [.connect(ProxyDestination(host: "::1", port: 8443, kind: .tunnel), forward: [])])
    }

    @Test func anAbsoluteHTTPRequestIsForwardedInOriginForm() {
        var door = http()
        let request = "GET http://localhost:8080/page?x=1 HTTP/1.1\r\nHost: localhost:8080\r\nProxy-Connection: keep-alive\r\nConnection: keep-alive\r\nAccept: */*\r\n\r\n"
        guard case .connect(let destination, let forward)? = door.feed(Array(request.utf8)).first else {
            Issue.record("not forwarded")
            return
        }
        #expect(destination == ProxyDestination(host: "localhost", port: 8080, kind: .forward))
        #expect(String(decoding: forward, as: UTF8.self) == "GET /page?x=1 HTTP/1.1\r\nHost: localhost:8080\r\nAccept: */*\r\nConnection: close\r\n\r\n")
        #expect(door.success(boundAddress: nil, boundPort: 0).isEmpty, "the destination answers a forwarded request")
        // A header value may hold any octet (obs-text): it is forwarded byte for byte.
        var latin = http()
        let request2 = Array("GET http://localhost/ HTTP/1.1\r\nX-Name: caf".utf8) + [0xE9] + Array("\r\n\r\n".utf8)
        guard case .connect(_, let kept)? = latin.feed(request2).first else {
            Issue.record("not forwarded")
            return
        }
        #expect(kept == Array("GET / HTTP/1.1\r\nHost: localhost\r\nX-Name: caf".utf8) + [0xE9] + Array("\r\nConnection: close\r\n\r\n".utf8))
        var bare = http()
        guard case .connect(let plain, let rewritten)? = bare.feed(Array("HEAD http://example.test HTTP/1.0\r\n\r\n".utf8)).first else {
            Issue.record("not forwarded")
            return
        }
        #expect(plain.port == 80)
        #expect(String(decoding: rewritten, as: UTF8.self) == "HEAD / HTTP/1.0\r\nHost: example.test\r\nConnection: close\r\n\r\n")
    }

    @Test(arguments: [
        ("CONNECT example.test HTTP/1.1\r\n\r\n", 400, "CONNECT needs host:port, got 'example.test'"),
        ("CONNECT example.test:99999 HTTP/1.1\r\n\r\n", 400, "CONNECT needs host:port, got 'example.test:99999'"),
        ("GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n", 400, "GET /index.html is not a proxy request (an absolute http:// URL or CONNECT host:port)"),
        ("GET https://example.test/ HTTP/1.1\r\n\r\n", 400, "an https:// URL needs a CONNECT tunnel, not GET https://example.test/"),
        ("GET http://user@example.test/ HTTP/1.1\r\n\r\n", 400, "no host in http://user@example.test/"),
        ("HELLO\r\n\r\n", 400, "a malformed request line 'HELLO'"),
    ])
    func httpRefusalsSayWhatWasWrong(request: String, status: Int, reason: String) {
        var door = http()
        guard case .refuse(let reply, let said)? = door.feed(Array(request.utf8)).first else {
            Issue.record("\(request) was not refused")
            return
        }
        #expect(said == reason)
        let text = String(decoding: reply, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 \(status) "))
        #expect(text.hasSuffix("\r\n\r\n\(reason)\n"))
    }

    @Test func aHeaderBlockOverItsCapIsRefusedWithoutWaitingForItsEnd() {
        var door = http()
        #expect(door.feed(Array("GET http://x/ HTTP/1.1\r\n".utf8)).isEmpty)
        let steps = door.feed(Array(repeating: UInt8(ascii: "a"), count: 17 * 1024))
        guard case .refuse(let reply, _)? = steps.first else {
            Issue.record("an endless header was kept")
            return
        }
        #expect(String(decoding: reply, as: UTF8.self).hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
    }

    @Test func theAPIWordsNameTheDoors() {
        #expect(ProxyDoor(upstreamWord: "socks5") == .socks5(nil))
        #expect(ProxyDoor(upstreamWord: "http-proxy") == .httpProxy)
        #expect(ProxyDoor(upstreamWord: "127.0.0.1:80") == nil)
        #expect(DoorHandshake(door: .upstream) == nil)
    }
}
