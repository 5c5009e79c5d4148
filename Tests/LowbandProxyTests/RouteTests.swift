import Foundation
import LowbandProxy
import LowbandProxyCore
import LowbandShaper
import Testing

/// Per-destination rules on real sockets, with curl as the app: a rule's profile plays on the
/// path beyond the device's link, `direct` skips the link, `block` is refused in each door's own
/// words, and the control API lists and replaces the rules.
@Suite(.timeLimit(.minutes(5))) struct RouteTests {
    /// 62,500 bytes: 0.5 s on the 1 Mbit/s device, 2 s on the 250 kbit/s path.
    static let body = Array(repeating: UInt8(ascii: "r"), count: 62_500)
    static let device = ProxyHarness.steadyProfile(name: "device", downRate: 1_000_000, upRate: 1_000_000, queueBytes: 200_000)
    static let slowPath = ProxyHarness.steadyProfile(name: "far", downRate: 250_000, upRate: 250_000, queueBytes: 200_000)

    static func routes(_ rules: [String]) throws -> ProxyRoutes {
        try ProxyRoutes(rules.map { try ProxyRoute(parsing: $0) }) { name in
            guard name == "far" else { throw ProxyError(.unknownProfile, "no profile '\(name)'") }
            return slowPath
        }
    }

    /// Fetches `url` through the SOCKS door; the size and seconds curl reports, or its failure.
    static func fetch(_ url: String, socks port: Int) async throws -> (status: Int32, size: Int, seconds: Double, stderr: String) {
        let result = try await FrontDoorTests.curl(["--socks5-hostname", "127.0.0.1:\(port)", "-o", "/dev/null", "-w", "%{size_download} %{time_total}", url])
        let fields = result.stdoutText.split(separator: " ")
        return (result.status, Int(fields.first ?? "") ?? -1, Double(fields.last ?? "") ?? 0, result.stderrText)
    }

    @Test func eachDestinationGetsItsRulesPath() async throws {
        let origin = try await HTTPTestServer.start(body: Self.body)
        defer { Task { await origin.close() } }
        try await FrontDoorTests.withDoorProxy(.socks5(nil), doors: [.httpProxy], link: .network(Self.device, seed: 1)) { proxy, socks, doors in
            try await proxy.setRoutes(try Self.routes(["localhost=far", "127.0.0.2=block"]))
            #expect(try await proxy.routes.map(\.description) == ["localhost=far", "127.0.0.2=block"])
            let events = proxy.events()

            // The named host crosses the device's link and then its far path: the path's rate rules.
            let far = try await Self.fetch("http://localhost:\(origin.port)/", socks: socks)
            #expect(far.status == 0 && far.size == Self.body.count, "\(far.stderr)")
            #expect(far.seconds >= 1.95, "62,500 B over a 250 kbit/s path took \(far.seconds) s")
            // Another host crosses the device's link alone.
            let near = try await Self.fetch("http://127.0.0.1:\(origin.port)/", socks: socks)
            #expect(near.status == 0 && near.size == Self.body.count, "\(near.stderr)")
            #expect(near.seconds >= 0.48 && near.seconds < far.seconds, "62,500 B at 1 Mbit/s took \(near.seconds) s, the far path \(far.seconds) s")

            // Blocked: SOCKS reply 2 ("not allowed by ruleset"), HTTP 403, and nothing opened.
            let blocked = try await Self.fetch("http://127.0.0.2:\(origin.port)/", socks: socks)
            #expect(blocked.status == 97 && blocked.stderr.contains("(2)"), "\(blocked.stderr)")
            let forbidden = try await FrontDoorTests.curl(["-x", "http://127.0.0.1:\(doors[0])", "-w", "%{http_code}", "http://127.0.0.2:\(origin.port)/"])
            #expect(forbidden.stdoutText.hasSuffix("403"), "\(forbidden.stdoutText)")
            #expect(forbidden.stdoutText.contains("127.0.0.2:\(origin.port) is blocked by rule 2: 127.0.0.2=block"))

            // A direct rule, set while the proxy runs, takes the host off the link.
            try await proxy.setRoutes(try Self.routes(["127.0.0.1=direct"]))
            let direct = try await Self.fetch("http://127.0.0.1:\(origin.port)/", socks: socks)
            #expect(direct.status == 0 && direct.size == Self.body.count, "\(direct.stderr)")
            // Against the same host's fetch over the device's link in this run (0.5 s at least, by
            // its rate), not a wall-clock bound that a loaded machine could break.
            #expect(direct.seconds < near.seconds, "a direct fetch took \(direct.seconds) s; the device's link alone took \(near.seconds) s")

            var seen: [String] = []
            for await event in events where [.open, .denied, .routes].contains(event.kind) {
                seen.append("\(event.kind.rawValue) \(event.detail?.split(separator: "→").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "")")
                if seen.count == 6 { break }
            }
            // The blocked clients' own ports vary: the rest of each line is exact.
            let blockedLine = "127.0.0.2:\(origin.port) is blocked by rule 2: 127.0.0.2=block"
            #expect(seen.count == 6)
            #expect(seen[safe: 0] == "open localhost:\(origin.port) (socks) [rule 1: localhost=far]")
            #expect(seen[safe: 1] == "open 127.0.0.1:\(origin.port) (socks)")
            #expect(seen[safe: 2]?.hasPrefix("denied ") == true && seen[safe: 2]?.hasSuffix("(socks5): " + blockedLine) == true, "\(seen)")
            #expect(seen[safe: 3]?.hasPrefix("denied ") == true && seen[safe: 3]?.hasSuffix("(http-proxy): " + blockedLine) == true, "\(seen)")
            #expect(seen[safe: 4] == "routes 127.0.0.1=direct")
            #expect(seen[safe: 5] == "open 127.0.0.1:\(origin.port) (socks) [rule 1: 127.0.0.1=direct]")
            #expect(await proxy.statistics.acceptedConnections == 3)
        }
    }

    @Test func anUpstreamListenerFollowsItsRuleToo() async throws {
        let origin = try await HTTPTestServer.start(body: Self.body)
        defer { Task { await origin.close() } }
        var configuration = ShapingProxy.Configuration(name: "up", upstream: ProxyEndpoint(host: "127.0.0.1", port: origin.port), link: .network(Self.device, seed: 1))
        configuration.routes = try Self.routes(["127.0.0.1=block"])
        let proxy = ShapingProxy(configuration: configuration)
        let port = try #require(try await proxy.start().port)
        defer { Task { await proxy.stop() } }
        let refused = try await FrontDoorTests.curl(["http://127.0.0.1:\(port)/"])
        #expect(refused.status != 0)
        #expect(await proxy.statistics.acceptedConnections == 0)
        try await proxy.setRoutes(try Self.routes(["127.0.0.1:\(origin.port)=far"]))
        let result = try await FrontDoorTests.curl(["-o", "/dev/null", "-w", "%{size_download} %{time_total}", "http://127.0.0.1:\(port)/"])
        let fields = result.stdoutText.split(separator: " ")
        #expect(fields.first == "62500", "\(result.stderrText)")
        #expect((Double(fields.last ?? "") ?? 0) >= 1.95)
    }

    @Test func theControlAPIListsAndReplacesTheRules() async throws {
        let registry = ProxyRegistry()
        _ = try await registry.create(ProxySpecification(name: "app", listen: "127.0.0.1:0", upstream: "socks5"))
        try await ControlServerHarness.withServer(registry: registry) { port in
            let empty = try await HTTPTestClient.request("GET", "/proxies/app/routes", port: port)
            #expect(empty.status == 200 && empty.text == #"{"routes":[]}"#)
            let set = try await HTTPTestClient.request("POST", "/proxies/app/routes", port: port, body: #"{"routes":["*.cdn.example.com=gprs","ads.example.com:443=block","*=direct"]}"#)
            #expect(set.status == 200, "\(set.text)")
            #expect(set.text == #"{"routes":["*.cdn.example.com=gprs","ads.example.com:443=block","*=direct"]}"#)
            let listed = try await HTTPTestClient.request("GET", "/proxies/app/routes", port: port)
            #expect(listed.text == set.text)

            let bad = try await HTTPTestClient.request("POST", "/proxies/app/routes", port: port, body: #"{"routes":["*=direct","cdn:99999=gprs"]}"#)
            #expect(bad.status == 400)
            #expect(bad.text.contains("route 2 in the body of POST /proxies/app/routes: pattern 'cdn:99999': port '99999' is not 1–65535"), "\(bad.text)")
            let unknown = try await HTTPTestClient.request("POST", "/proxies/app/routes", port: port, body: #"{"routes":["cdn=no-such-profile"]}"#)
            #expect(unknown.status == 400 && unknown.text.contains("route 'cdn=no-such-profile'"), "\(unknown.text)")
            // A file outside every --api-profile-dir is refused without reading it.
            let file = try await HTTPTestClient.request("POST", "/proxies/app/routes", port: port, body: #"{"routes":["cdn=/etc/passwd"]}"#)
            #expect(file.status == 400 && !file.text.contains("root"), "\(file.text)")
            let unknownKey = try await HTTPTestClient.request("POST", "/proxies/app/routes", port: port, body: #"{"rules":[]}"#)
            #expect(unknownKey.status == 400 && unknownKey.text.contains("unknown key 'rules'"), "\(unknownKey.text)")
            // None of the refused bodies changed the rules.
            #expect(try await HTTPTestClient.request("GET", "/proxies/app/routes", port: port).text == set.text)
            let cleared = try await HTTPTestClient.request("POST", "/proxies/app/routes", port: port, body: #"{"routes":[]}"#)
            #expect(cleared.text == #"{"routes":[]}"#)
        }
        await registry.stopAll()
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
