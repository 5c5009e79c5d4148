import Foundation
import LowbandProcess
import LowbandProxy
import LowbandProxyCore
import LowbandShaper
import LowbandTestSupport
import NIOCore
import NIOPosix
import Testing

/// The proxy's front doors with clients nobody here wrote — curl and Python's requests with
/// PySocks — against a real origin on loopback: every tunnel is a connection on the one shaped
/// link, refusals are in the protocol's own words, and bad clients cost only themselves.
@Suite(.timeLimit(.minutes(5))) struct FrontDoorTests {
    /// A proxy whose own listener is `door`, with extra door listeners `doors`, upstream `upstreamPort`.
    static func withDoorProxy<Result: Sendable>(
        _ door: ProxyDoor, doors: [ProxyDoor] = [], upstreamPort: Int = 9, link: ProxyLink = .perfect(),
        limits: ShapingProxy.Limits = ShapingProxy.Limits(),
        _ body: (ShapingProxy, Int, [Int]) async throws -> Result
    ) async throws -> Result {
        var configuration = ShapingProxy.Configuration(name: "door", upstream: ProxyEndpoint(host: "127.0.0.1", port: upstreamPort), link: link, limits: limits)
        configuration.door = door
        configuration.doors = doors.map { DoorListener(listen: ProxyEndpoint(host: "127.0.0.1", port: 0), door: $0) }
        let proxy = ShapingProxy(configuration: configuration)
        let address = try await proxy.start()
        let extra = try await proxy.configuration.doors.map(\.listen.port)
        do {
            let result = try await body(proxy, address.port ?? 0, extra)
            await proxy.stop()
            return result
        } catch {
            await proxy.stop()
            throw error
        }
    }

    /// An environment with no proxy variables, so the clients use exactly the proxy they are given.
    static let cleanEnvironment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]

    static func curl(_ arguments: [String]) async throws -> ExternalProcess.Result {
        try await ExternalProcess.run("curl", ["-sS", "--max-time", "20"] + arguments, environment: cleanEnvironment)
    }

    static let page = Array(String(repeating: "<p>hello from the origin</p>\n", count: 40).utf8)

    @Test func curlFetchesThroughSocksAndBothHTTPProxyForms() async throws {
        let origin = try await HTTPTestServer.start(body: Self.page)
        defer { Task { await origin.close() } }
        try await Self.withDoorProxy(.socks5(nil), doors: [.httpProxy]) { proxy, socksPort, doorPorts in
            let events = proxy.events()
            let url = "http://localhost:\(origin.port)/index.html"
            let viaSocks = try await Self.curl(["--socks5-hostname", "127.0.0.1:\(socksPort)", url])
            #expect(viaSocks.status == 0, "\(viaSocks.stderrText)")
            #expect(viaSocks.stdout.count == Self.page.count && viaSocks.stdout == Self.page, "\(viaSocks.stdoutText.prefix(200))")
            let viaForward = try await Self.curl(["-x", "http://127.0.0.1:\(doorPorts[0])", url])
            #expect(viaForward.status == 0, "\(viaForward.stderrText)")
            #expect(viaForward.stdout.count == Self.page.count && viaForward.stdout == Self.page, "\(viaForward.stdoutText.prefix(200))")
            let viaTunnel = try await Self.curl(["-x", "http://127.0.0.1:\(doorPorts[0])", "--proxytunnel", url])
            #expect(viaTunnel.status == 0, "\(viaTunnel.stderrText)")
            #expect(viaTunnel.stdout.count == Self.page.count)
            // The forwarded request reached the origin in origin form; the others untouched.
            #expect(origin.requestLines == ["GET /index.html HTTP/1.1", "GET /index.html HTTP/1.1", "GET /index.html HTTP/1.1"])
            // Three connections on one link, numbered in one sequence, each naming its destination.
            var opened: [String] = []
            for await event in events where event.kind == .open {
                opened.append("#\(event.connection ?? 0) \(event.detail?.split(separator: "→").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "")")
                if opened.count == 3 { break }
            }
            #expect(opened == ["#1 localhost:\(origin.port) (socks)", "#2 localhost:\(origin.port) (forward)", "#3 localhost:\(origin.port) (tunnel)"])
            let statistics = await proxy.statistics
            #expect(statistics.acceptedConnections == 3)
            #expect(statistics.downstreamBytes >= 3 * Self.page.count)
        }
    }

    @Test func pythonRequestsGoesThroughSocksAndTheHTTPProxy() async throws {
        let origin = try await HTTPTestServer.start(body: Self.page)
        defer { Task { await origin.close() } }
        try await Self.withDoorProxy(.socks5(SocksCredentials(username: "app", password: "pw")), doors: [.httpProxy]) { _, socksPort, doorPorts in
            let script = """
                import sys, requests
                url, socks, http = sys.argv[1], sys.argv[2], sys.argv[3]
                session = requests.Session()
                session.trust_env = False
                sizes = []
                for proxy in ["socks5h://app:pw@127.0.0.1:%s" % socks, "http://127.0.0.1:%s" % http]:
                    response = session.get(url, proxies={"http": proxy}, timeout=20)
                    sizes.append("%d %d" % (response.status_code, len(response.content)))
                try:
                    session.get(url, proxies={"http": "socks5h://app:wrong@127.0.0.1:%s" % socks}, timeout=20)
                    sizes.append("wrong password accepted")
                except requests.exceptions.ConnectionError as error:
                    sizes.append("refused")
                print(",".join(sizes))
                """
            let result = try await ExternalProcess.run(
                "python3", ["-c", script, "http://localhost:\(origin.port)/", String(socksPort), String(doorPorts[0])], environment: Self.cleanEnvironment)
            #expect(result.status == 0, "\(result.stderrText)")
            #expect(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "200 \(Self.page.count),200 \(Self.page.count),refused")
        }
    }

    @Test func aTunnelIsShapedByTheLink() async throws {
        // 125,000 bytes down a 1 Mbit/s link take 1 s, whichever door the request came through.
        let body = Array(repeating: UInt8(ascii: "x"), count: 125_000)
        let origin = try await HTTPTestServer.start(body: body)
        defer { Task { await origin.close() } }
        let profile = ProxyHarness.steadyProfile(downRate: 1_000_000, upRate: 1_000_000, queueBytes: 200_000)
        try await Self.withDoorProxy(.socks5(nil), link: .network(profile, seed: 1)) { _, port, _ in
            let result = try await Self.curl(["--socks5-hostname", "127.0.0.1:\(port)", "-o", "/dev/null", "-w", "%{size_download} %{time_total}", "http://127.0.0.1:\(origin.port)/"])
            #expect(result.status == 0, "\(result.stderrText)")
            let fields = result.stdoutText.split(separator: " ")
            #expect(fields.first == "125000")
            let seconds = Double(fields.last ?? "") ?? 0
            #expect(seconds >= 0.95, "125,000 B at 1 Mbit/s took \(seconds) s")
        }
    }

    @Test func unreachableDestinationsAreRefusedInTheProtocolsWords() async throws {
        try await TestPeers.withRefusedPort { refused in
            try await Self.withDoorProxy(.socks5(nil), doors: [.httpProxy]) { proxy, socksPort, doorPorts in
                let socks = try await Self.curl(["--socks5-hostname", "127.0.0.1:\(socksPort)", "http://127.0.0.1:\(refused)/"])
                #expect(socks.status == 97, "\(socks.stderrText)")
                #expect(socks.stderrText.contains("(5)"), "SOCKS reply 5, connection refused: \(socks.stderrText)")
                let http = try await Self.curl(["-x", "http://127.0.0.1:\(doorPorts[0])", "-w", "%{http_code}", "http://127.0.0.1:\(refused)/"])
                #expect(http.stdoutText.hasSuffix("502"), "\(http.stdoutText)")
                #expect(http.stdoutText.contains("127.0.0.1:\(refused): Connection refused"))
                #expect(await proxy.statistics.refusedConnections == 2)
            }
        }
    }

    @Test func badClientsGetTheirRefusalAndNobodyElseNotices() async throws {
        let origin = try await HTTPTestServer.start(body: Self.page)
        defer { Task { await origin.close() } }
        try await Self.withDoorProxy(.socks5(nil), doors: [.httpProxy]) { proxy, socksPort, doorPorts in
            let events = proxy.events()
            // SOCKS4, BIND, an endless header: each answered in its protocol's words and closed.
            #expect(try await Self.exchange(socksPort, [4, 1, 0, 80, 127, 0, 0, 1, 0]) == [])
            #expect(try await Self.exchange(socksPort, [5, 1, 0, 5, 2, 0, 1, 127, 0, 0, 1, 0, 80]) == [5, 0, 5, 7, 0, 1, 0, 0, 0, 0, 0, 0])
            let endless = String(decoding: try await Self.exchange(doorPorts[0], Array("GET http://x/ HTTP/1.1\r\nX: ".utf8) + Array(repeating: 97, count: 20_000)), as: UTF8.self)
            #expect(endless.hasPrefix("HTTP/1.1 431 "), "\(endless)")
            // Meanwhile a well-behaved client is served as ever.
            let fine = try await Self.curl(["--socks5-hostname", "127.0.0.1:\(socksPort)", "http://localhost:\(origin.port)/"])
            #expect(fine.stdout.count == Self.page.count, "\(fine.stderrText)")
            var denied: [String] = []
            var closed = false
            for await event in events where event.kind == .denied || event.kind == .close {
                if event.kind == .denied { denied.append(event.detail ?? "") } else { closed = true }
                if denied.count == 3 && closed { break }
            }
            #expect(denied.contains { $0.contains("(socks5): not a SOCKS5 greeting (version byte 4") }, "\(denied)")
            #expect(denied.contains { $0.contains("(socks5): SOCKS5 BIND is not served") }, "\(denied)")
            #expect(denied.contains { $0.contains("(http-proxy): header block over 16384 bytes") }, "\(denied)")
            let statistics = await proxy.statistics
            #expect(statistics.acceptedConnections == 1, "no connection was opened for the refused clients")
            #expect(statistics.openConnections == 0)
        }
    }

    @Test func aSlowLorisClientIsAnsweredAndClosedAfterTheHandshakeTimeOut() async throws {
        var limits = ShapingProxy.Limits()
        limits.handshakeTimeout = .milliseconds(300)
        try await Self.withDoorProxy(.socks5(nil), doors: [.httpProxy], limits: limits) { proxy, socksPort, doorPorts in
            let events = proxy.events()
            // Half a request on each door, then nothing: SOCKS is closed, HTTP gets 408.
            // (A machine so loaded that the greeting arrives after 0.3 s gets no method choice.)
            let socks = try await Self.exchange(socksPort, [5, 1, 0, 5])
            #expect(socks == [5, 0] || socks.isEmpty, "\(socks)")
            let loris = String(decoding: try await Self.exchange(doorPorts[0], Array("GET http://x/ HTTP/1.1\r\n".utf8)), as: UTF8.self)
            #expect(loris.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(loris)")
            var denied: [String] = []
            for await event in events where event.kind == .denied {
                denied.append(event.detail ?? "")
                if denied.count == 2 { break }
            }
            #expect(denied.contains { $0.contains("(socks5): no complete request within 0.3 s") }, "\(denied)")
            #expect(denied.contains { $0.contains("(http-proxy): no complete request within 0.3 s") }, "\(denied)")
            #expect(await proxy.statistics.acceptedConnections == 0)
        }
    }

    @Test func stoppingTheProxyClosesClientsMidHandshake() async throws {
        var configuration = ShapingProxy.Configuration(name: "door")
        configuration.door = .socks5(nil)
        let proxy = ShapingProxy(configuration: configuration)
        let port = try await proxy.start().port ?? 0
        let client = try await TestPeers.connect(port: port)
        let received = try await client.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(bytes: [5, 1, 0]))
            var iterator = inbound.makeAsyncIterator()
            let choice = try await TestPeers.read(2, from: &iterator)
            // The request never comes; the proxy stops long before the 10 s handshake time-out.
            await proxy.stop()
            let rest = try await TestPeers.readToEnd(from: &iterator)
            return Array(choice.readableBytesView) + Array(rest.readableBytesView)
        }
        #expect(received == [5, 0], "closed by the stop, nothing more said")
    }

    @Test func aDoorBesideAnUpstreamSharesItsLink() async throws {
        let echo = try await TestPeers.echoServer()
        try await echo.serving {
            try await Self.withDoorProxy(.upstream, doors: [.socks5(nil)], upstreamPort: echo.port) { proxy, port, doorPorts in
                let events = proxy.events()
                let direct = try await Self.exchange(port, Array("direct".utf8), expect: 6)
                #expect(direct == Array("direct".utf8))
                let tunnel = try await Self.exchange(doorPorts[0], [5, 1, 0, 5, 1, 0, 1, 127, 0, 0, 1, UInt8(echo.port >> 8), UInt8(echo.port & 0xFF)] + Array("ping".utf8), expect: 2 + 10 + 4)
                #expect(Array(tunnel.prefix(4)) == [5, 0, 5, 0])
                #expect(Array(tunnel.suffix(4)) == Array("ping".utf8), "the tunnel echoes")
                var opened: [Int] = []
                for await event in events where event.kind == .open {
                    opened.append(event.connection ?? 0)
                    if opened.count == 2 { break }
                }
                #expect(opened == [1, 2], "one machine, one numbering: the same link")
                let description = try await ProxyRegistryDoorCheck.describe(proxy)
                #expect(description == "upstream 127.0.0.1:\(echo.port), doors socks5")
            }
        }
    }

    @Test func namesAreLookedUpAsTheProfilesDNSSays() async throws {
        let origin = try await HTTPTestServer.start(body: Self.page)
        defer { Task { await origin.close() } }
        var profile = ProxyHarness.steadyProfile(downRate: 10_000_000, upRate: 10_000_000)
        profile.dns = DNSProfile(delay: .milliseconds(400) ... .milliseconds(400), failure: 0)
        let trace = ShaperTraceRecorder()
        try await Self.withDoorProxy(.socks5(nil), link: .network(profile, seed: 3, trace: trace)) { proxy, port, _ in
            let byName = try await Self.curl(["--socks5-hostname", "127.0.0.1:\(port)", "-o", "/dev/null", "-w", "%{time_total}", "http://localhost:\(origin.port)/"])
            #expect(byName.status == 0, "\(byName.stderrText)")
            #expect((Double(byName.stdoutText) ?? 0) >= 0.4, "a name waits the profile's 400 ms lookup: \(byName.stdoutText) s")
            // An address is not looked up.
            let byAddress = try await Self.curl(["--socks5", "127.0.0.1:\(port)", "-o", "/dev/null", "http://127.0.0.1:\(origin.port)/"])
            #expect(byAddress.status == 0)
            let statistics = await proxy.statistics
            #expect(statistics.dnsLookups == 1 && statistics.dnsFailures == 0)
            let lookups = trace.events.filter { $0.kind == .dns }
            #expect(lookups.count == 1)
            #expect(lookups.first?.delay == .milliseconds(400))
            #expect(lookups.first?.detail == "localhost resolved")
            #expect(lookups.first?.connection == ConnectionID(index: 1))
        }
        profile.dns = DNSProfile(delay: .milliseconds(50) ... .milliseconds(50), failure: 0.999_999)
        try await Self.withDoorProxy(.socks5(nil), doors: [.httpProxy], link: .network(profile, seed: 3)) { proxy, port, doorPorts in
            let socks = try await Self.curl(["--socks5-hostname", "127.0.0.1:\(port)", "http://localhost:\(origin.port)/"])
            #expect(socks.status == 97 && socks.stderrText.contains("(4)"), "SOCKS reply 4, host unreachable: \(socks.stderrText)")
            let http = try await Self.curl(["-x", "http://127.0.0.1:\(doorPorts[0])", "http://localhost:\(origin.port)/"])
            #expect(http.stdoutText.contains("localhost does not resolve (the profile's DNS failure, 100 %)"), "\(http.stdoutText)")
            let statistics = await proxy.statistics
            #expect(statistics.dnsLookups == 2 && statistics.dnsFailures == 2)
        }
    }

    @Test func theAPIMakesAndListsDoorsByTheirWord() async throws {
        let origin = try await HTTPTestServer.start(body: Self.page)
        defer { Task { await origin.close() } }
        let registry = ProxyRegistry()
        let created = try await registry.create(ProxySpecification(name: "app", listen: "127.0.0.1:0", upstream: "http-proxy"))
        #expect(created.upstream == "http-proxy")
        let port = try #require(created.listen.split(separator: ":").last.map(String.init))
        let fetched = try await Self.curl(["-x", "http://127.0.0.1:\(port)", "http://localhost:\(origin.port)/"])
        #expect(fetched.stdout.count == Self.page.count, "\(fetched.stderrText)")
        await #expect(throws: ProxyError.self) {
            try await registry.update(named: "app", ProxySpecification(upstream: "127.0.0.1:80"))
        }
        let socks = try await registry.create(ProxySpecification(name: "s", listen: "127.0.0.1:0", upstream: "socks5"))
        #expect(socks.upstream == "socks5")
        await #expect(throws: ProxyError.self) {
            try await registry.update(named: "s", ProxySpecification(upstream: "http-proxy"))
        }
        #expect(try await registry.update(named: "s", ProxySpecification(upstream: "socks5")).upstream == "socks5")
        await registry.stopAll()
    }

    /// Sends `bytes`, then reads until the proxy closes (or `expect` bytes have come, then closes).
    /// Connects, sends `bytes` and reads until the proxy closes (or `expect` bytes came).
    ///
    /// The bytes go out from the event loop the moment the connection is up: with an async
    /// channel the send waited for a thread of the test's task pool, and a parallel pass at load
    /// 12 kept it waiting past the proxy's 10 s handshake deadline ("no complete request within
    /// 10 s" instead of the refusal this suite asserts).
    static func exchange(_ port: Int, _ bytes: [UInt8], expect: Int? = nil) async throws -> [UInt8] {
        let received = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: [UInt8].self)
        let channel = try await ClientBootstrap(group: received.futureResult.eventLoop)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(SendOnConnect(bytes, expect: expect, received: received))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        defer { channel.close(promise: nil) }
        return try await received.futureResult.get()
    }
}

