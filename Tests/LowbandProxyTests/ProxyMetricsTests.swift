import Foundation
import LowbandProcess
import LowbandProxy
import LowbandProxyCore
import LowbandShaper
import LowbandTestSupport
import NIOCore
import NIOPosix
import Testing

/// `GET /metrics` over real HTTP after real traffic through a lossy link with an outage: the
/// byte counters under toxiproxy's names and labels, connections, loss stalls and outages, and
/// the text read back by Prometheus's own parser (`prometheus_client` from PyPI).
// Every test awaits real events; the limit only stops one that would wait for ever.
@Suite(.timeLimit(.minutes(5))) struct ProxyMetricsTests {
    /// 1 Mbit/s both ways with 5 % loss (20 ms stalls) and one 50 ms blackout at 100 ms: 40 kB
    /// each way take about 320 ms, so the outage and some stalls happen during the transfer.
    static let lossy = NetworkProfile(
        name: "lossy",
        downlink: LinkProfile(rate: .bitsPerSecond(1_000_000), loss: LossProfile(rate: 0.05, rto: .milliseconds(20), maximumRTO: .milliseconds(80))),
        uplink: LinkProfile(rate: .bitsPerSecond(1_000_000), loss: LossProfile(rate: 0.05, rto: .milliseconds(20), maximumRTO: .milliseconds(80))),
        outages: [OutageProfile(kind: .blackout, start: .milliseconds(100) ... .milliseconds(100), duration: .milliseconds(50) ... .milliseconds(50))]
    )
    static let size = 40_000

    static let parser = #"""
        import json, sys, urllib.request
        try:
            from prometheus_client.parser import text_string_to_metric_families
        except ImportError as error:
            print("prometheus_client is missing (%s)" % error, file=sys.stderr)
            sys.exit(3)
        with urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1]) as response:
            content_type = response.headers["Content-Type"]
            text = response.read().decode("utf-8")
        families = {}
        for family in text_string_to_metric_families(text):
            families[family.name] = {
                "type": family.type,
                "samples": [[sample.name, dict(sorted(sample.labels.items())), sample.value] for sample in family.samples],
            }
        print(json.dumps({"content_type": content_type, "families": families}))
        """#

    struct Parsed: Decodable {
        struct Family: Decodable {
            var type: String
            var samples: [Sample]
        }
        /// `[name, labels, value]` as the parser gives it.
        struct Sample: Decodable {
            var name: String
            var labels: [String: String]
            var value: Double
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                name = try container.decode(String.self)
                labels = try container.decode([String: String].self)
                value = try container.decode(Double.self)
            }
        }
        var contentType: String
        var families: [String: Family]
        enum CodingKeys: String, CodingKey {
            case contentType = "content_type"
            case families
        }
    }

    @Test func metricsCountWhatTheLinkDidAndPrometheusReadsThem() async throws {
        let echo = try await TestPeers.echoServer()
        let registry = ProxyRegistry(configuration: .init(defaultProfile: "lossy", defaultSeed: 5, makeLink: { _, _, seed throws(ProxyError) in
            .network(Self.lossy, seed: seed)
        }))
        let server = ControlServer(registry: registry, configuration: .init(listen: ProxyEndpoint(host: "127.0.0.1", port: 0)))
        let apiPort = try #require(try await server.start().port)
        try await echo.serving {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run() }
                defer { group.cancelAll() }
                let created = try await HTTPTestClient.request(
                    "POST", "/proxies", port: apiPort, body: #"{"name":"shaped","upstream":"127.0.0.1:\#(echo.port)","listen":"127.0.0.1:0"}"#
                )
                try #require(created.status == 201, "\(created.text)")
                let listen = try #require(created.object?["listen"] as? String)
                let port = try #require(Int(listen.split(separator: ":").last ?? ""))

                let client = try await TestPeers.connect(port: port)
                let echoed = try await client.executeThenClose { inbound, outbound in
                    try await outbound.write(ByteBuffer(repeating: 7, count: Self.size))
                    var iterator = inbound.makeAsyncIterator()
                    return try await TestPeers.read(Self.size, from: &iterator)
                }
                #expect(echoed.readableBytes == Self.size)
                let proxy = try await registry.proxy(named: "shaped")
                #expect(await eventually { await proxy.statistics.openConnections == 0 })

                let metrics = try await HTTPTestClient.request("GET", "/metrics", port: apiPort)
                #expect(metrics.status == 200)
                #expect(metrics.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
                let lines = metrics.text.split(separator: "\n").map(String.init)
                let labels = #"listener="\#(listen)",proxy="shaped",upstream="127.0.0.1:\#(echo.port)""#
                for direction in ["upstream", "downstream"] {
                    #expect(lines.contains(#"toxiproxy_proxy_received_bytes_total{direction="\#(direction)",\#(labels)} \#(Self.size)"#), "\(metrics.text)")
                    #expect(lines.contains(#"toxiproxy_proxy_sent_bytes_total{direction="\#(direction)",\#(labels)} \#(Self.size)"#), "\(metrics.text)")
                }
                #expect(lines.contains(#"lowband_proxy_connections_accepted_total{proxy="shaped"} 1"#))
                #expect(lines.contains(#"lowband_proxy_connections_open{proxy="shaped"} 0.0"#))
                #expect(lines.contains(#"lowband_proxy_outages_total{proxy="shaped",kind="blackout"} 1"#), "\(metrics.text)")
                #expect(lines.contains(#"lowband_proxy_info{proxy="shaped",profile="lossy",seed="5"} 1.0"#))
                let statistics = await proxy.statistics
                #expect(statistics.lossStalls > 0, "5 % loss over 40 kB each way stalls some pieces")
                #expect(lines.contains(#"lowband_proxy_loss_stalls_total{proxy="shaped"} \#(statistics.lossStalls)"#))
                // Families come out sorted by name, so two scrapes of the same state are equal.
                let families = lines.filter { $0.hasPrefix("# TYPE ") }
                #expect(families == families.sorted())
                #expect(families.count == 16)
                // A profile without `dns`: no lookups (an address upstream needs none anyway).
                #expect(lines.contains(#"lowband_proxy_dns_lookups_total{proxy="shaped"} 0"#), "\(metrics.text)")
                #expect(lines.contains(#"lowband_proxy_dns_failures_total{proxy="shaped"} 0"#))
                // An echo that read everything: nothing was discarded in either direction.
                for direction in ["upstream", "downstream"] {
                    #expect(lines.contains(#"lowband_proxy_dropped_bytes_total{direction="\#(direction)",proxy="shaped"} 0"#), "\(metrics.text)")
                }

                // Prometheus's own parser reads the same text and finds the same figures.
                let arguments = ["-c", Self.parser, String(apiPort)]
                let result = try await ExternalProcess.run("python3", arguments)
                if result.status == 3 {
                    Issue.record("prometheus_client is not installed (\(result.stderrText)): run scripts/setup.sh")
                    return
                }
                try #require(result.status == 0, "python3 failed: \(result.stderrText)")
                let parsed = try JSONDecoder().decode(Parsed.self, from: Data(result.stdoutText.utf8))
                #expect(parsed.contentType.hasPrefix("text/plain; version=0.0.4"))
                // The parser names counter families without `_total` and keeps it on samples.
                let received = try #require(parsed.families["toxiproxy_proxy_received_bytes"])
                #expect(received.type == "counter")
                #expect(received.samples.map(\.value) == [Double(Self.size), Double(Self.size)])
                #expect(Set(received.samples.map { $0.labels["direction"] ?? "" }) == ["upstream", "downstream"])
                #expect(received.samples.allSatisfy { $0.labels["listener"] == listen && $0.labels["proxy"] == "shaped" })
                #expect(parsed.families["lowband_proxy_loss_stalls"]?.samples.first?.value == Double(statistics.lossStalls))
                #expect(parsed.families["lowband_proxy_connections_open"]?.type == "gauge")
                #expect(parsed.families["lowband_proxy_dropped_bytes"]?.type == "counter")
                #expect(parsed.families["lowband_proxy_dns_lookups"]?.type == "counter")
                #expect(parsed.families.count == 16)
            }
        }
    }

    /// On a profile with a radio model the scrape says what the device's radio did: seconds per
    /// state and promoting, promotions, and joules that are those seconds times the profile's
    /// powers (3g: CELL_DCH 800 mW, CELL_FACH 460 mW, promotions at the top state's).
    @Test func aRadioProfilesStatesAndEnergyAreScraped() async throws {
        let profile = try ProxyHarness.profile("3g")
        let registry = ProxyRegistry(configuration: .init(defaultProfile: "3g", defaultSeed: 1, makeLink: { _, _, seed throws(ProxyError) in
            .network(profile, seed: seed)
        }))
        let server = ControlServer(registry: registry, configuration: .init(listen: ProxyEndpoint(host: "127.0.0.1", port: 0)))
        let apiPort = try #require(try await server.start().port)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            defer { group.cancelAll() }
            let created = try await HTTPTestClient.request("POST", "/proxies", port: apiPort, body: #"{"name":"phone","upstream":"127.0.0.1:9","listen":"127.0.0.1:0"}"#)
            try #require(created.status == 201, "\(created.text)")
            try await Task.sleep(for: .milliseconds(200))
            let result = try await ExternalProcess.run("python3", ["-c", Self.parser, String(apiPort)])
            try #require(result.status == 0, "python3 failed: \(result.stderrText)")
            let parsed = try JSONDecoder().decode(Parsed.self, from: Data(result.stdoutText.utf8))
            let seconds = try #require(parsed.families["lowband_proxy_radio_seconds"], "\(parsed.families.keys.sorted())")
            #expect(seconds.type == "counter")
            let byState = Dictionary(uniqueKeysWithValues: seconds.samples.map { ($0.labels["state"] ?? "", $0.value) })
            #expect(Set(byState.keys) == ["CELL_DCH", "CELL_FACH", "IDLE", "promoting"])
            // The radio starts at the top (5 s there before CELL_FACH); the scrape came after
            // the 200 ms slept.
            let dch = try #require(byState["CELL_DCH"])
            #expect(dch >= 0.2 && dch <= 5, "\(byState)")
            #expect(parsed.families["lowband_proxy_radio_promotions"]?.samples.first?.value == 0)
            let joules = try #require(parsed.families["lowband_proxy_radio_energy_joules"]?.samples.first?.value)
            let expected = (dch + (byState["promoting"] ?? 0)) * 0.8 + (byState["CELL_FACH"] ?? 0) * 0.46
            #expect(abs(joules - expected) < 1e-6, "\(joules) J, \(byState)")
        }
    }

    /// A deleted proxy leaves the exposition; an empty registry answers an empty body.
    @Test func deletedProxiesDisappear() async throws {
        let registry = ProxyRegistry()
        let server = ControlServer(registry: registry, configuration: .init(listen: ProxyEndpoint(host: "127.0.0.1", port: 0)))
        let apiPort = try #require(try await server.start().port)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            defer { group.cancelAll() }
            _ = try await HTTPTestClient.request("POST", "/proxies", port: apiPort, body: #"{"name":"gone","upstream":"127.0.0.1:9","listen":"127.0.0.1:0"}"#)
            #expect(try await HTTPTestClient.request("GET", "/metrics", port: apiPort).text.contains(#"proxy="gone""#))
            _ = try await HTTPTestClient.request("DELETE", "/proxies/gone", port: apiPort)
            let after = try await HTTPTestClient.request("GET", "/metrics", port: apiPort)
            #expect(after.status == 200)
            #expect(after.body.isEmpty)
            #expect(try await HTTPTestClient.request("POST", "/metrics", port: apiPort).status == 405)
        }
    }
}
