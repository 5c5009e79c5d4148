import Foundation
import LowbandProxy
import LowbandProxyCore
import LowbandShaper
import NIOCore
import Testing

/// The control API calls behind the live page, as a script makes them: the open connections
/// with the link's state, an outage forced now, one connection reset, the record paused; and the
/// page itself only for its token.
@Suite(.timeLimit(.minutes(5))) struct LiveControlAPITests {
    @Test func connectionsOutageAndResetThroughTheAPI() async throws {
        let echo = try await TestPeers.echoServer()
        defer { Task { await echo.close() } }
        let registry = ProxyRegistry()
        let created = try await registry.create(ProxySpecification(name: "app", listen: "127.0.0.1:0", upstream: "127.0.0.1:\(echo.port)"))
        let port = try #require(Int(created.listen.split(separator: ":").last ?? ""))
        try await ControlServerHarness.withServer(registry: registry) { api in
            let client = try await TestPeers.connect(port: port)
            try await client.executeThenClose { inbound, outbound in
                var iterator = inbound.makeAsyncIterator()
                try await outbound.write(ByteBuffer(string: "hello"))
                _ = try await iterator.next()
                let listed = try await HTTPTestClient.request("GET", "/proxies/app/connections", port: api)
                #expect(listed.status == 200)
                let body = try #require(listed.object)
                #expect((body["link"] as? [String: Any])?["down"] as? Bool == false)
                #expect((body["link"] as? [String: Any])?["queued_downstream_bytes"] as? Int == 0)
                let connections = try #require(body["connections"] as? [[String: Any]])
                #expect(connections.count == 1)
                #expect(connections.first?["number"] as? Int == 1 && connections.first?["state"] as? String == "open")
                #expect(connections.first?["upstream_bytes"] as? Int == 5 && connections.first?["downstream_bytes"] as? Int == 5)
                #expect((connections.first?["description"] as? String)?.hasSuffix("→ 127.0.0.1:\(echo.port)") == true)

                // An outage now: the link is down until its end; what is sent meanwhile waits. It
                // begins after this instant, whenever the API gets to it, so it ends 1.5 s after at least.
                let sent = ContinuousClock.now
                let forced = try await HTTPTestClient.request("POST", "/proxies/app/outage", port: api, body: #"{"seconds": 1.5}"#)
                #expect(forced.status == 200, "\(forced.text)")
                #expect(forced.object?["down"] as? Bool == true && forced.object?["forced"] as? String == "outage")
                try await outbound.write(ByteBuffer(string: "held"))
                _ = try await iterator.next()
                #expect(ContinuousClock.now - sent >= .milliseconds(1_500), "the echo came back before the outage ended")
                let after = try #require(try await HTTPTestClient.request("GET", "/proxies/app/connections", port: api).object)
                #expect((after["link"] as? [String: Any])?["down"] as? Bool == false)

                for (body, words) in [
                    (#"{"seconds": 0}"#, "seconds must be more than 0 and at most 3600"), (#"{"seconds": 1, "kind": "flood"}"#, "kind must be 'outage' or 'handover'"),
                    (#"{}"#, "missing required field: seconds"), (#"{"second": 1}"#, "unknown key 'second'"),
                ] {
                    let refused = try await HTTPTestClient.request("POST", "/proxies/app/outage", port: api, body: body)
                    #expect(refused.status == 400 && refused.text.contains(words), "\(body): \(refused.text)")
                }

                // Reset one connection: the client sees its end.
                let missing = try await HTTPTestClient.request("DELETE", "/proxies/app/connections/9", port: api)
                #expect(missing.status == 404 && missing.text.contains("connection not found: '9'"), "\(missing.text)")
                let reset = try await HTTPTestClient.request("DELETE", "/proxies/app/connections/1", port: api)
                #expect(reset.status == 204, "\(reset.text)")
                var ended = false
                do {
                    while try await iterator.next() != nil {}
                    ended = true
                } catch {
                    ended = true
                }
                #expect(ended)
            }
            let empty = try #require(try await HTTPTestClient.request("GET", "/proxies/app/connections", port: api).object)
            #expect((empty["connections"] as? [Any])?.isEmpty == true)
        }
        await registry.stopAll()
    }

    @Test func theRecordPausesAndThePageNeedsItsToken() async throws {
        let registry = ProxyRegistry()
        let clock = ContinuousClock()
        let origin = clock.now
        let record = RecordSwitch(clock: { clock.now - origin })
        var configuration = ControlServer.Configuration()
        configuration.pageToken = "0123456789abcdef0123456789abcdef"
        configuration.record = record
        try await ControlServerHarness.withServer(configuration, registry: registry) { api in
            #expect(try await HTTPTestClient.request("GET", "/record", port: api).text == #"{"paused":false}"#)
            #expect(try await HTTPTestClient.request("POST", "/record", port: api, body: #"{"paused":true}"#).text == #"{"paused":true}"#)
            #expect(record.isPaused)
            #expect(try await HTTPTestClient.request("POST", "/record", port: api, body: #"{"paused":false}"#).text == #"{"paused":false}"#)
            #expect(record.pausedIntervals.count == 1 && record.pausedIntervals.first?.end != nil)
            let bad = try await HTTPTestClient.request("POST", "/record", port: api, body: #"{"pause":true}"#)
            #expect(bad.status == 400 && bad.text.contains("unknown key 'pause'"))

            let page = try await HTTPTestClient.request("GET", "/ui?token=0123456789abcdef0123456789abcdef", port: api)
            #expect(page.status == 200 && page.header("content-type") == "text/html; charset=utf-8")
            // Self-contained: nothing is loaded from anywhere else.
            #expect(!page.text.contains("src=\"http") && !page.text.contains("href=\"http") && !page.text.contains("@import"))
            #expect(try await HTTPTestClient.request("GET", "/ui?token=wrong", port: api).status == 403)
            #expect(try await HTTPTestClient.request("GET", "/ui", port: api).status == 403)
            let browser = [("User-Agent", "Mozilla/5.0 Chrome/120")]
            let refused = try await HTTPTestClient.request("GET", "/version", port: api, headers: browser)
            #expect(refused.status == 403 && refused.text.contains("a browser needs the live page's token"))
            #expect(try await HTTPTestClient.request("GET", "/version", port: api, headers: browser + [("X-Lowband-Token", "0123456789abcdef0123456789abcdef")]).status == 200)
            #expect(try await HTTPTestClient.request("GET", "/ui?token=0123456789abcdef0123456789abcdef", port: api, headers: browser).status == 200)
        }
        // Without a token configured there is no page, and browsers are refused as before.
        try await ControlServerHarness.withServer(registry: registry) { api in
            #expect(try await HTTPTestClient.request("GET", "/ui?token=x", port: api).status == 404)
            #expect(try await HTTPTestClient.request("GET", "/record", port: api).status == 404)
            let refused = try await HTTPTestClient.request("GET", "/version", port: api, headers: [("User-Agent", "Mozilla/5.0"), ("X-Lowband-Token", "x")])
            #expect(refused.status == 403 && refused.text.contains("User agent not allowed"))
        }
        await registry.stopAll()
    }
}
