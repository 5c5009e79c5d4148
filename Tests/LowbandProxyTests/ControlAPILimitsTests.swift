import Foundation
import LowbandProxy
import LowbandTestSupport
import NIOCore
import Synchronization
import Testing

/// The control API reads no file it was not allowed to, never quotes a file in an answer, and
/// caps what a client can make it hold: proxies and event streams.
@Suite(.timeLimit(.minutes(5))) struct ControlAPILimitsTests {
    /// Lines the API logged instead of answering with them.
    final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        var text: String { lines.withLock { $0.joined(separator: "\n") } }
        func append(_ line: String) { lines.withLock { $0.append(line) } }
    }

    private func withServer(
        _ configuration: ControlServer.Configuration = .init(),
        registry: ProxyRegistry = ProxyRegistry(),
        _ body: (Int) async throws -> Void
    ) async throws {
        try await ControlServerHarness.withServer(configuration, registry: registry, body)
    }

    /// Writes `secret.yaml` (not a profile: a file with secrets in it) and `allowed/fast.yaml`
    /// (a valid profile) into `root`.
    private func files(in root: TemporaryDirectory) throws -> (secret: String, allowed: String) {
        let allowed = root.file("allowed")
        try FileManager.default.createDirectory(atPath: allowed, withIntermediateDirectories: true)
        let secret = root.file("secret.yaml")
        try "api_token: s3cr3t-value-123\ndownlink:\n  rate: s3cr3t-value-123\n".write(toFile: secret, atomically: true, encoding: .utf8)
        let fast = """
            description: fast
            downlink: {rate: unlimited, delay: 0ms, queue: 1MB}
            uplink: {rate: unlimited, delay: 0ms, queue: 1MB}
            """
        try fast.write(toFile: allowed + "/fast.yaml", atomically: true, encoding: .utf8)
        try "api_token: s3cr3t-value-123\n".write(toFile: allowed + "/bad.yaml", atomically: true, encoding: .utf8)
        return (secret, allowed)
    }

    private func setProfile(_ profile: String, port: Int) async throws -> HTTPTestClient.Response {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["profile": profile]), as: UTF8.self)
        return try await HTTPTestClient.request("POST", "/proxies/phone/profile", port: port, body: body)
    }

    @Test func aProfilePathOutsideTheAllowedDirectoriesIsNeitherReadNorQuoted() async throws {
        let root = try TemporaryDirectory(prefix: "lowband-api")
        let (secret, allowed) = try files(in: root)
        let log = Log()
        let configuration = ControlServer.Configuration(profiles: APIProfileAccess(directories: [allowed]), log: { log.append($0) })
        try await withServer(configuration) { port in
            let created = try await HTTPTestClient.request("POST", "/proxies", port: port, body: #"{"name":"phone","upstream":"127.0.0.1:9","listen":"127.0.0.1:0"}"#)
            #expect(created.status == 201)
            for attempt in [secret, allowed + "/../secret.yaml", allowed + "/bad.yaml", "/etc/passwd", "profiles/perfect.yaml"] {
                let answer = try await setProfile(attempt, port: port)
                #expect(answer.status == 400, "\(attempt)")
                #expect(answer.object?["error"] as? String != nil)
                #expect(!answer.text.contains("s3cr3t"), "\(attempt): \(answer.text)")
                #expect(!answer.text.contains("api_token"), "\(attempt): \(answer.text)")
                #expect(!answer.text.contains("root:"), "\(attempt): \(answer.text)")
            }
            // The details are in the proxy's own log, for its operator.
            #expect(log.text.contains("bad.yaml"))
            // A profile file under an allowed directory, and a profile name, load.
            let fast = try await setProfile(allowed + "/fast.yaml", port: port)
            #expect(fast.status == 200, "\(fast.text)")
            #expect(fast.object?["profile"] as? String == "fast")
            #expect(try await setProfile("perfect", port: port).status == 200)
        }
    }

    @Test func aSeedChangeKeepsAProfileLoadedFromAFile() async throws {
        let root = try TemporaryDirectory(prefix: "lowband-api")
        let allowed = try files(in: root).allowed
        let configuration = ControlServer.Configuration(profiles: APIProfileAccess(directories: [allowed]))
        try await withServer(configuration) { port in
            _ = try await HTTPTestClient.request("POST", "/proxies", port: port, body: #"{"name":"phone","upstream":"127.0.0.1:9","listen":"127.0.0.1:0"}"#)
            #expect(try await setProfile(allowed + "/fast.yaml", port: port).status == 200)
            // Once: "no profile named 'fast'" — the seed change looked the file's name up.
            let reseeded = try await HTTPTestClient.request("POST", "/proxies/phone/seed", port: port, body: #"{"seed":5}"#)
            #expect(reseeded.status == 200, "\(reseeded.text)")
            #expect(reseeded.object?["profile"] as? String == "fast")
            #expect(reseeded.object?["seed"] as? Int == 5)
            let misspelt = try await HTTPTestClient.request("POST", "/proxies/phone/profile", port: port, body: #"{"profil":"3g"}"#)
            #expect(misspelt.status == 400)
            #expect(misspelt.object?["error"] as? String == "unknown key 'profil' in the body of POST /proxies/phone/profile; known keys: profile, seed")
        }
    }

    @Test func withoutAllowedDirectoriesOnlyNamesLoad() async throws {
        let root = try TemporaryDirectory(prefix: "lowband-api")
        let allowed = try files(in: root).allowed
        try await withServer { port in
            _ = try await HTTPTestClient.request("POST", "/proxies", port: port, body: #"{"name":"phone","upstream":"127.0.0.1:9","listen":"127.0.0.1:0"}"#)
            #expect(try await setProfile(allowed + "/fast.yaml", port: port).status == 400)
            let unknown = try await setProfile("no-such-network", port: port)
            #expect(unknown.status == 400)
            #expect((unknown.object?["error"] as? String)?.contains("'no-such-network' is not a valid profile") == true, "\(unknown.text)")
        }
    }

    @Test func theNumberOfProxiesIsCapped() async throws {
        let registry = ProxyRegistry(configuration: ProxyRegistry.Configuration(maximumProxies: 2))
        try await withServer(registry: registry) { port in
            for name in ["a", "b", "c"] {
                let answer = try await HTTPTestClient.request("POST", "/proxies", port: port, body: #"{"name":"\#(name)","upstream":"127.0.0.1:9","listen":"127.0.0.1:0"}"#)
                if name == "c" {
                    #expect(answer.status == 429)
                    #expect((answer.object?["error"] as? String)?.contains("at most 2") == true, "\(answer.text)")
                } else {
                    #expect(answer.status == 201)
                }
            }
            #expect(try await HTTPTestClient.request("DELETE", "/proxies/a", port: port).status == 204)
            #expect(try await HTTPTestClient.request("POST", "/proxies", port: port, body: #"{"name":"c","upstream":"127.0.0.1:9","listen":"127.0.0.1:0"}"#).status == 201)
        }
    }

    @Test func theNumberOfEventStreamsIsCapped() async throws {
        try await withServer(.init(maximumEventStreams: 1)) { port in
            _ = try await HTTPTestClient.request("POST", "/proxies", port: port, body: #"{"name":"phone","upstream":"127.0.0.1:9","listen":"127.0.0.1:0"}"#)
            let first = try await TestPeers.connect(port: port)
            try await first.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: "GET /proxies/phone/events HTTP/1.1\r\nHost: x\r\n\r\n"))
                var iterator = inbound.makeAsyncIterator()
                var head = ByteBuffer()
                while !String(buffer: head).contains("\r\n\r\n"), var next = try await iterator.next() {
                    head.writeBuffer(&next)
                }
                #expect(String(buffer: head).hasPrefix("HTTP/1.1 200"))
                let second = try await HTTPTestClient.request("GET", "/proxies/phone/events", port: port)
                #expect(second.status == 503)
                #expect((second.object?["error"] as? String)?.contains("at most 1") == true, "\(second.text)")
            }
            // The slot is free again once the first stream's client left.
            let freed = await eventually {
                let client = try? await TestPeers.connect(port: port)
                guard let client else { return false }
                return (try? await client.executeThenClose { inbound, outbound in
                    try await outbound.write(ByteBuffer(string: "GET /proxies/phone/events?limit=1 HTTP/1.1\r\nHost: x\r\n\r\n"))
                    var iterator = inbound.makeAsyncIterator()
                    let first = try await iterator.next()
                    return first.map { String(buffer: $0).hasPrefix("HTTP/1.1 200") } ?? false
                }) ?? false
            }
            #expect(freed)
        }
    }
}