/// Writes its bytes as soon as the connection is active, gathers what comes back, and hands it
/// over when the peer closes (or when `expect` bytes came); all on the channel's event loop.
private final class SendOnConnect: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let bytes: [UInt8]
    private let expect: Int?
    private let received: EventLoopPromise<[UInt8]>
    private var gathered: [UInt8] = []
    private var done = false

    init(_ bytes: [UInt8], expect: Int?, received: EventLoopPromise<[UInt8]>) {
        self.bytes = bytes
        self.expect = expect
        self.received = received
    }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: bytes)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        gathered += Array(unwrapInboundIn(data).readableBytesView)
        if let expect, gathered.count >= expect {
            finish(.success(gathered))
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.success(gathered))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(error))
        context.close(promise: nil)
    }

    /// A promise is completed once: the first of the peer's close, `expect` reached or an error.
    private func finish(_ result: Result<[UInt8], any Error>) {
        guard !done else { return }
        done = true
        received.completeWith(result)
    }
}

/// What the proxy says of its doors.
enum ProxyRegistryDoorCheck {
    static func describe(_ proxy: ShapingProxy) async throws -> String {
        let configuration = try await proxy.configuration
        return "upstream \(configuration.upstream), doors " + configuration.doors.map(\.door.description).joined(separator: ",")
    }
}

