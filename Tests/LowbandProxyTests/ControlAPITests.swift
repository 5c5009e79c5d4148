import Foundation
import LowbandProxy
import LowbandShaper
import NIOCore
import Testing

/// The toxiproxy-compatible control API over real HTTP on loopback: routes, JSON shapes,
/// status codes, and the Lowband additions.
// Every test awaits real events; the limit only stops one that would wait for ever.
@Suite(.timeLimit(.minutes(5))) struct ControlAPITests {
    /// Runs `body` against a started control server (ephemeral port), then stops it.
    private func withServer(_ body: (Int, ProxyRegistry) async throws -> Void) async throws {
        let registry = ProxyRegistry()
        let server = ControlServer(registry: registry, configuration: .init(listen: ProxyEndpoint(host: "127.0.0.1", port: 0)))
        let port = try #require(try await server.start().port)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            do {
                try await body(port, registry)
            } catch {
                group.cancelAll()
                throw error
            }
            group.cancelAll()
        }
    }

    private func create(_ name: String, upstream: Int, port: Int) async throws -> HTTPTestClient.Response {
        try await HTTPTestClient.request("POST", "/proxies", port: port, body: #"{"name":"\#(name)","upstream":"127.0.0.1:\#(upstream)","listen":"127.0.0.1:0"}"#)
    }

    @Test func versionAndProxyLifecycle() async throws {
        let echo = try await TestPeers.echoServer()
        try await echo.serving {
            try await withServer { port, _ in
                let version = try await HTTPTestClient.request("GET", "/version", port: port)
                #expect(version.status == 200)
                #expect((version.object?["version"] as? String)?.isEmpty == false)

                let created = try await create("api", upstream: echo.port, port: port)
                #expect(created.status == 201)
                let proxy = try #require(created.object)
                #expect(proxy["name"] as? String == "api")
                #expect(proxy["enabled"] as? Bool == true)
                #expect(proxy["upstream"] as? String == "127.0.0.1:\(echo.port)")
                #expect((proxy["toxics"] as? [Any])?.isEmpty == true)
                #expect(proxy["profile"] as? String == "perfect")
                let listen = try #require(proxy["listen"] as? String)
                let listenPort = try #require(Int(listen.split(separator: ":").last ?? ""))
                #expect(listenPort > 0)

                let duplicate = try await create("api", upstream: echo.port, port: port)
                #expect(duplicate.status == 409)
                #expect(duplicate.object?["status"] as? Int == 409)
                #expect(duplicate.object?["error"] as? String == "proxy already exists: 'api'")

                let list = try await HTTPTestClient.request("GET", "/proxies", port: port)
                #expect((list.object?["api"] as? [String: Any])?["listen"] as? String == listen)

                // Traffic flows through it.
                let client = try await TestPeers.connect(port: listenPort)
                try await client.executeThenClose { inbound, outbound in
                    var iterator = inbound.makeAsyncIterator()
                    try await outbound.write(ByteBuffer(string: "hello"))
                    #expect(try await TestPeers.read(5, from: &iterator) == ByteBuffer(string: "hello"))
                }

                // Disabled: nothing listens; enabled again: the same port.
                let disabled = try await HTTPTestClient.request("POST", "/proxies/api", port: port, body: #"{"enabled":false}"#)
                #expect(disabled.status == 200)
                #expect(disabled.object?["enabled"] as? Bool == false)
                await #expect(throws: (any Error).self) { try await TestPeers.connect(port: listenPort) }
                let enabled = try await HTTPTestClient.request("POST", "/proxies/api", port: port, body: #"{"enabled":true}"#)
                #expect(enabled.object?["listen"] as? String == listen)

                let deleted = try await HTTPTestClient.request("DELETE", "/proxies/api", port: port)
                #expect(deleted.status == 204)
                #expect(deleted.body.isEmpty)
                let gone = try await HTTPTestClient.request("GET", "/proxies/api", port: port)
                #expect(gone.status == 404)
                #expect(gone.object?["error"] as? String == "proxy not found: 'api'")
            }
        }
    }

    @Test func toxicLifecycleAndErrors() async throws {
        try await withServer { port, _ in
            #expect(try await create("db", upstream: 9, port: port).status == 201)
            let added = try await HTTPTestClient.request("POST", "/proxies/db/toxics", port: port, body: #"{"type":"latency","attributes":{"latency":100}}"#)
            #expect(added.status == 200)
            let toxic = try #require(added.object)
            #expect(toxic["name"] as? String == "latency_downstream")
            #expect(toxic["stream"] as? String == "downstream")
            #expect(toxic["toxicity"] as? Double == 1)
            #expect(toxic["attributes"] as? [String: Int] == ["latency": 100, "jitter": 0])

            let duplicate = try await HTTPTestClient.request("POST", "/proxies/db/toxics", port: port, body: #"{"type":"latency"}"#)
            #expect(duplicate.status == 409)
            let unknownType = try await HTTPTestClient.request("POST", "/proxies/db/toxics", port: port, body: #"{"type":"explode"}"#)
            #expect(unknownType.status == 400)
            let badStream = try await HTTPTestClient.request("POST", "/proxies/db/toxics", port: port, body: #"{"type":"bandwidth","stream":"sideways"}"#)
            #expect(badStream.status == 400)
            #expect((badStream.object?["error"] as? String)?.hasPrefix("stream was invalid") == true)
            let malformed = try await HTTPTestClient.request("POST", "/proxies/db/toxics", port: port, body: #"{"type": "latency","#)
            #expect(malformed.status == 400)
            #expect(malformed.object?["status"] as? Int == 400)
            let negative = try await HTTPTestClient.request("POST", "/proxies/db/toxics", port: port, body: #"{"type":"latency","name":"neg","attributes":{"latency":-5}}"#)
            #expect(negative.status == 400)

            let updated = try await HTTPTestClient.request("POST", "/proxies/db/toxics/latency_downstream", port: port, body: #"{"attributes":{"jitter":10},"toxicity":0.5}"#)
            #expect(updated.status == 200)
            #expect(updated.object?["attributes"] as? [String: Int] == ["latency": 100, "jitter": 10])
            #expect(updated.object?["toxicity"] as? Double == 0.5)

            let one = try await HTTPTestClient.request("GET", "/proxies/db/toxics/latency_downstream", port: port)
            #expect(one.status == 200)
            let list = try await HTTPTestClient.request("GET", "/proxies/db/toxics", port: port)
            #expect(list.array?.count == 1)

            #expect(try await HTTPTestClient.request("DELETE", "/proxies/db/toxics/latency_downstream", port: port).status == 204)
            #expect(try await HTTPTestClient.request("DELETE", "/proxies/db/toxics/latency_downstream", port: port).status == 404)
            #expect(try await HTTPTestClient.request("GET", "/proxies/nope/toxics", port: port).status == 404)
            #expect(try await HTTPTestClient.request("POST", "/proxies/nope/toxics", port: port, body: #"{"type":"latency"}"#).status == 404)
        }
    }

    @Test func badRequestsGetToxiproxysErrorShape() async throws {
        try await withServer { port, _ in
            let missing = try await HTTPTestClient.request("POST", "/proxies", port: port, body: #"{"name":"x"}"#)
            #expect(missing.status == 400)
            #expect(missing.object?["error"] as? String == "missing required field: upstream")
            let garbage = try await HTTPTestClient.request("POST", "/proxies", port: port, body: "not json")
            #expect(garbage.status == 400)
            let badListen = try await HTTPTestClient.request("POST", "/proxies", port: port, body: #"{"name":"x","upstream":"127.0.0.1:1","listen":"nowhere"}"#)
            #expect(badListen.status == 400)
            #expect(try await HTTPTestClient.request("GET", "/nothing/here", port: port).status == 404)
            #expect(try await HTTPTestClient.request("DELETE", "/version", port: port).status == 405)
            let tooLarge = try await HTTPTestClient.request("POST", "/proxies", port: port, body: String(repeating: " ", count: 1_100_000))
            #expect(tooLarge.status == 413)
            let browser = try await HTTPTestClient.request("GET", "/proxies", port: port, headers: [("User-Agent", "Mozilla/5.0")])
            #expect(browser.status == 403)
            // The server is still fine.
            #expect(try await HTTPTestClient.request("GET", "/version", port: port).status == 200)
        }
    }

    @Test func populateAndReset() async throws {
        try await withServer { port, registry in
            let body = #"[{"name":"a","upstream":"127.0.0.1:1"},{"name":"b","upstream":"127.0.0.1:2","enabled":false}]"#
            let populated = try await HTTPTestClient.request("POST", "/populate", port: port, body: body)
            #expect(populated.status == 201)
            let proxies = try #require(populated.object?["proxies"] as? [[String: Any]])
            #expect(proxies.map { $0["name"] as? String } == ["a", "b"])
            let again = try await HTTPTestClient.request("POST", "/populate", port: port, body: #"[{"name":"a","upstream":"127.0.0.1:1","listen":"\#(proxies[0]["listen"] as? String ?? "")"}]"#)
            #expect(((again.object?["proxies"] as? [[String: Any]])?.first?["listen"] as? String) == proxies[0]["listen"] as? String)
            let invalid = try await HTTPTestClient.request("POST", "/populate", port: port, body: #"[{"upstream":"127.0.0.1:1"}]"#)
            #expect(invalid.status == 400)
            #expect(invalid.object?["error"] as? String == "missing required field: name at proxy 1")

            _ = try await HTTPTestClient.request("POST", "/proxies/a/toxics", port: port, body: #"{"type":"timeout"}"#)
            #expect(try await HTTPTestClient.request("POST", "/reset", port: port).status == 204)
            let a = try await HTTPTestClient.request("GET", "/proxies/a", port: port)
            #expect((a.object?["toxics"] as? [Any])?.isEmpty == true)
            #expect(try await registry.describe(named: "b").enabled)
        }
    }

    @Test func profilesSeedsStatsAndEvents() async throws {
        let echo = try await TestPeers.echoServer()
        try await echo.serving {
            try await withServer { port, _ in
                let created = try await create("phone", upstream: echo.port, port: port)
                let listen = try #require(created.object?["listen"] as? String)
                let listenPort = try #require(Int(listen.split(separator: ":").last ?? ""))

                let profiles = try await HTTPTestClient.request("GET", "/profiles", port: port)
                #expect((profiles.array as? [String])?.contains("perfect") == true)
                let switched = try await HTTPTestClient.request("POST", "/proxies/phone/profile", port: port, body: #"{"profile":"perfect","seed":9}"#)
                #expect(switched.status == 200)
                #expect(switched.object?["seed"] as? Int == 9)
                let reseeded = try await HTTPTestClient.request("POST", "/proxies/phone/seed", port: port, body: #"{"seed":11}"#)
                #expect(reseeded.object?["seed"] as? Int == 11)
                #expect(reseeded.object?["profile"] as? String == "perfect")
                let unknown = try await HTTPTestClient.request("POST", "/proxies/phone/profile", port: port, body: #"{"profile":"no-such-network"}"#)
                #expect(unknown.status == 400)

                // Three events: open, connect, and the first delivery. The stream's head comes
                // once the server has subscribed, so the connection starts after that.
                let eventsClient = try await TestPeers.connect(port: port)
                let raw = try await eventsClient.executeThenClose { inbound, outbound in
                    try await outbound.write(ByteBuffer(string: "GET /proxies/phone/events?limit=3 HTTP/1.1\r\nHost: x\r\n\r\n"))
                    var iterator = inbound.makeAsyncIterator()
                    var raw = ByteBuffer()
                    while !String(buffer: raw).contains("\r\n\r\n"), var next = try await iterator.next() {
                        raw.writeBuffer(&next)
                    }
                    let client = try await TestPeers.connect(port: listenPort)
                    try await client.executeThenClose { inbound, outbound in
                        var iterator = inbound.makeAsyncIterator()
                        try await outbound.write(ByteBuffer(string: "ping"))
                        _ = try await TestPeers.read(4, from: &iterator)
                    }
                    var rest = try await TestPeers.readToEnd(from: &iterator)
                    raw.writeBuffer(&rest)
                    return Array(raw.readableBytesView)
                }
                let stream = try HTTPTestClient.parse(raw)
                #expect(stream.status == 200)
                #expect(stream.header("content-type") == "application/x-ndjson")
                let lines = stream.text.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                #expect(lines.count == 3)
                #expect(lines.compactMap { $0?["event"] as? String } == ["open", "connect", "resume"])

                let stats = try await HTTPTestClient.request("GET", "/proxies/phone/stats", port: port)
                #expect(stats.object?["accepted_connections"] as? Int == 1)
            }
        }
    }
}
