import ArgumentParser
import Foundation
@testable import LowbandCLI
import LowbandProxy
import LowbandProxyCore
import LowbandProcess
import LowbandTestSupport
import Testing

/// `lowband proxy`: option parsing, and the built binary run as a service — it proxies, serves
/// the control API, prints a status line per connection, traces, and exits 0 on SIGTERM.
@Suite struct ProxyCommandTests {
    private let lowband = LowbandBinary.path

    private func parse(_ arguments: [String]) throws -> ProxyCommand {
        try #require(try Lowband.parseAsRoot(["proxy"] + arguments) as? ProxyCommand)
    }

    // MARK: Parsing

    @Test func optionsParseAsDocumented() throws {
        let command = try parse(["--listen", "127.0.0.1:9000", "--upstream", "127.0.0.1:8080", "--profile", "edge", "--seed", "7", "--trace", "t.jsonl", "--api", "127.0.0.1:8474"])
        #expect(command.listen == "127.0.0.1:9000")
        #expect(command.upstream == "127.0.0.1:8080")
        #expect(command.profile == "edge")
        #expect(command.seed == 7)
        #expect(command.trace == "t.jsonl")
        #expect(try command.apiEndpoint?.description == "127.0.0.1:8474")
    }

    @Test func theAPIIsOn8474UnlessToldOtherwise() throws {
        let apiOnly = try parse([])
        #expect(apiOnly.upstream == nil)
        #expect(try apiOnly.apiEndpoint?.description == "127.0.0.1:8474")
        let proxy = try parse(["--upstream", "127.0.0.1:8080"])
        #expect(try proxy.apiEndpoint?.description == "127.0.0.1:8474", "as toxiproxy-server: the API runs beside the proxy")
        #expect(try parse(["--upstream", "127.0.0.1:8080", "--no-api"]).apiEndpoint == nil)
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--no-api"]) }
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--upstream", "127.0.0.1:8080", "--no-api", "--api", "127.0.0.1:0"]) }
    }

    @Test func impossibleArgumentsAreRejected() {
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--upstream", "nowhere"]) }
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--listen", "127.0.0.1:70000"]) }
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--api", "::1:80"]) }
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--trace", "t.jsonl"]) }
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--seed", "-1"]) }
    }

    @Test func aRemoteAPIAddressNeedsItsFlag() throws {
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--api", "0.0.0.0:8474"]) }
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--api", "192.168.1.5:8474"]) }
        #expect(try parse(["--api", "0.0.0.0:8474", "--api-allow-remote"]).apiAllowRemote)
        #expect(try parse(["--api", "localhost:8474"]).apiEndpoint != nil)
        #expect(try parse(["--api", "[::1]:8474", "--listen", "127.0.0.2:0"]).apiEndpoint != nil)
        #expect(try parse(["--api-profile-dir", "a", "--api-profile-dir", "b"]).apiProfileDirectories == ["a", "b"])
    }

