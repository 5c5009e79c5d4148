import Foundation
import LowbandProcess
import LowbandProxy
import LowbandTestSupport
import NIOPosix
import Testing

/// An unmodified toxiproxy client — `toxiproxy-python` from PyPI — drives the control API:
/// create a proxy, add a latency toxic, measure the delay it adds with socket echo round trips,
/// remove it, reset. Its error classes map to our status codes (409, 404, 400).
// Every test awaits real events; the limit only stops one that would wait for ever.
/// Wall clock (scripts/test.sh runs it alone): runs the toxiproxy-python client against real proxies and measures the latency it configured.
@Suite(.serialized, .timeLimit(.minutes(1)), .tags(.wallClock)) struct ToxiproxyPythonTests {
    static let script = #"""
        import json, socket, sys, time
        try:
            import toxiproxy
            from toxiproxy.api import APIConsumer
            from toxiproxy.exceptions import InvalidToxic, NotFound, ProxyExists
        except ImportError as error:
            print("toxiproxy-python is missing (%s)" % error, file=sys.stderr)
            sys.exit(3)

        api_port, upstream_port = int(sys.argv[1]), int(sys.argv[2])
        server = toxiproxy.Toxiproxy()
        server.update_api_consumer("127.0.0.1", api_port)
        assert server.running(), "the API does not answer"
        version = json.loads(server.version())["version"]

        proxy = server.create(upstream="127.0.0.1:%d" % upstream_port, name="py_echo", listen="127.0.0.1:0")
        host, port = proxy.listen.rsplit(":", 1)

        def round_trips(count=5):
            samples = []
            with socket.create_connection((host, int(port))) as connection:
                connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                for index in range(count):
                    message = bytes([index]) * 100
                    start = time.monotonic()
                    connection.sendall(message)
                    received = b""
                    while len(received) < len(message):
                        chunk = connection.recv(4096)
                        assert chunk, "the proxy closed the connection"
                        received += chunk
                    samples.append(time.monotonic() - start)
                    assert received == message
            return samples

        before = round_trips()
        proxy.add_toxic(type="latency", attributes={"latency": 200, "jitter": 0})
        toxics = proxy.toxics()
        assert list(toxics) == ["latency_downstream"], toxics
        assert toxics["latency_downstream"].attributes == {"latency": 200, "jitter": 0}
        slowed = round_trips()
        assert proxy.destroy_toxic("latency_downstream")
        assert proxy.toxics() == {}
        after = round_trips()

        errors = []
        try:
            APIConsumer.post("/proxies", json={"name": "py_echo", "upstream": "127.0.0.1:1"})
        except ProxyExists:
            errors.append("exists")
        try:
            APIConsumer.get("/proxies/nope")
        except NotFound:
            errors.append("not found")
        try:
            proxy.add_toxic(type="nonsense")
        except InvalidToxic:
            errors.append("invalid toxic")

        with proxy.down():
            try:
                socket.create_connection((host, int(port)), timeout=2).close()
                down = "still listening"
            except OSError:
                down = "refused"
        proxy.add_toxic(type="timeout", attributes={"timeout": 0}, stream="upstream")
        assert server.reset()
        assert proxy.toxics() == {}
        populated = server.populate([{"name": "py_more", "upstream": "127.0.0.1:%d" % upstream_port, "listen": "127.0.0.1:0"}])
        names = sorted(server.proxies())
        server.destroy_all()
        remaining = server.proxies()

        print(json.dumps({
            "version": version, "before": before, "slowed": slowed, "after": after, "errors": errors,
            "down": down, "populated": [p.name for p in populated], "names": names, "remaining": len(remaining),
        }))
        """#

    struct Report: Decodable {
        var version: String
        var before: [Double]
        var slowed: [Double]
        var after: [Double]
        var errors: [String]
        var down: String
        var populated: [String]
        var names: [String]
        var remaining: Int
    }

    @Test func toxiproxyPythonClientDrivesTheAPI() async throws {
        let echo = try await TestPeers.echoServer()
        let registry = ProxyRegistry()
        let server = ControlServer(registry: registry, configuration: .init(listen: ProxyEndpoint(host: "127.0.0.1", port: 0)))
        let apiPort = try #require(try await server.start().port)
        let result = try await echo.serving {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run() }
                defer { group.cancelAll() }
                let arguments = ["-c", Self.script, String(apiPort), String(echo.port)]
                return try await ExternalProcess.run("python3", arguments)
            }
        }
        if result.status == 3 {
            Issue.record("toxiproxy-python is not installed (\(result.stderrText.trimmingCharacters(in: .whitespacesAndNewlines))): run scripts/setup.sh")
            return
        }
        try #require(result.status == 0, "python3 failed: \(result.stderrText)")
        let report = try JSONDecoder().decode(Report.self, from: Data(result.stdoutText.utf8))
        func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }
        let base = median(report.before)
        let slowed = median(report.slowed)
        let after = median(report.after)
        let added = slowed - base
        print("toxiproxy-python: RTT \(String(format: "%.2f", base * 1000)) ms, with a 200 ms latency toxic \(String(format: "%.2f", slowed * 1000)) ms (+\(String(format: "%.2f", added * 1000)) ms), after removal \(String(format: "%.2f", after * 1000)) ms")
        #expect(!report.version.isEmpty)
        // On the perfect link the toxic adds its 200 ms to the round trip measured just before it:
        // read against that, what a loaded machine adds to every round trip (a fraction of a ms
        // when idle, 8 ms in a CI run beside three builds) cancels.
        #expect(abs(added - 0.200) <= 0.002 + 0.02 * 0.200, "the toxic adds \(added * 1000) ms to the round trip (\(report.before) → \(report.slowed)), not 200 ms")
        #expect(report.slowed.allSatisfy { $0 >= 0.200 }, "every round trip through the toxic takes its 200 ms")
        #expect(after < 0.050, "removing the toxic removes its delay (median \(after * 1000) ms)")
        #expect(report.errors == ["exists", "not found", "invalid toxic"])
        #expect(report.down == "refused")
        #expect(report.populated == ["py_more"])
        #expect(report.names == ["py_echo", "py_more"])
        #expect(report.remaining == 0)
    }
}