/// Headless Chromium loading a page of seven requests through the SOCKS5 door: every resource
/// comes through the one shaped link, and the page cannot load faster than the link allows.
@Suite(.timeLimit(.minutes(2))) struct FrontDoorBrowserTests {
    static let scripts = 6

    static func route(_ path: String) -> HTTPTestServer.Resource {
        if path.hasPrefix("/s"), path.hasSuffix(".js") {
            let name = path.dropFirst(2).dropLast(3)
            return ("application/javascript", Array("document.getElementById('out').insertAdjacentHTML('beforeend', '<p class=\"loaded\">script \(name)</p>');".utf8))
        }
        var page = "<!doctype html><html><head><title>loading</title></head><body><div id=\"out\"></div>"
        for index in 1 ... scripts { page += "<script src=\"/s\(index).js\"></script>" }
        page += "<script>addEventListener('load', () => { document.title = 'loaded in ' + Math.round(performance.now()) + ' ms'; });</script></body></html>"
        return ("text/html", Array(page.utf8))
    }

    @Test func chromiumLoadsAPageThroughTheSocksDoorNoFasterThanTheLink() async throws {
        let browser = Chromium(executable: try #require(Chromium.executable, "no Chromium: run scripts/setup.sh"), workDirectory: try TemporaryDirectory(prefix: "lowband-door-browser").url)
        let origin = try await HTTPTestServer.start(route: Self.route)
        defer { Task { await origin.close() } }
        // 100 ms each way and 200 ms to connect: the page, then its scripts, each at least a
        // connect and a round trip — 0.8 s before the load event at the very least.
        var profile = ProxyHarness.steadyProfile(downRate: 2_000_000, upRate: 1_000_000, downDelay: .milliseconds(100), upDelay: .milliseconds(100))
        profile.connectDelay = .milliseconds(200) ... .milliseconds(200)
        try await FrontDoorTests.withDoorProxy(.socks5(nil), link: .network(profile, seed: 1)) { proxy, port, _ in
            let dom = try await browser.dumpDOM(
                of: URL(string: "http://localhost:\(origin.port)/index.html")!,
                // Chromium sends loopback hosts around any proxy unless told not to.
                arguments: ["--proxy-server=socks5://127.0.0.1:\(port)", "--proxy-bypass-list=<-loopback>"])
            #expect(dom.status == 0, "\(dom.stderr)")
            let loaded = dom.stdout.components(separatedBy: "class=\"loaded\"").count - 1
            #expect(loaded == Self.scripts, "\(dom.stdout)")
            let title = dom.stdout.range(of: "loaded in ").map { dom.stdout[$0.upperBound...].prefix { $0.isNumber } } ?? ""
            let milliseconds = Int(title) ?? 0
            #expect(milliseconds >= 800, "the page loaded in \(milliseconds) ms through a link whose floor is 800 ms")
            let requests = origin.requestLines
            #expect(requests.filter { $0.hasPrefix("GET /s") }.count == Self.scripts)
            #expect(await proxy.statistics.acceptedConnections >= 2, "the page and its scripts came through the door")
        }
    }
}