    @Test func frontDoorsParseAndRemoteOnesNeedTheirFlag() throws {
        let doors = try parse(["--socks", "127.0.0.1:1080", "--socks-auth", "app:pw", "--http-proxy", ":3128"])
        #expect(try doors.servesTraffic && doors.apiEndpoint != nil)
        #expect(try doors.doors == [
            DoorListener(listen: ProxyEndpoint(host: "127.0.0.1", port: 1080), door: .socks5(SocksCredentials(username: "app", password: "pw"))),
            DoorListener(listen: ProxyEndpoint(host: "127.0.0.1", port: 3128), door: .httpProxy),
        ])
        #expect(try parse(["--socks", "127.0.0.1:0", "--no-api", "--trace", "t.jsonl"]).noAPI)
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--socks-auth", "a:b"]) }
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--socks", "127.0.0.1:1080", "--socks-auth", "nocolon"]) }
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--socks", "0.0.0.0:1080"]) }
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--http-proxy", "192.168.1.5:3128"]) }
        #expect(try parse(["--socks", "0.0.0.0:1080", "--allow-remote"]).allowRemote)
    }

    @Test func routesParseInOrderFileFirst() throws {
        let directory = try TemporaryDirectory(prefix: "lowband-routes")
        let file = directory.url.appendingPathComponent("routes.txt")
        try "# far CDN\n*.cdn.example.com = gprs\n".write(to: file, atomically: true, encoding: .utf8)
        let command = try parse(["--socks", "127.0.0.1:0", "--route", "ads.example.com=block", "--routes", file.path, "--route", "*=direct"])
        #expect(try command.routeRules.map(\.description) == ["*.cdn.example.com=gprs", "ads.example.com=block", "*=direct"])
        #expect(try command.loadedRoutes.routes.count == 3)
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--route", "*=direct"]) }
    }

    @Test func aBadRuleIsOneErrorLineNamingIt() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-routes")
        let file = directory.url.appendingPathComponent("routes.txt")
        try "*.cdn.example.com=gprs\ncdn:http=edge\n".write(to: file, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["--route", "cdn.example.com"], "--route 'cdn.example.com' is no rule: write PATTERN=ACTION"),
            (["--routes", file.path], "--routes \(file.path):2: pattern 'cdn:http': port 'http' is not 1–65535 or '*'"),
            (["--route", "cdn=no-such-network"], "--route: route 'cdn=no-such-network'"),
        ]
        for (arguments, words) in cases {
            let result = try await LowbandBinary.run(["proxy", "--socks", "127.0.0.1:0", "--no-api"] + arguments)
            #expect(result.status != 0)
            #expect(result.stderrText.contains(words), "\(result.stderrText)")
            #expect(result.stderrText.split(separator: "\n").count <= 2, "\(result.stderrText)")
        }
    }

    @Test func aRemoteSocksDoorWithoutItsFlagIsOneErrorLine() async throws {
        let result = try await LowbandBinary.run(["proxy", "--socks", "0.0.0.0:0", "--no-api"])
        #expect(result.status != 0)
        #expect(result.stderrText.contains("--allow-remote"), "\(result.stderrText)")
        #expect(result.stderrText.split(separator: "\n").count <= 2, "\(result.stderrText)")
    }

    @Test func aRemoteAPIAddressWithoutItsFlagIsOneErrorLine() async throws {
        let result = try await LowbandBinary.run(["proxy", "--api", "0.0.0.0:0"])
        #expect(result.status != 0)
        #expect(result.stderrText.contains("--api-allow-remote"), "\(result.stderrText)")
    }

    // MARK: The built binary

    @Test func anUnknownProfileIsOneErrorLine() async throws {
        let result = try await LowbandBinary.run(["proxy", "--listen", "127.0.0.1:0", "--upstream", "127.0.0.1:9", "--profile", "no-such-network"])
        #expect(result.status == 1)
        let lines = result.stderrText.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("lowband proxy: error: ") == true)
        #expect(result.stderrText.contains("no-such-network"))
    }

    static let serviceScript = #"""
        import json, signal, socket, subprocess, sys, threading, urllib.request
        lowband, trace, mode = sys.argv[1], sys.argv[2], sys.argv[3]

        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen()
        echo_port = server.getsockname()[1]
        def echo(connection):
            with connection:
                while data := connection.recv(65536):
                    connection.sendall(data)
        def accept():
            while True:
                connection, _ = server.accept()
                threading.Thread(target=echo, args=(connection,), daemon=True).start()
        threading.Thread(target=accept, daemon=True).start()

        if mode == "proxy":
            arguments = ["proxy", "--listen", "127.0.0.1:0", "--upstream", "127.0.0.1:%d" % echo_port,
                         "--api", "127.0.0.1:0", "--profile", "perfect", "--seed", "3", "--trace", trace]
        else:
            arguments = ["proxy", "--api", "127.0.0.1:0"]
        process = subprocess.Popen([lowband] + arguments, stderr=subprocess.PIPE, text=True)
        lines, listen, api = [], None, None
        def next_line():
            line = process.stderr.readline()
            if not line:
                raise SystemExit("lowband exited early: %r" % lines)
            lines.append(line.rstrip("\n"))
            return lines[-1]
        while api is None or (mode == "proxy" and listen is None):
            line = next_line()
            if line.startswith("proxy lowband listening on "):
                listen = line.split()[4]
            if line.startswith("control API listening on "):
                api = line.split()[4]

        echoed = None
        if mode == "proxy":
            host, port = listen.rsplit(":", 1)
            with socket.create_connection((host, int(port)), timeout=10) as connection:
                connection.sendall(b"hello")
                echoed = connection.recv(5).decode()
            while not next_line().startswith("#1 close"):
                pass
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        version = json.loads(opener.open("http://%s/version" % api, timeout=10).read())["version"]
        process.send_signal(signal.SIGTERM)
        try:
            status = process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            status = "did not stop on SIGTERM"
        lines += process.stderr.read().splitlines()
        print(json.dumps({"status": status, "lines": lines, "echoed": echoed, "version": version, "echo_port": echo_port}))
        """#

    struct ServiceReport: Decodable {
        var status: Int
        var lines: [String]
        var echoed: String?
        var version: String
        var echoPort: Int

        enum CodingKeys: String, CodingKey {
            case status, lines, echoed, version
            case echoPort = "echo_port"
        }
    }

    private func runService(mode: String, trace: String) async throws -> ServiceReport {
        let result = try await ExternalProcess.run("python3", ["-c", Self.serviceScript, lowband, trace, mode])
        try #require(result.status == 0, "the driver script failed: \(result.stderrText)")
        return try JSONDecoder().decode(ServiceReport.self, from: Data(result.stdoutText.utf8))
    }

    @Test func theProxyServesLogsTracesAndStopsOnSIGTERM() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-proxy-trace")
        let trace = directory.file("trace.jsonl")
        let report = try await runService(mode: "proxy", trace: trace)
        #expect(report.status == 0, "\(report.lines)")
        #expect(report.echoed == "hello")
        #expect(!report.version.isEmpty)
        #expect(report.lines.contains { $0.hasPrefix("#1 open 127.0.0.1:") && $0.hasSuffix("→ 127.0.0.1:\(report.echoPort)") }, "\(report.lines)")
        #expect(report.lines.contains { $0.hasPrefix("#1 close after ") && $0.contains("up 5 B, down 5 B") }, "\(report.lines)")
        #expect(report.lines.contains("stopping on signal 15"))
        let traced = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(traced.first?.contains(#""event":"open""#) == true)
        #expect(traced.contains { $0.contains(#""event":"deliver""#) })
    }

    @Test func withoutAnUpstreamItIsJustTheControlAPI() async throws {
        let report = try await runService(mode: "api", trace: "")
        #expect(report.status == 0, "\(report.lines)")
        #expect(!report.version.isEmpty)
        #expect(!report.lines.contains { $0.hasPrefix("proxy ") })
    }
}
